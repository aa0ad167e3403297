// SGEMM side by side: the kernel exocpp generates (examples/sgemm) against OpenBLAS on one
// thread and the plain loop, at M = N = K = 256, 512, 1000, 1024, 2048 and the skinny
// 6 x 64 x 2048; plus the time to run the whole schedule script (every rewrite, every Z3
// check) and emit the C. Each figure is reported as GFLOP/s.
//
// Run interleaved, so the machine's noise hits every contender alike (one command line):
//   build/bench/sgemm/sgemm_bench --benchmark_enable_random_interleaving=true
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <vector>

#include "schedule.h"

extern "C" {
#include "sgemm.h"
}

namespace {

struct Problem {
  int M, N, K;
  std::vector<float> A, B, C;
  Problem(int m, int n, int k)
      : M(m), N(n), K(k), A(size_t(m) * k), B(size_t(k) * n), C(size_t(m) * n) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (float& x : A) x = d(rng);
    for (float& x : B) x = d(rng);
    for (float& x : C) x = d(rng);
  }
};

void set_flops(benchmark::State& state, const Problem& p) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * p.M * p.N * p.K * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

Problem make(const benchmark::State& state) {
  return Problem(int(state.range(0)), int(state.range(1)), int(state.range(2)));
}

void BM_exocpp(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx512f")) {
    state.SkipWithError("this CPU has no AVX-512F: the generated kernel cannot run");
    return;
  }
  Problem p = make(state);
  for (auto _ : state) {
    sgemm(nullptr, p.M, p.N, p.K, p.A.data(), p.B.data(), p.C.data());
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

void BM_openblas(benchmark::State& state) {
  openblas_set_num_threads(1);
  Problem p = make(state);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, p.M, p.N, p.K, 1.0f, p.A.data(), p.K,
                p.B.data(), p.N, 1.0f, p.C.data(), p.N);
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

// The specification as a C compiler sees it (gcc -O2 auto-vectorises what it can).
void BM_plain_loop(benchmark::State& state) {
  Problem p = make(state);
  for (auto _ : state) {
    for (int i = 0; i < p.M; i++)
      for (int j = 0; j < p.N; j++)
        for (int k = 0; k < p.K; k++)
          p.C[size_t(i) * p.N + j] += p.A[size_t(i) * p.K + k] * p.B[size_t(k) * p.N + j];
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

void BM_schedule_script(benchmark::State& state) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "exocpp_sgemm_bench";
  std::filesystem::create_directories(dir);
  for (auto _ : state) {
    exocpp::Proc p = sgemm_example::schedule_sgemm();
    exocpp::emit_c({p}, "sgemm", dir.string());
  }
  std::filesystem::remove_all(dir);
}

void shapes(benchmark::internal::Benchmark* b) {
  for (int n : {256, 512, 1000, 1024, 2048}) b->Args({n, n, n});
  b->Args({6, 64, 2048});
}
void small_shapes(benchmark::internal::Benchmark* b) {
  for (int n : {256, 512}) b->Args({n, n, n});
  b->Args({6, 64, 2048});
}

}  // namespace

BENCHMARK(BM_exocpp)
    ->Apply(shapes)
    ->ArgNames({"M", "N", "K"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_openblas)
    ->Apply(shapes)
    ->ArgNames({"M", "N", "K"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_plain_loop)
    ->Apply(small_shapes)
    ->ArgNames({"M", "N", "K"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_schedule_script)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
