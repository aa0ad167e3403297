// Schedule-to-first-result latency: emit, compile and load a scheduled kernel, then call it once,
// with the in-process C compiler (driver/c_jit.h, clang + LLVM's ORC JIT) and with the system C
// compiler (EXOCPP_C_COMPILER=system: cc to a shared object, dlopen). Kernels: the AVX-512 SGEMM
// of examples/blas (a large emitted library) and a plain saxpy (the fixed cost). Prints the
// median and range of `reps` repetitions (default 5; the first argument overrides).
//
//   c_jit_bench [reps]
#include <exocpp/exocpp.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "driver/c_jit.h"
#include "schedule.h"

namespace {

using namespace exocpp;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Emit + compile + load + first call of `p`, in milliseconds.
double first_result_ms(const Proc& p, const std::map<std::string, int64_t>& sizes,
                       const CompileOptions& opts) {
  std::vector<ArgValue> args = random_args(p, sizes, 1, {.real_as = ScalarKind::F32});
  auto t0 = Clock::now();
  CompiledLibrary lib({p}, "bench_" + p.name(), opts);
  lib.call(p.name(), args);
  return ms_since(t0);
}

void report(const char* what, const char* path, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  std::printf("%-28s %-7s median %8.1f ms  (min %8.1f, max %8.1f, n=%zu)\n", what, path,
              ms[ms.size() / 2], ms.front(), ms.back(), ms.size());
}

void measure(const char* what, const Proc& p, const std::map<std::string, int64_t>& sizes,
             const CompileOptions& opts, int reps) {
  for (const char* path : {"jit", "system"}) {
    if (std::string(path) == "jit" && !driver::c_jit_available()) {
      std::printf("%-28s jit     (built without the C JIT)\n", what);
      continue;
    }
    if (std::string(path) == "system")
      setenv("EXOCPP_C_COMPILER", "system", 1);
    else
      unsetenv("EXOCPP_C_COMPILER");
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) ms.push_back(first_result_ms(p, sizes, opts));
    report(what, path, ms);
  }
  unsetenv("EXOCPP_C_COMPILER");
}

}  // namespace

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  auto t0 = Clock::now();
  Proc sgemm = blas_example::schedule_gemm(blas_example::kSingle);
  std::printf("scheduling the AVX-512 SGEMM: %.1f ms (once)\n", ms_since(t0));
  Proc saxpy = parse_module(R"(
def saxpy(n: size, a: f32, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = a * x[i] + y[i]
)")
                   .proc("saxpy");
  CompileOptions native{"cc", {"-O3", "-march=native"}};
  measure("saxpy -O2 -march=native", saxpy, {{"n", 1024}}, {"cc", {"-O2", "-march=native"}}, reps);
  if (__builtin_cpu_supports("avx512f"))
    measure("sgemm 64^3 -O3 -march=native", sgemm, {{"M", 64}, {"N", 64}, {"K", 64}}, native, reps);
  else
    std::printf("sgemm skipped: this CPU has no AVX-512\n");
  return 0;
}
