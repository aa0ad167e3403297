// What the GEMM benchmarks (gemm_bench, bench/search's gemm_tune_bench) share: running the peer
// OpenBLAS at its best, and one core's measured FMA peak, the figure throughput is reported
// against. Header-only, for benchmark programs.
#pragma once

#include <immintrin.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

// OpenBLAS picks its kernel when it is loaded: drop the variables that pin it and run this
// program again, so that the peer is measured on the kernel it chooses for this CPU.
void unpin_openblas(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr && std::getenv("OPENBLAS_L2_SIZE") == nullptr)
    return;
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv("OPENBLAS_L2_SIZE");
  execv("/proc/self/exe", argv);
  std::perror("could not run this program again without OPENBLAS_CORETYPE");
}

// The peak loops below are built for AVX-512 (and VNNI): main() runs each where the CPU has it.
// GCC sets the target for a region with its pragma; clang applies the attribute to each function.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512vnni,avx512bf16"))), \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vnni,avx512bf16")
#endif
struct F32Lanes {
  using V = __m512;
  static constexpr int lanes = 16;
  static V set1(double x) { return _mm512_set1_ps(float(x)); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static double lane0(V v) { return _mm512_cvtss_f32(v); }
};
struct F64Lanes {
  using V = __m512d;
  static constexpr int lanes = 8;
  static V set1(double x) { return _mm512_set1_pd(x); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  static double lane0(V v) { return _mm512_cvtsd_f64(v); }
};

// vpdpbusd: 16 lanes of 4 u8 x s8 products each, counted as 64 lanes of multiply-adds.
struct U8S8Lanes {
  using V = __m512i;
  static constexpr int lanes = 64;
  static V set1(double x) { return _mm512_set1_epi32(int(x * 10) + 1); }
  static V fmadd(V a, V b, V c) { return _mm512_dpbusd_epi32(a, b, c); }
  static V add(V a, V b) { return _mm512_add_epi32(a, b); }
  static double lane0(V v) {
    alignas(64) int32_t lanes[16];
    _mm512_store_si512(lanes, v);
    return lanes[0];
  }
};

// vdpbf16ps: 16 lanes of 2 bf16 x bf16 products each, counted as 32 lanes of multiply-adds.
struct Bf16Lanes {
  using V = __m512;
  static constexpr int lanes = 32;
  static V set1(double x) { return _mm512_set1_ps(float(x)); }
  static V fmadd(V a, V b, V c) {
    return _mm512_dpbf16_ps(a, (__m512bh)_mm512_castps_si512(b), (__m512bh)_mm512_castps_si512(c));
  }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static double lane0(V v) { return _mm512_cvtss_f32(v); }
};

// One core's FMA peak in GFLOP/s at a precision: 12 independent chains of AVX-512 FMAs (enough
// to cover the FMA latency on two pipes), each in a variable of its own so that all stay in
// registers, for about a fifth of a second; best of 5.
template <typename L>
double fma_peak_gflops() {
  using V = typename L::V;
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    // Distinct starting values, or the compiler merges identical chains into one.
    V c0 = L::set1(0.0), c1 = L::set1(0.1), c2 = L::set1(0.2), c3 = L::set1(0.3), c4 = L::set1(0.4),
      c5 = L::set1(0.5), c6 = L::set1(0.6), c7 = L::set1(0.7), c8 = L::set1(0.8), c9 = L::set1(0.9),
      c10 = L::set1(1.0), c11 = L::set1(1.1);
    const V a = L::set1(0.999999), b = L::set1(1e-7);
    const long iters = 4'000'000;
    auto start = std::chrono::steady_clock::now();
    for (long n = 0; n < iters; ++n) {
      c0 = L::fmadd(c0, a, b);
      c1 = L::fmadd(c1, a, b);
      c2 = L::fmadd(c2, a, b);
      c3 = L::fmadd(c3, a, b);
      c4 = L::fmadd(c4, a, b);
      c5 = L::fmadd(c5, a, b);
      c6 = L::fmadd(c6, a, b);
      c7 = L::fmadd(c7, a, b);
      c8 = L::fmadd(c8, a, b);
      c9 = L::fmadd(c9, a, b);
      c10 = L::fmadd(c10, a, b);
      c11 = L::fmadd(c11, a, b);
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const V sum = L::add(
        L::add(L::add(L::add(c0, c1), L::add(c2, c3)), L::add(L::add(c4, c5), L::add(c6, c7))),
        L::add(L::add(c8, c9), L::add(c10, c11)));
    volatile double sink = L::lane0(sum);  // keeps the chains alive
    (void)sink;
    best = std::max(best, 2.0 * L::lanes * 12 * double(iters) / s / 1e9);
  }
  return best;
}
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

}  // namespace
