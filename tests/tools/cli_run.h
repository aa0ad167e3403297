// Running the exocpp program from a test: its exit code and everything it printed, and a
// scratch file to hand it. Shared by the command-line tests of tests/tools/.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

namespace exocpp::testing {

struct CliRun {
  int code;
  std::string out;  // stdout and stderr together
};

// Runs `exocpp ARGS` through the shell, killed after 60 seconds (a hang fails the test, not
// the suite); code is -1 when it did not exit normally.
inline CliRun run_cli(const std::string& args) {
  std::string cmd = "timeout 60 " + std::string(EXOCPP_CLI_PATH) + " " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  CliRun r{-1, ""};
  if (!f) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) r.out.append(buf.data(), n);
  int status = pclose(f);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Writes `text` to a file `name` in the test's scratch folder and returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace exocpp::testing
