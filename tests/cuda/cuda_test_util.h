// Helpers of the CUDA suites (tests/cuda, CTest label `cuda`): parsing against hwlibs/cuda, and
// building emitted CUDA with nvcc. Nothing here needs a GPU; gpu_present() says whether one is.
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

#include "hwlibs/cuda/cuda.h"

namespace exocpp::cuda_test {

// The proc `name` of `src`, parsed with the CUDA library's memories and instructions.
Proc parse_cuda(const std::string& src, const std::string& name);

// The CodegenError's message when CUDA emission refuses `p` (a broken structural rule, a race),
// or "" when it emits.
std::string emission_error(const Proc& p);

// The compiler found when the build was configured (CMake: find_program(nvcc)); "" if none.
std::string nvcc();

struct CommandResult {
  int status = -1;     // exit status
  std::string output;  // stdout and stderr together
};
// Runs a shell command line, capturing its output.
CommandResult run_command(const std::string& command_line);

// A fresh folder under the system's temporary folder; removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Compiles `dir/file` with nvcc for `arch` (sm_80, ...) to an object, with warnings as errors,
// no fused multiply-add, and ptxas's resource report (-Xptxas -v) in the output.
CommandResult nvcc_compile(const std::string& dir, const std::string& file,
                           const std::string& arch);

// Whether the ptxas report says a function spilled registers ("N bytes spill stores" with N > 0).
bool reports_spills(const std::string& ptxas_output);

// Whether this machine has a CUDA GPU (nvidia-smi lists one).
bool gpu_present();

// Builds the program `out` from `sources` (space-separated, in `dir`) with nvcc and `flags`: for
// this machine's GPU when it has one (-arch=native), else for sm_80, so that a GPU test's
// program stays buildable where it cannot run.
CommandResult nvcc_build_program(const std::string& dir, const std::string& sources,
                                 const std::string& out, const std::string& flags);

// What a GPU test says when it skips running its (built) program.
inline constexpr const char* kNoGpu =
    "no CUDA GPU on this machine (nvidia-smi lists none): the program was built for sm_80 but "
    "not run";

}  // namespace exocpp::cuda_test
