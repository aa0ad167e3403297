// SGEMM side by side: the kernel exocpp generates (examples/sgemm) against OpenBLAS on one
// thread and the plain loop, at M = N = K = 256, 512, 1000, 1023, 1024, 2047, 2048, 4096 and
// the skinny 6 x 64 x 2048 and 4096 x 64 x 4096; plus the time to run the whole schedule script
// (every rewrite, every Z3 check) and emit the C. Each figure is reported as GFLOP/s.
//
// The peer runs at its best: OpenBLAS reads OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE when it is
// loaded, and an environment that pins it to an old kernel (this workplace's does) would make it
// a straw man, so the program drops both and runs itself again before anything else, then prints
// the kernel OpenBLAS chose. It also measures this core's fp32 FMA peak (an AVX-512 FMA loop) in
// the same run, and ends with a table per shape: median and best GFLOP/s, % of that peak, and the
// ratio to OpenBLAS.
//
// Run interleaved, so the machine's noise hits every contender alike (one command line):
//   build/bench/sgemm/sgemm_bench --benchmark_enable_random_interleaving=true
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <immintrin.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
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

// The "max" statistic of the repetitions: of GFLOP/s, the best run.
double max_of(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

void shapes(benchmark::internal::Benchmark* b) {
  for (int n : {256, 512, 1000, 1023, 1024, 2047, 2048, 4096}) b->Args({n, n, n});
  b->Args({6, 64, 2048});
  b->Args({4096, 64, 4096});
}
void small_shapes(benchmark::internal::Benchmark* b) {
  for (int n : {256, 512}) b->Args({n, n, n});
  b->Args({6, 64, 2048});
}

}  // namespace

BENCHMARK(BM_exocpp)
    ->Apply(shapes)
    ->ArgNames({"M", "N", "K"})
    ->ComputeStatistics("max", max_of)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_openblas)
    ->Apply(shapes)
    ->ArgNames({"M", "N", "K"})
    ->ComputeStatistics("max", max_of)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_plain_loop)
    ->Apply(small_shapes)
    ->ArgNames({"M", "N", "K"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_schedule_script)->Unit(benchmark::kMillisecond)->UseRealTime();

namespace {

// OpenBLAS picks its kernel when it is loaded: drop the variables that pin it and run this
// program again, so that the peer is measured on the kernel it chooses for this CPU.
void unpin_openblas(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr && std::getenv("OPENBLAS_L2_SIZE") == nullptr)
    return;
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv("OPENBLAS_L2_SIZE");
  execv("/proc/self/exe", argv);
  std::perror("sgemm_bench: could not run itself again without OPENBLAS_CORETYPE");
}

// One core's fp32 FMA peak in GFLOP/s: 12 independent chains of 16-lane FMAs (enough to cover
// the FMA latency on two pipes), each in a variable of its own so that all stay in registers,
// for about a fifth of a second; best of 5.
__attribute__((target("avx512f"))) double fma_peak_gflops() {
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    // Distinct starting values, or the compiler merges identical chains into one.
    __m512 c0 = _mm512_set1_ps(0.0f), c1 = _mm512_set1_ps(0.1f), c2 = _mm512_set1_ps(0.2f),
           c3 = _mm512_set1_ps(0.3f), c4 = _mm512_set1_ps(0.4f), c5 = _mm512_set1_ps(0.5f),
           c6 = _mm512_set1_ps(0.6f), c7 = _mm512_set1_ps(0.7f), c8 = _mm512_set1_ps(0.8f),
           c9 = _mm512_set1_ps(0.9f), c10 = _mm512_set1_ps(1.0f), c11 = _mm512_set1_ps(1.1f);
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    const long iters = 4'000'000;
    auto start = std::chrono::steady_clock::now();
    for (long n = 0; n < iters; ++n) {
      c0 = _mm512_fmadd_ps(c0, a, b);
      c1 = _mm512_fmadd_ps(c1, a, b);
      c2 = _mm512_fmadd_ps(c2, a, b);
      c3 = _mm512_fmadd_ps(c3, a, b);
      c4 = _mm512_fmadd_ps(c4, a, b);
      c5 = _mm512_fmadd_ps(c5, a, b);
      c6 = _mm512_fmadd_ps(c6, a, b);
      c7 = _mm512_fmadd_ps(c7, a, b);
      c8 = _mm512_fmadd_ps(c8, a, b);
      c9 = _mm512_fmadd_ps(c9, a, b);
      c10 = _mm512_fmadd_ps(c10, a, b);
      c11 = _mm512_fmadd_ps(c11, a, b);
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const __m512 sum =
        _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                                    _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7))),
                      _mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)));
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, sum);
    benchmark::DoNotOptimize(lanes[0]);
    best = std::max(best, 2.0 * 16 * 12 * double(iters) / s / 1e9);
  }
  return best;
}

// Collects each run's GFLOP/s (medians and bests of the repetitions) while printing as usual.
class TableReporter : public benchmark::ConsoleReporter {
 public:
  struct Figures {
    double median = 0, best = 0;
  };
  // Shapes ("M:256/N:256/K:256") in order of M, N, K.
  struct ByDims {
    static std::vector<long> dims(const std::string& shape) {
      std::vector<long> d;
      for (size_t at = shape.find(':'); at != std::string::npos; at = shape.find(':', at + 1))
        d.push_back(std::atol(shape.c_str() + at + 1));
      return d;
    }
    bool operator()(const std::string& a, const std::string& b) const { return dims(a) < dims(b); }
  };
  std::map<std::string, std::map<std::string, Figures>, ByDims> by_shape;  // -> contender ->
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto c = r.counters.find("GFLOP/s");
      if (c == r.counters.end()) continue;
      const std::string name = r.run_name.function_name;  // BM_exocpp
      const std::string shape = r.run_name.args;          // M:256/N:256/K:256
      Figures& f = by_shape[shape][name];
      if (r.aggregate_name == "median" || (r.aggregate_name.empty() && f.median == 0))
        f.median = c->second.value;
      if (r.aggregate_name == "max" || r.aggregate_name.empty())
        f.best = std::max(f.best, c->second.value);
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  unpin_openblas(argv);
  std::printf("OpenBLAS: %s; kernel %s; OPENBLAS_CORETYPE %s\n", openblas_get_config(),
              openblas_get_corename(),
              std::getenv("OPENBLAS_CORETYPE") ? std::getenv("OPENBLAS_CORETYPE") : "unset");
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const double peak = avx512 ? fma_peak_gflops() : 0;
  if (avx512) std::printf("measured fp32 FMA peak of one core: %.1f GFLOP/s\n", peak);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::printf("\n%-22s %16s %16s %8s %16s %8s\n", "M:N:K", "exocpp med/best", "OpenBLAS med/best",
              "% peak", "exocpp/OpenBLAS", "");
  for (const auto& [shape, who] : reporter.by_shape) {
    auto e = who.find("BM_exocpp"), o = who.find("BM_openblas");
    if (e == who.end() || o == who.end()) continue;
    std::printf("%-22s %7.1f / %6.1f %7.1f / %6.1f %7.1f%% %15.2fx\n", shape.c_str(),
                e->second.median, e->second.best, o->second.median, o->second.best,
                peak > 0 ? 100.0 * e->second.median / peak : 0.0,
                o->second.median > 0 ? e->second.median / o->second.median : 0.0);
  }
  return 0;
}
