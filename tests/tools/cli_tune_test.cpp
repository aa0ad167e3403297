// `exocpp tune` (tools/tune_command.cpp): a short search end to end, its output, and its usage
// errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_run.h"

using exocpp::testing::CliRun;
using exocpp::testing::run_cli;
using exocpp::testing::write_temp;

namespace {

const char* kScale =
    "def scale(n: size, x: f32[n, 16] @ DRAM, y: f32[n, 16] @ DRAM):\n"
    "    for i in seq(0, n):\n"
    "        for j in seq(0, 16):\n"
    "            y[i, j] = x[i, j] * 2.0\n";

TEST(CliTune, ASearchPrintsTheBestScheduleAsCalls) {
  std::string path = write_temp("cli_tune.exo", kScale);
  CliRun r = run_cli("tune " + path + " scale --size n=512 --verify-size n=7 --trials 3 --seed 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("trial 1/3: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best trace: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Proc schedule_scale(Proc p) {"), std::string::npos) << r.out;
}

TEST(CliTune, AMissingSizeIsAUsageError) {
  std::string path = write_temp("cli_tune_nosize.exo", kScale);
  CliRun r = run_cli("tune " + path + " scale --trials 2");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no --size for size argument 'n'"), std::string::npos) << r.out;
}

TEST(CliTune, ANonPositiveTrialCountIsAUsageError) {
  std::string path = write_temp("cli_tune_trials.exo", kScale);
  CliRun r = run_cli("tune " + path + " scale --size n=8 --trials 0");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--trials takes a positive integer"), std::string::npos) << r.out;
}

TEST(CliTune, HelpDescribesTheCommand) {
  CliRun r = run_cli("tune --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("usage: exocpp tune FILE.exo PROC"), std::string::npos) << r.out;
}

TEST(CliTune, PlotWritesTheBestTimeAgainstTrialsAsSvg) {
  std::string path = write_temp("cli_tune_plot.exo", kScale);
  std::string svg = ::testing::TempDir() + "cli_tune_plot.svg";
  std::remove(svg.c_str());
  CliRun r =
      run_cli("tune " + path + " scale --size n=256 --verify-size n=5 --trials 2 --plot " + svg);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("plot: " + svg), std::string::npos) << r.out;
  std::ifstream in(svg);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("<svg ", 0), 0u) << text;
  EXPECT_NE(text.find("scale n=256"), std::string::npos) << text;
}

TEST(CliTune, APlotIntoAMissingFolderIsAnErrorAndWritesNothing) {
  std::string path = write_temp("cli_tune_plot_bad.exo", kScale);
  std::string svg = ::testing::TempDir() + "no_such_folder/plot.svg";
  CliRun r = run_cli("tune " + path + " scale --size n=64 --trials 1 --plot " + svg);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("no_such_folder"), std::string::npos) << r.out;
  EXPECT_FALSE(std::ifstream(svg).good());
}

}  // namespace
