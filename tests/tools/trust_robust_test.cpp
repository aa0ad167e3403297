// Robustness of the command line and of file input/output: endless or binary input stops with
// a located error, and `exocpp c` / emit_c write all their files or none, with the umask's mode.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"

using exocpp::testing::CliRun;
using exocpp::testing::run_cli;
using exocpp::testing::write_temp;

namespace {

namespace fs = std::filesystem;
using namespace exocpp;

// A fresh, empty folder for one test.
std::string fresh_dir(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / ("trust_robust_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const char* kOk = "def ok(a: f32[4] @ DRAM):\n    a[0] = 1.0\n";

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---- input ------------------------------------------------------------------------------------

TEST(TrustRobustInput, CheckOfDevZeroStopsAtTheSizeLimit) {
  auto t0 = std::chrono::steady_clock::now();
  CliRun r = run_cli("check /dev/zero");
  EXPECT_LT(seconds_since(t0), 20.0);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("larger than the limit of 67108864 bytes"), std::string::npos) << r.out;
}

TEST(TrustRobustInput, EveryCommandStopsOnAnEndlessInput) {
  std::string d = fresh_dir("endless");
  for (const std::string& cmd :
       {std::string("print /dev/zero"), "c /dev/zero -o " + d + " --name z"}) {
    CliRun r = run_cli(cmd);
    EXPECT_EQ(r.code, 1) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find("larger than the limit"), std::string::npos) << cmd << ": " << r.out;
  }
  EXPECT_TRUE(fs::is_empty(d));
}

TEST(TrustRobustInput, ParseFileRefusesAnEndlessInputWithAParseError) {
  try {
    parse_file("/dev/zero");
    FAIL() << "accepted /dev/zero";
  } catch (const ParseError& e) {
    EXPECT_NE(
        std::string(e.what()).find("larger than the limit of " + std::to_string(kMaxSourceBytes)),
        std::string::npos)
        << e.what();
  }
}

TEST(TrustRobustInput, AFileJustOverTheLimitIsRefusedAndOneAtItIsRead) {
  std::string d = fresh_dir("limit");
  std::string body =
      "# " + std::string(kMaxSourceBytes - 3 - std::string(kOk).size(), 'x') + "\n" + kOk;
  ASSERT_EQ(body.size(), kMaxSourceBytes);
  std::string at = write_file(d + "/at.exo", body);
  EXPECT_EQ(parse_file(at).procs.size(), 1u);
  std::string over = write_file(d + "/over.exo", body + "\n");
  EXPECT_THROW(parse_file(over), ParseError);
}

TEST(TrustRobustInput, NulByteIsALocatedParseError) {
  std::string d = fresh_dir("nul");
  std::string path = write_file(
      d + "/nul.exo", std::string("def f(a: f32[4] @ DRAM):\n    a[0] = 1.0  # x\0y\n", 47));
  try {
    parse_file(path);
    FAIL() << "accepted a NUL byte";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_EQ(e.loc().col, 20);
    EXPECT_NE(std::string(e.what()).find("NUL"), std::string::npos) << e.what();
  }
}

TEST(TrustRobustInput, BinaryInputIsALocatedErrorOnTheCommandLine) {
  std::string d = fresh_dir("binary");
  std::string bin;
  for (int i = 0; i < 256; ++i) bin += static_cast<char>(i);
  std::string path = write_file(d + "/bin.exo", bin);
  CliRun r = run_cli("check " + path);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(path + ":1:1"), std::string::npos) << r.out;
}

TEST(TrustRobustInput, AFifoIsReadUpToItsEnd) {
  std::string d = fresh_dir("fifo");
  std::string fifo = d + "/in.exo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string cmd = "(printf '" + std::string("def ok(a: f32[4] @ DRAM):\\n    a[0] = 1.0\\n") +
                    "' > " + fifo + " &) ; " + std::string(EXOCPP_CLI_PATH) + " print " + fifo +
                    " 2>&1";
  FILE* f = popen(("timeout 30 sh -c \"" + cmd + "\"").c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string out;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) out.append(buf.data(), n);
  EXPECT_EQ(pclose(f), 0) << out;
  EXPECT_NE(out.find("def ok(a: f32[4] @ DRAM):"), std::string::npos) << out;
}

// ---- output: all or nothing ------------------------------------------------------------------

TEST(TrustRobustOutput, NoHeaderIsLeftWhenTheSourceCannotBeWritten) {
  std::string d = fresh_dir("partial");
  fs::create_directories(d + "/o/partial3.c");
  std::string src = write_file(d + "/partial3.exo", kOk);
  CliRun r = run_cli("c " + src + " -o " + d + "/o");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_FALSE(fs::exists(d + "/o/partial3.h"));
  EXPECT_NE(r.out.find("not a regular file"), std::string::npos) << r.out;
  // Nothing else was left in the folder either (no temporary files).
  int entries = 0;
  for (const auto& e : fs::directory_iterator(d + "/o"))
    entries += e.path().filename() != "partial3.c";
  EXPECT_EQ(entries, 0);
}

TEST(TrustRobustOutput, NoSourceIsLeftWhenTheHeaderCannotBeWritten) {
  std::string d = fresh_dir("partial_h");
  fs::create_directories(d + "/lib.h");
  Proc p = parse_module(kOk).proc("ok");
  EXPECT_THROW(emit_c({p}, "lib", d), CodegenError);
  EXPECT_FALSE(fs::exists(d + "/lib.c"));
}

TEST(TrustRobustOutput, AMissingFolderWritesNothing) {
  std::string d = fresh_dir("missing");
  Proc p = parse_module(kOk).proc("ok");
  try {
    emit_c({p}, "lib", d + "/nope");
    FAIL();
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(d));
}

TEST(TrustRobustOutput, ExistingFilesAreReplacedWhole) {
  std::string d = fresh_dir("replace");
  write_file(d + "/lib.c", "old c");
  write_file(d + "/lib.h", "old h");
  Proc p = parse_module(kOk).proc("ok");
  emit_c({p}, "lib", d);
  std::ifstream c(d + "/lib.c");
  std::string text((std::istreambuf_iterator<char>(c)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("void ok("), std::string::npos) << text;
  int entries = 0;
  for (auto it = fs::directory_iterator(d); it != fs::directory_iterator(); ++it) ++entries;
  EXPECT_EQ(entries, 2);  // no temporary or backup file left
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

TEST(TrustRobustOutput, FilesGetTheModeTheUmaskAllows) {
  Proc p = parse_module(kOk).proc("ok");
  for (mode_t mask : {mode_t{022}, mode_t{077}, mode_t{002}}) {
    std::string d = fresh_dir("mode" + std::to_string(mask));
    mode_t old = ::umask(mask);
    emit_c({p}, "lib", d);
    ::umask(old);
    EXPECT_EQ(mode_of(d + "/lib.c"), 0666 & ~mask);
    EXPECT_EQ(mode_of(d + "/lib.h"), 0666 & ~mask);
  }
}

TEST(TrustRobustOutput, TheCommandLineWritesWithTheUmask) {
  std::string d = fresh_dir("cli_mode");
  std::string src = write_file(d + "/m.exo", kOk);
  CliRun r = run_cli("c " + src + " -o " + d);  // the test runner's umask applies
  ASSERT_EQ(r.code, 0) << r.out;
  mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(mode_of(d + "/m.c"), 0666 & ~mask);
}

}  // namespace
