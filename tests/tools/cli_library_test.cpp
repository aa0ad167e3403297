// The command line as another project uses it: --version, hardware libraries by --lib, `run`
// in the interpreter with checksums, and `c` making its output folder.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "cli_run.h"

using exocpp::testing::CliRun;
using exocpp::testing::run_cli;
using exocpp::testing::write_temp;

namespace {

namespace fs = std::filesystem;

// AVX2 registers and instructions of the x86 library.
const char* kAvx2 =
    "def vadd(n: size, x: f32[n, 8] @ DRAM, y: f32[n, 8] @ DRAM):\n"
    "    for i in seq(0, n):\n"
    "        xr: f32[8] @ AVX2\n"
    "        yr: f32[8] @ AVX2\n"
    "        zr: f32[8] @ AVX2\n"
    "        mm256_loadu_ps(xr[0:8], x[i, 0:8])\n"
    "        mm256_loadu_ps(yr[0:8], y[i, 0:8])\n"
    "        mm256_add_ps(zr[0:8], xr[0:8], yr[0:8])\n"
    "        mm256_storeu_ps(y[i, 0:8], zr[0:8])\n";

const char* kSaxpy =
    "def saxpy(n: size, a: f32, x: f32[n] @ DRAM, y: f32[n] @ DRAM):\n"
    "    for i in seq(0, n):\n"
    "        y[i] += a * x[i]\n";

// The same signature, another computation.
const char* kSaxmy =
    "def saxpy(n: size, a: f32, x: f32[n] @ DRAM, y: f32[n] @ DRAM):\n"
    "    for i in seq(0, n):\n"
    "        y[i] += a * x[i] - 1.0\n";

// The line `run` prints for argument `name`.
std::string line_of(const std::string& out, const std::string& name) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name + ":", 0) == 0) return line;
  return "";
}

TEST(CliLibrary, VersionPrintsTheProjectVersion) {
  CliRun r = run_cli("--version");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(std::regex_match(r.out, std::regex("exocpp [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r.out;
}

TEST(CliLibrary, CheckWithLibX86AcceptsAvx2Instructions) {
  CliRun r = run_cli("check --lib x86 " + write_temp("cli_avx2.exo", kAvx2));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

TEST(CliLibrary, CheckWithoutLibX86RefusesAvx2Memories) {
  std::string path = write_temp("cli_avx2_nolib.exo", kAvx2);
  CliRun r = run_cli("check " + path);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(path + ":3:"), std::string::npos) << r.out;  // `@ AVX2`, located
  EXPECT_NE(r.out.find("AVX2"), std::string::npos) << r.out;
}

TEST(CliLibrary, AnUnknownLibraryIsAOneLineUsageError) {
  CliRun r = run_cli("check --lib arm " + write_temp("cli_unknown_lib.exo", kSaxpy));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "exocpp: unknown library 'arm' for --lib (x86, gemmini or cuda)\n");
}

TEST(CliLibrary, RunPrintsEveryArgumentWithAChecksum) {
  CliRun r = run_cli("run " + write_temp("cli_run.exo", kSaxpy) + " saxpy --size n=16");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(std::regex_match(r.out, std::regex("n = 16\n"
                                                 "a: f32 checksum [0-9a-f]{16}\n"
                                                 "x: f32\\[16\\] checksum [0-9a-f]{16}\n"
                                                 "y: f32\\[16\\] checksum [0-9a-f]{16}\n")))
      << r.out;
}

TEST(CliLibrary, RunIsStableForOneSeed) {
  std::string path = write_temp("cli_run_stable.exo", kSaxpy);
  CliRun first = run_cli("run " + path + " saxpy --size n=16 --seed 7");
  CliRun second = run_cli("run " + path + " saxpy --size n=16 --seed 7");
  ASSERT_EQ(first.code, 0) << first.out;
  EXPECT_EQ(second.out, first.out);
}

TEST(CliLibrary, RunOutputDiffersForAnotherSeed) {
  std::string path = write_temp("cli_run_seed.exo", kSaxpy);
  CliRun seven = run_cli("run " + path + " saxpy --size n=16 --seed 7");
  CliRun eight = run_cli("run " + path + " saxpy --size n=16 --seed 8");
  ASSERT_EQ(seven.code, 0) << seven.out;
  EXPECT_NE(line_of(eight.out, "y"), line_of(seven.out, "y")) << seven.out << eight.out;
}

// Same inputs (the x line is equal), another computation: the output's checksum tells.
TEST(CliLibrary, RunOutputDiffersWhenTheProcDiffers) {
  CliRun plus = run_cli("run " + write_temp("cli_run_a.exo", kSaxpy) + " saxpy --size n=16");
  CliRun minus = run_cli("run " + write_temp("cli_run_b.exo", kSaxmy) + " saxpy --size n=16");
  ASSERT_EQ(plus.code, 0) << plus.out;
  ASSERT_EQ(minus.code, 0) << minus.out;
  EXPECT_EQ(line_of(minus.out, "x"), line_of(plus.out, "x"));
  EXPECT_NE(line_of(minus.out, "y"), line_of(plus.out, "y"));
}

TEST(CliLibrary, RunRunsX86InstructionsWithLibX86) {
  CliRun r = run_cli("run --lib x86 " + write_temp("cli_run_avx2.exo", kAvx2) + " vadd --size n=3");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("y: f32[3, 8] checksum "), std::string::npos) << r.out;
}

TEST(CliLibrary, RunWithoutASizeIsAOneLineError) {
  CliRun r = run_cli("run " + write_temp("cli_run_nosize.exo", kSaxpy) + " saxpy");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out,
            "exocpp: run: no --size for size argument 'n' of proc saxpy (give --size n=VALUE)\n");
}

TEST(CliLibrary, RunWithAMalformedSizeIsAOneLineError) {
  CliRun r = run_cli("run " + write_temp("cli_run_badsize.exo", kSaxpy) + " saxpy --size n=x");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "exocpp: --size takes NAME=VALUE with VALUE a positive integer, not 'n=x'\n");
}

TEST(CliLibrary, RunOfAMissingProcNamesIt) {
  CliRun r = run_cli("run " + write_temp("cli_run_noproc.exo", kSaxpy) + " daxpy --size n=4");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("daxpy"), std::string::npos) << r.out;
}

TEST(CliLibrary, CCreatesANestedOutputFolder) {
  fs::path dir = fs::path(::testing::TempDir()) / "cli_nested";
  fs::remove_all(dir);
  std::string src = write_temp("cli_nested.exo", kSaxpy);
  CliRun r = run_cli("c " + src + " -o " + (dir / "a" / "b").string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::is_regular_file(dir / "a" / "b" / "cli_nested.c")) << r.out;
}

TEST(CliLibrary, CWithoutAnOutputFolderIsAOneLineUsageError) {
  CliRun r = run_cli("c " + write_temp("cli_no_dir.exo", kSaxpy));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out,
            "exocpp: c needs an output folder (-o DIR) (usage: exocpp c FILE.exo -o DIR "
            "[--name LIB] [--lib LIB])\n");
}

TEST(CliLibrary, CWithAStrayArgumentIsAOneLineUsageError) {
  CliRun r = run_cli("cuda a.exo b.exo -o out");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out,
            "exocpp: cuda: unexpected argument 'b.exo' (usage: exocpp cuda FILE.exo -o DIR "
            "[--name LIB] [--lib LIB])\n");
}

TEST(CliLibrary, CIntoAFileIsAOneLineError) {
  std::string src = write_temp("cli_into_file.exo", kSaxpy);
  CliRun r = run_cli("c " + src + " -o " + src + "/sub");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_EQ(r.out.find("exocpp c: cannot create the folder '" + src + "/sub'"), 0u) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
}

}  // namespace
