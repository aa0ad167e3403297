// The exocpp command-line program: exit codes, output and error reports.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"

using exocpp::testing::CliRun;
using exocpp::testing::run_cli;
using exocpp::testing::write_temp;

namespace {

const std::string kGemm = std::string(EXOCPP_SOURCE_DIR) + "/examples/gemm.exo";

TEST(Cli, CheckAcceptsAGoodFile) {
  CliRun r = run_cli("check " + kGemm);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

TEST(Cli, PrintShowsCanonicalText) {
  CliRun r = run_cli("print " + kGemm);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("def gemm(M: size, N: size, K: size, A: f32[M, K] @ DRAM"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("                C[i, j] += A[i, k] * B[k, j]\n"), std::string::npos)
      << r.out;
}

TEST(Cli, PrintOutputParsesBackToItself) {
  CliRun first = run_cli("print " + kGemm);
  std::string path = write_temp("cli_roundtrip.exo", first.out);
  CliRun second = run_cli("print " + path);
  EXPECT_EQ(second.code, 0) << second.out;
  EXPECT_EQ(second.out, first.out);
}

TEST(Cli, CheckReportsAParseErrorWithLocation) {
  std::string path =
      write_temp("cli_bad.exo", "def f(N: size):\n    for i in seq(0, N)\n        pass\n");
  CliRun r = run_cli("check " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(path + ":2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("^"), std::string::npos) << r.out;
}

TEST(Cli, CheckReportsAnOutOfBoundsAccess) {
  std::string path = write_temp(
      "cli_oob.exo",
      "def f(N: size, A: f32[N] @ DRAM):\n    for i in seq(0, N):\n        A[i + 1] = 0.0\n");
  CliRun r = run_cli("check " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(path + ":3:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bounds"), std::string::npos) << r.out;
}

TEST(Cli, MissingFileIsAnError) {
  CliRun r = run_cli("check /nonexistent/x.exo");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("/nonexistent/x.exo"), std::string::npos) << r.out;
}

TEST(Cli, HelpForEachCommand) {
  for (const char* cmd : {"--help", "check --help", "print --help"}) {
    CliRun r = run_cli(cmd);
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find("usage: exocpp"), std::string::npos) << cmd << ": " << r.out;
  }
}

TEST(Cli, UnknownCommandIsAUsageError) {
  CliRun r = run_cli("frobnicate x.exo");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "exocpp: unknown command 'frobnicate' (exocpp --help lists the commands)\n");
}

TEST(Cli, MissingFileArgumentIsAOneLineUsageError) {
  CliRun r = run_cli("check");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "exocpp: check needs a FILE.exo (usage: exocpp check [--lib LIB] FILE.exo)\n");
}

TEST(Cli, UnknownOptionIsAOneLineUsageError) {
  CliRun r = run_cli("print --frob x.exo");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out,
            "exocpp: print: unknown option '--frob' (usage: exocpp print [--lib LIB] FILE.exo)\n");
}

}  // namespace

// A file whose name is not a C identifier (it starts with a digit, holds a '-') still emits:
// the default library name is made one.
TEST(Cli, DefaultLibraryNameIsMadeACIdentifier) {
  std::string path = write_temp("2d-copy.exo", "def copy2(a: f32[4] @ DRAM):\n    a[0] = 1.0\n");
  std::string dir = ::testing::TempDir() + "cli_libname";
  std::string mk = "mkdir -p " + dir;
  ASSERT_EQ(std::system(mk.c_str()), 0);
  CliRun r = run_cli("c " + path + " -o " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(std::ifstream(dir + "/lib_2d_copy.c").good()) << r.out;
  EXPECT_TRUE(std::ifstream(dir + "/lib_2d_copy.h").good()) << r.out;
}

namespace {

const char* kKernel =
    "def rev(N: size, A: f32[N, 16] @ CUDA_GLOBAL):\n"
    "    for b in cuda_blocks(0, N):\n"
    "        s: f32[16] @ CUDA_SHARED\n"
    "        for t in cuda_threads(0, 16):\n"
    "            s[t] = A[b, t]\n"
    "        SYNC\n"
    "        for t in cuda_threads(0, 16):\n"
    "            A[b, t] = s[15 - t]\n";

std::string kernel_file(const std::string& name, const std::string& sync) {
  std::string text = kKernel;
  return write_temp(name, text.replace(text.find("SYNC"), 4, sync));
}

TEST(Cli, CudaEmitsAKernelAndItsHeader) {
  std::string path = kernel_file("cli_cuda_ok.exo", "cuda_syncthreads()");
  std::string dir = ::testing::TempDir();
  CliRun r = run_cli("cuda " + path + " -o " + dir + " --name cli_rev");
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream cu(dir + "/cli_rev.cu");
  std::string text((std::istreambuf_iterator<char>(cu)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("__global__ void __launch_bounds__(16) rev_kernel0("), std::string::npos)
      << text;
  EXPECT_TRUE(std::ifstream(dir + "/cli_rev.h").good());
}

TEST(Cli, CudaRefusesARacingKernelWithTheCounterexample) {
  std::string path = kernel_file("cli_cuda_race.exo", "pass");
  CliRun r = run_cli("cuda " + path + " -o " + ::testing::TempDir() + " --name cli_race");
  EXPECT_EQ(r.code, 1);
  // The counterexample: the write (line 5) and the read (line 8) of one element of s, in
  // whichever order the solver's model runs them.
  EXPECT_NE(r.out.find("no barrier separates them (counterexample: one thread "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("writes s["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at line 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reads s["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at line 8"), std::string::npos) << r.out;
}

const char* kRacyPar =
    "def racy(N: size, A: f32[N] @ DRAM, s: f32[1] @ DRAM):\n"
    "    for i in par(0, N):\n"
    "        s[0] += A[i]\n";

TEST(Cli, CRefusesAParLoopWhoseIterationsConflict) {
  std::string path = write_temp("cli_racy_par.exo", kRacyPar);
  CliRun r = run_cli("c " + path + " -o " + ::testing::TempDir() + " --name cli_racy");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(path + ":2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("codegen error"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("proc 'racy' cannot be emitted: the iterations of par loop 'i' must be "
                       "independent"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(counterexample: "), std::string::npos) << r.out;
}

TEST(Cli, CRefusesAnOutOfBoundsWriteThatCheckRefuses) {
  std::string path = write_temp(
      "cli_c_oob.exo",
      "def f(N: size, A: f32[N] @ DRAM):\n    for i in seq(0, N):\n        A[i + 1] = 0.0\n");
  CliRun r = run_cli("c " + path + " -o " + ::testing::TempDir() + " --name cli_c_oob");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(path + ":3:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("proc 'f' cannot be emitted: "), std::string::npos) << r.out;
}

// A refused file leaves neither files nor the folders -o asked for.
TEST(Cli, CRefusalLeavesNoFolderBehind) {
  std::string path = write_temp("cli_racy_par2.exo", kRacyPar);
  std::string top = ::testing::TempDir() + "cli_racy_out";
  std::filesystem::remove_all(top);
  CliRun r = run_cli("c " + path + " -o " + top + "/inner");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_FALSE(std::filesystem::exists(top)) << r.out;
}

}  // namespace
