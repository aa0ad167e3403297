// Helpers of the CUDA suites (cuda_test_util.h).
#include "cuda_test_util.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace exocpp::cuda_test {

Proc parse_cuda(const std::string& src, const std::string& name) {
  cuda::register_memories();
  ParseOptions opts;
  opts.procs = cuda::library().procs;
  return parse_module(src, opts).proc(name);
}

std::string emission_error(const Proc& p) {
  try {
    compile_procs_to_cuda({p}, "lib");
  } catch (const CodegenError& e) {
    return e.what();
  }
  return "";
}

std::string nvcc() { return EXOCPP_NVCC; }

CommandResult run_command(const std::string& command_line) {
  CommandResult r;
  FILE* pipe = ::popen((command_line + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  int st = ::pclose(pipe);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "exocpp_cuda_XXXXXX").string();
  path_ = ::mkdtemp(tmpl.data()) != nullptr ? tmpl : "";
}
TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

CommandResult nvcc_compile(const std::string& dir, const std::string& file,
                           const std::string& arch) {
  if (nvcc().empty()) return {127, "nvcc was not found when the build was configured"};
  return run_command("cd '" + dir + "' && '" + nvcc() + "' -arch=" + arch +
                     " -fmad=false -Werror all-warnings -Xptxas -v -c '" + file + "' -o '" + file +
                     "." + arch + ".o'");
}

bool reports_spills(const std::string& ptxas_output) {
  static const std::regex spill(R"(([0-9]+) bytes spill (stores|loads))");
  for (auto it = std::sregex_iterator(ptxas_output.begin(), ptxas_output.end(), spill);
       it != std::sregex_iterator(); ++it)
    if (std::stol((*it)[1].str()) > 0) return true;
  return false;
}

bool gpu_present() { return run_command("nvidia-smi -L").status == 0; }

CommandResult nvcc_build_program(const std::string& dir, const std::string& sources,
                                 const std::string& out, const std::string& flags) {
  if (nvcc().empty()) return {127, "nvcc was not found when the build was configured"};
  return run_command("cd '" + dir + "' && '" + nvcc() +
                     "' -arch=" + (gpu_present() ? "native" : "sm_80") + " " + flags + " " +
                     sources + " -o '" + out + "' 2>&1");
}

}  // namespace exocpp::cuda_test
