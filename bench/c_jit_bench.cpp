// Schedule-to-first-result latency: emit, compile and load a scheduled kernel, then call it once,
// with the in-process C compiler (driver/c_jit.h, clang + LLVM's ORC JIT) and with the system C
// compiler (EXOCPP_C_COMPILER=system: cc to a shared object, dlopen). Kernels: the AVX-512 SGEMM
// of examples/blas (a large emitted library) and a plain saxpy (the fixed cost). Prints the
// median and range of `reps` repetitions (default 5; the first argument overrides). Then, both
// ways: the resident memory each loaded saxpy library keeps (50 held at once), and saxpy
// libraries compiled per second on 1 thread and on every hardware thread (what a schedule search
// compiling candidates side by side gets).
//
//   c_jit_bench [reps]
#include <exocpp/exocpp.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "driver/c_jit.h"
#include "schedule.h"

namespace {

using namespace exocpp;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The process's resident memory in MiB (/proc/self/statm).
double resident_mib() {
  long pages_total = 0, pages_resident = 0;
  std::ifstream("/proc/self/statm") >> pages_total >> pages_resident;
  return double(pages_resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// Selects the JIT ("jit") or the system compiler ("system") for this process; false when the
// JIT is asked for and not built in.
bool use_path(const char* path) {
  if (std::string(path) == "system") {
    setenv("EXOCPP_C_COMPILER", "system", 1);
    return true;
  }
  unsetenv("EXOCPP_C_COMPILER");
  return driver::c_jit_available();
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
    if (!use_path(path)) {
      std::printf("%-28s jit     (built without the C JIT)\n", what);
      continue;
    }
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) ms.push_back(first_result_ms(p, sizes, opts));
    report(what, path, ms);
  }
  unsetenv("EXOCPP_C_COMPILER");
}

void measure_memory_and_throughput(const Proc& p) {
  const CompileOptions opts{"cc", {"-O2", "-march=native"}};
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  for (const char* path : {"jit", "system"}) {
    if (!use_path(path)) continue;
    {
      CompiledLibrary warm({p}, "bench_warm", opts);  // one-time setup out of the figure
      const double before = resident_mib();
      std::vector<std::unique_ptr<CompiledLibrary>> held;
      for (int i = 0; i < 50; ++i)
        held.push_back(std::make_unique<CompiledLibrary>(std::vector<Proc>{p}, "bench_mem", opts));
      std::printf("%-28s %-7s %8.2f MiB resident per loaded library (50 held)\n", "saxpy memory",
                  path, (resident_mib() - before) / 50);
    }
    for (int t : {1, threads}) {
      const int per_thread = 12;
      auto t0 = Clock::now();
      std::vector<std::thread> pool;
      for (int i = 0; i < t; ++i)
        pool.emplace_back([&] {
          for (int k = 0; k < per_thread; ++k) CompiledLibrary lib({p}, "bench_par", opts);
        });
      for (std::thread& th : pool) th.join();
      std::printf("%-28s %-7s %8.1f libraries/s on %d thread(s)\n", "saxpy compile throughput",
                  path, t * per_thread / (ms_since(t0) / 1000), t);
    }
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
  measure_memory_and_throughput(saxpy);
  return 0;
}
