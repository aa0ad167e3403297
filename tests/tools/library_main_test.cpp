// exocpp::library_main, the main of a schedule program run at build time: it writes both files
// or none, and turns every refusal into a located message and a nonzero status.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace exocpp;

const char* kSaxpy =
    "def saxpy(n: size, a: f32, x: f32[n] @ DRAM, y: f32[n] @ DRAM):\n"
    "    for i in seq(0, n):\n"
    "        y[i] += a * x[i]\n";

// A fresh, empty folder for one test.
fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / ("library_main_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Runs library_main as `schedule OUT_DIR LIB_NAME` (or with `args` as given); returns the
// status and what it printed on stderr.
struct MainRun {
  int code;
  std::string err;
};

MainRun run_main(std::vector<std::string> args, const std::function<std::vector<Proc>()>& make) {
  args.insert(args.begin(), "schedule");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::testing::internal::CaptureStderr();
  int code = library_main(static_cast<int>(args.size()), argv.data(), make);
  return {code, ::testing::internal::GetCapturedStderr()};
}

std::vector<Proc> saxpy() { return {parse_module(kSaxpy, {}, "saxpy.exo").proc("saxpy")}; }

TEST(LibraryMain, WritesTheSourceAndTheHeader) {
  fs::path d = fresh_dir("ok");
  MainRun r = run_main({d.string(), "kernels"}, saxpy);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(d / "kernels.c"));
  EXPECT_TRUE(fs::is_regular_file(d / "kernels.h"));
}

TEST(LibraryMain, CreatesAMissingOutputFolder) {
  fs::path d = fresh_dir("nested") / "a" / "b";
  MainRun r = run_main({d.string(), "kernels"}, saxpy);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(d / "kernels.c"));
}

TEST(LibraryMain, TakesAlreadyBuiltProcs) {
  fs::path d = fresh_dir("built");
  std::vector<Proc> procs = saxpy();
  std::string dir = d.string(), name = "kernels", program = "schedule";
  char* argv[] = {program.data(), dir.data(), name.data(), nullptr};
  EXPECT_EQ(library_main(3, argv, procs), 0);
  EXPECT_TRUE(fs::is_regular_file(d / "kernels.h"));
}

// A refused operation inside the schedule is reported as the operation reports it, with its
// location, and nothing is written.
TEST(LibraryMain, ARefusedScheduleFailsWithTheLocatedErrorAndWritesNothing) {
  fs::path d = fresh_dir("refused");
  MainRun r = run_main({d.string(), "kernels"}, [] {
    Proc p = saxpy()[0];
    return std::vector<Proc>{divide_loop(p, "i", 4, {"io", "ii"}, {.perfect = true})};
  });
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.find("saxpy.exo:2:5: scheduling error: divide_loop"), 0u) << r.err;
  EXPECT_TRUE(fs::is_empty(d));
}

TEST(LibraryMain, AParseErrorFailsWithItsLocation) {
  fs::path d = fresh_dir("parse");
  MainRun r = run_main({d.string(), "kernels"}, [] {
    return std::vector<Proc>{parse_module("def f(:\n", {}, "bad.exo").proc("f")};
  });
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.find("bad.exo:1:"), 0u) << r.err;
  EXPECT_TRUE(fs::is_empty(d));
}

TEST(LibraryMain, ALibraryNameThatIsNotACIdentifierFails) {
  fs::path d = fresh_dir("badname");
  MainRun r = run_main({d.string(), "my-kernels"}, saxpy);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("library name 'my-kernels' is not a C identifier"), std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::is_empty(d));
}

TEST(LibraryMain, NoProcsIsAnError) {
  fs::path d = fresh_dir("empty");
  MainRun r = run_main({d.string(), "kernels"}, [] { return std::vector<Proc>{}; });
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "schedule: the schedule returned no proc to emit into kernels.c\n");
}

TEST(LibraryMain, AWrongArgumentCountPrintsTheUsage) {
  MainRun r = run_main({"only_one"}, saxpy);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.find("usage: schedule OUT_DIR LIB_NAME\n"), 0u) << r.err;
}

}  // namespace
