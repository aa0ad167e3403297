// GEMM side by side: the kernels exocpp generates (examples/blas) against OpenBLAS, in f32
// (sgemm) and f64 (dgemm) on one thread at M = N = K = 256, 512, 1000, 1023, 1024, 2047, 2048,
// 4096 and the skinny 6 x 64 x 2048 and 4096 x 64 x 4096, and on two threads (the parallel
// kernels against OpenBLAS with two threads) at 1024, 2048 and 4096, and through the BLAS
// interface (blas_sgemm against cblas_sgemm, A^T B^T, alpha = beta = 0.5, one thread) at the
// same sizes; the int8 (u8 x s8 -> s32, vpdpbusd) and bf16 (bf16 x bf16 -> f32, vdpbf16ps)
// GEMMs against oneDNN's matmul at the shapes of LLM inference; plus the time to run the
// whole schedule script (every rewrite, every Z3 check) for one kernel and emit its C, and the
// plain loop as a C compiler builds it. Each figure is reported as GFLOP/s.
//
// The peer runs at its best: OpenBLAS reads OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE when it is
// loaded, and an environment that pins it to an old kernel (this workplace's does) would make it
// a straw man, so the program drops both and runs itself again before anything else, then prints
// the kernel OpenBLAS chose. It also measures this core's FMA peak in f32 and f64 (AVX-512 FMA
// loops) in the same run, and ends with a table per routine and shape: median and best GFLOP/s,
// % of that peak (twice it on two threads), and the ratio to OpenBLAS.
//
// Run interleaved, so the machine's noise hits every contender alike (one command line):
//   build/bench/blas/gemm_bench --benchmark_enable_random_interleaving=true
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <immintrin.h>
#include <omp.h>
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

#include "fma_peak.h"
#include "schedule.h"

extern "C" {
#include "blas.h"
#include "blas_bf16.h"
#include "blas_like.h"
#include "blas_u8s8.h"
}

#ifdef EXOCPP_BENCH_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace {

template <typename T>
struct Problem {
  int M, N, K;
  std::vector<T> A, B, C;
  Problem(int m, int n, int k)
      : M(m), N(n), K(k), A(size_t(m) * k), B(size_t(k) * n), C(size_t(m) * n) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<T> d(-1, 1);
    for (T& x : A) x = d(rng);
    for (T& x : B) x = d(rng);
    for (T& x : C) x = d(rng);
  }
  explicit Problem(const benchmark::State& state)
      : Problem(int(state.range(0)), int(state.range(1)), int(state.range(2))) {}
};

// 2 M N K operations per second (integer ones counted as FLOPs are), for any problem with M, N
// and K.
template <typename P>
void set_flops(benchmark::State& state, const P& p) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * p.M * p.N * p.K * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// C += A * B by exocpp's kernel for T on `threads` threads (1: the serial kernel).
template <typename T>
void run_exocpp(int threads, Problem<T>& p) {
  if constexpr (std::is_same_v<T, float>) {
    const exo_win_2f32c a{p.A.data(), {p.K, 1}}, b{p.B.data(), {p.N, 1}};
    const exo_win_2f32 c{p.C.data(), {p.N, 1}};
    if (threads == 1)
      sgemm(nullptr, p.M, p.N, p.K, a, b, c);
    else
      sgemm_parallel(nullptr, p.M, p.N, p.K, a, b, c);
  } else {
    const exo_win_2f64c a{p.A.data(), {p.K, 1}}, b{p.B.data(), {p.N, 1}};
    const exo_win_2f64 c{p.C.data(), {p.N, 1}};
    if (threads == 1)
      dgemm(nullptr, p.M, p.N, p.K, a, b, c);
    else
      dgemm_parallel(nullptr, p.M, p.N, p.K, a, b, c);
  }
}

template <typename T>
void run_openblas(Problem<T>& p) {
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, p.M, p.N, p.K, 1.0f, p.A.data(), p.K,
                p.B.data(), p.N, 1.0f, p.C.data(), p.N);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, p.M, p.N, p.K, 1.0, p.A.data(), p.K,
                p.B.data(), p.N, 1.0, p.C.data(), p.N);
}

// The BLAS interface with both operands transposed and alpha = beta = 0.5 (exocpp copies
// the transposed operands first), one thread: exocpp's blas_sgemm and OpenBLAS's cblas_sgemm.
void BM_blas_interface(benchmark::State& state, bool exocpp) {
  if (exocpp && !__builtin_cpu_supports("avx512f")) {
    state.SkipWithError("this CPU has no AVX-512F: the generated kernel cannot run");
    return;
  }
  omp_set_num_threads(1);
  openblas_set_num_threads(1);
  Problem<float> p(state);  // square: A^T and B^T have the shapes of A and B
  for (auto _ : state) {
    if (exocpp)
      blas_sgemm(BlasRowMajor, BlasTrans, BlasTrans, p.M, p.N, p.K, 0.5f, p.A.data(), p.M,
                 p.B.data(), p.K, 0.5f, p.C.data(), p.N);
    else
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasTrans, p.M, p.N, p.K, 0.5f, p.A.data(), p.M,
                  p.B.data(), p.K, 0.5f, p.C.data(), p.N);
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

template <typename T>
void BM_exocpp(benchmark::State& state, int threads) {
  if (!__builtin_cpu_supports("avx512f")) {
    state.SkipWithError("this CPU has no AVX-512F: the generated kernel cannot run");
    return;
  }
  omp_set_num_threads(threads);
  Problem<T> p(state);
  for (auto _ : state) {
    run_exocpp(threads, p);
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

template <typename T>
void BM_openblas(benchmark::State& state, int threads) {
  openblas_set_num_threads(threads);
  Problem<T> p(state);
  for (auto _ : state) {
    run_openblas(p);
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

// ---- int8: u8 x s8 -> s32, C += A * B ---------------------------------------------------------

// The inputs of a dot-product GEMM (A: TA, B: TB, C: TC, drawn by the generators); B both as
// oneDNN takes it (K x N, row-major) and packed the way exocpp's kernel takes it (64-column
// panels in the instruction's order, Bp[n / 64][k / G][n % 64][k % G] for G values of K per
// lane), each packed once, untimed, as inference packs its weights.
template <typename TA, typename TB, typename TC, int G>
struct DotProblem {
  int M, N, K;
  std::vector<TA> A;
  std::vector<TB> B, Bp;
  std::vector<TC> C;
  template <typename DrawA, typename DrawB, typename DrawC>
  DotProblem(const benchmark::State& state, DrawA draw_a, DrawB draw_b, DrawC draw_c)
      : M(int(state.range(0))),
        N(int(state.range(1))),
        K(int(state.range(2))),
        A(size_t(M) * K),
        B(size_t(K) * N),
        Bp(size_t(K) * N),
        C(size_t(M) * N) {
    std::mt19937 rng(42);
    for (TA& x : A) x = draw_a(rng);
    for (TB& x : B) x = draw_b(rng);
    for (TC& x : C) x = draw_c(rng);
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n)
        Bp[((size_t(n / 64) * (K / G) + k / G) * 64 + n % 64) * G + k % G] = B[size_t(k) * N + n];
  }
};

// u8 x s8 -> s32, bytes over their whole range.
struct Int8Problem : DotProblem<uint8_t, int8_t, int32_t, 4> {
  explicit Int8Problem(const benchmark::State& state)
      : DotProblem(
            state,
            [](std::mt19937& r) { return uint8_t(std::uniform_int_distribution<int>(0, 255)(r)); },
            [](std::mt19937& r) {
              return int8_t(std::uniform_int_distribution<int>(-128, 127)(r));
            },
            [](std::mt19937&) { return int32_t(0); }) {}
};

void BM_u8s8_exocpp(benchmark::State& state, int) {
  if (!__builtin_cpu_supports("avx512vnni")) {
    state.SkipWithError("this CPU has no AVX512-VNNI: the generated int8 kernel cannot run");
    return;
  }
  Int8Problem p(state);
  const exo_win_2ui8c a{p.A.data(), {p.K, 1}};
  const exo_win_4i8c b{p.Bp.data(), {64 * p.K, 256, 4, 1}};
  const exo_win_2i32 c{p.C.data(), {p.N, 1}};
  for (auto _ : state) {
    gemm_u8s8(nullptr, p.M, p.N / 64, p.K / 4, a, b, c);
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

// ---- bf16: bf16 x bf16 -> f32, C += A * B ------------------------------------------------------

// bf16 x bf16 -> f32, values in [-1, 1].
struct Bf16Problem : DotProblem<exo_bf16, exo_bf16, float, 2> {
  static float unit(std::mt19937& r) { return std::uniform_real_distribution<float>(-1, 1)(r); }
  explicit Bf16Problem(const benchmark::State& state)
      : DotProblem(
            state, [](std::mt19937& r) { return exo_bf16_from_float(unit(r)); },
            [](std::mt19937& r) { return exo_bf16_from_float(unit(r)); }, unit) {}
};

void BM_bf16_exocpp(benchmark::State& state, int) {
  if (!__builtin_cpu_supports("avx512bf16")) {
    state.SkipWithError("this CPU has no AVX512-BF16: the generated bf16 kernel cannot run");
    return;
  }
  Bf16Problem p(state);
  const exo_win_2bf16c a{p.A.data(), {p.K, 1}};
  const exo_win_4bf16c b{p.Bp.data(), {64 * p.K, 128, 2, 1}};
  const exo_win_2f32 c{p.C.data(), {p.N, 1}};
  for (auto _ : state) {
    gemm_bf16(nullptr, p.M, p.N / 64, p.K / 2, a, b, c);
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

#ifdef EXOCPP_BENCH_ONEDNN
// oneDNN's matmul on one thread, A (a_type) times B (b_type) into C (c_type): weights in the
// layout it chooses (format `any`, reordered once, untimed), C += A * B through a sum post-op,
// as exocpp's kernels accumulate.
template <typename P>
void run_onednn_matmul(benchmark::State& state, P& p, dnnl::memory::data_type a_type,
                       dnnl::memory::data_type b_type, dnnl::memory::data_type c_type) {
  using dnnl::memory;
  omp_set_num_threads(1);
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(eng);
  const memory::dims a_dims = {p.M, p.K}, b_dims = {p.K, p.N}, c_dims = {p.M, p.N};
  const memory::desc a_md(a_dims, a_type, memory::format_tag::ab),
      b_any(b_dims, b_type, memory::format_tag::any),
      b_plain_md(b_dims, b_type, memory::format_tag::ab),
      c_md(c_dims, c_type, memory::format_tag::ab);
  dnnl::post_ops sum;
  sum.append_sum(1.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(sum);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_any, c_md), attr, eng);
  memory a_mem(a_md, eng, p.A.data()), c_mem(c_md, eng, p.C.data());
  memory b_plain(b_plain_md, eng, p.B.data()), b_mem(pd.weights_desc(), eng);
  dnnl::reorder(b_plain, b_mem).execute(stream, b_plain, b_mem);
  dnnl::matmul matmul(pd);
  for (auto _ : state) {
    matmul.execute(stream,
                   {{DNNL_ARG_SRC, a_mem}, {DNNL_ARG_WEIGHTS, b_mem}, {DNNL_ARG_DST, c_mem}});
    stream.wait();
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

void BM_u8s8_onednn(benchmark::State& state, int) {
  Int8Problem p(state);
  using T = dnnl::memory::data_type;
  run_onednn_matmul(state, p, T::u8, T::s8, T::s32);
}

void BM_bf16_onednn(benchmark::State& state, int) {
  Bf16Problem p(state);
  using T = dnnl::memory::data_type;
  run_onednn_matmul(state, p, T::bf16, T::bf16, T::f32);
}
#endif

// The specification as a C compiler sees it (gcc -O2 auto-vectorises what it can).
void BM_plain_loop(benchmark::State& state) {
  Problem<float> p(state);
  for (auto _ : state) {
    for (int i = 0; i < p.M; i++)
      for (int j = 0; j < p.N; j++)
        for (int k = 0; k < p.K; k++)
          p.C[size_t(i) * p.N + j] += p.A[size_t(i) * p.K + k] * p.B[size_t(k) * p.N + j];
    benchmark::ClobberMemory();
  }
  set_flops(state, p);
}

// One kernel's whole schedule script (the serial sgemm: every rewrite, every Z3 check, its
// three tile kernels) and its emission.
void BM_schedule_script(benchmark::State& state) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "exocpp_gemm_bench";
  std::filesystem::create_directories(dir);
  for (auto _ : state) {
    exocpp::Proc p = blas_example::schedule_gemm(blas_example::kSingle);
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
void parallel_shapes(benchmark::internal::Benchmark* b) {
  for (int n : {1024, 2048, 4096}) b->Args({n, n, n});
}
void small_shapes(benchmark::internal::Benchmark* b) {
  for (int n : {256, 512}) b->Args({n, n, n});
  b->Args({6, 64, 2048});
}

// Benchmarks are named "ROUTINE.CONTENDER" (sgemm.exocpp, dgemm_2threads.openblas): the table
// pairs the contenders of a routine.
void register_gemm_benchmarks() {
  auto add = [](const std::string& name, auto fn, auto arg, auto apply) {
    benchmark::RegisterBenchmark(name.c_str(), fn, arg)
        ->Apply(apply)
        ->ArgNames({"M", "N", "K"})
        ->ComputeStatistics("max", max_of)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  };
  add("sgemm.exocpp", BM_exocpp<float>, 1, shapes);
  add("sgemm.openblas", BM_openblas<float>, 1, shapes);
  add("dgemm.exocpp", BM_exocpp<double>, 1, shapes);
  add("dgemm.openblas", BM_openblas<double>, 1, shapes);
  add("sgemm_2threads.exocpp", BM_exocpp<float>, 2, parallel_shapes);
  add("sgemm_2threads.openblas", BM_openblas<float>, 2, parallel_shapes);
  add("dgemm_2threads.exocpp", BM_exocpp<double>, 2, parallel_shapes);
  add("dgemm_2threads.openblas", BM_openblas<double>, 2, parallel_shapes);
  add("sgemm_TT_alpha_beta.exocpp", BM_blas_interface, true, parallel_shapes);
  add("sgemm_TT_alpha_beta.openblas", BM_blas_interface, false, parallel_shapes);
  // int8 and bf16: the shapes of LLM inference (one to 16 tokens through a 4096 x 4096 layer)
  // and 1024^3.
  auto int8_shapes = [](benchmark::internal::Benchmark* b) {
    for (int m : {1, 8, 16}) b->Args({m, 4096, 4096});
    b->Args({1024, 1024, 1024});
  };
  add("u8s8.exocpp", BM_u8s8_exocpp, 1, int8_shapes);
  add("bf16.exocpp", BM_bf16_exocpp, 1, int8_shapes);
#ifdef EXOCPP_BENCH_ONEDNN
  add("u8s8.onednn", BM_u8s8_onednn, 1, int8_shapes);
  add("bf16.onednn", BM_bf16_onednn, 1, int8_shapes);
#endif
  benchmark::RegisterBenchmark("plain_loop.sgemm", BM_plain_loop)
      ->Apply(small_shapes)
      ->ArgNames({"M", "N", "K"})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("schedule_script.sgemm", BM_schedule_script)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

}  // namespace

namespace {

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
  // routine (sgemm, dgemm_2threads) -> shape -> contender (exocpp, openblas) -> figures
  std::map<std::string, std::map<std::string, std::map<std::string, Figures>, ByDims>> table;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto c = r.counters.find("GFLOP/s");
      if (c == r.counters.end()) continue;
      const std::string& name = r.run_name.function_name;  // sgemm.exocpp
      const size_t dot = name.find('.');
      const std::string shape = r.run_name.args;  // M:256/N:256/K:256
      Figures& f = table[name.substr(0, dot)][shape][name.substr(dot + 1)];
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
  const double peak32 = avx512 ? fma_peak_gflops<F32Lanes>() : 0;
  const double peak64 = avx512 ? fma_peak_gflops<F64Lanes>() : 0;
  const double peak_u8s8 =
      avx512 && __builtin_cpu_supports("avx512vnni") ? fma_peak_gflops<U8S8Lanes>() : 0;
  const double peak_bf16 =
      avx512 && __builtin_cpu_supports("avx512bf16") ? fma_peak_gflops<Bf16Lanes>() : 0;
  if (avx512)
    std::printf(
        "measured peak of one core: f32 FMA %.1f GFLOP/s, f64 FMA %.1f GFLOP/s, "
        "u8 x s8 vpdpbusd %.1f GOP/s, bf16 vdpbf16ps %.1f GFLOP/s\n",
        peak32, peak64, peak_u8s8, peak_bf16);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_gemm_benchmarks();
  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  for (const auto& [routine, by_shape] : reporter.table) {
    // The peak of the routine's precision, on as many cores as it has threads.
    const bool two_threads = routine.find("_2threads") != std::string::npos;
    const double peak = (routine == "u8s8"   ? peak_u8s8
                         : routine == "bf16" ? peak_bf16
                         : routine[0] == 'd' ? peak64
                                             : peak32) *
                        (two_threads ? 2 : 1);
    if (by_shape.empty() || by_shape.begin()->second.count("exocpp") == 0) continue;
    // The peer: OpenBLAS for the float routines, oneDNN for int8 (GOP/s there) and bf16.
    const std::string peer = routine == "u8s8" || routine == "bf16" ? "onednn" : "openblas";
    std::printf("\n%-19s %-22s %16s %17s %7s %16s\n", routine.c_str(), "M:N:K", "exocpp med/best",
                (peer + " med/best").c_str(), "% peak", ("exocpp/" + peer).c_str());
    for (const auto& [shape, who] : by_shape) {
      auto e = who.find("exocpp"), o = who.find(peer);
      if (e == who.end() || o == who.end()) continue;
      std::printf("%-19s %-22s %7.1f / %6.1f %8.1f / %6.1f %6.1f%% %15.2fx\n", "", shape.c_str(),
                  e->second.median, e->second.best, o->second.median, o->second.best,
                  peak > 0 ? 100.0 * e->second.median / peak : 0.0,
                  o->second.median > 0 ? e->second.median / o->second.median : 0.0);
    }
  }
  return 0;
}
