// The value-dependent kernels (examples/value_control) against the reference BLAS (Debian's
// libblas3, loaded from its own directory so that the alternatives system's choice of
// OpenBLAS does not stand in for it): i?amax bit for bit on ties, NaN, ±inf and ±0; ?nrm2
// within 2 ulp on values near the precision's overflow and underflow; spmv's schedule against
// its plain proc and its C against the interpreter.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "value_control_schedule.h"

namespace {

using namespace exocpp;

constexpr const char* kReferenceBlas = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3";

// A symbol of the reference BLAS; the test fails (not skips) when it is missing:
// scripts/install-deps.sh installs libblas-dev.
void* reference(const char* name) {
  static void* lib = dlopen(kReferenceBlas, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    ADD_FAILURE() << "cannot load the reference BLAS " << kReferenceBlas << ": " << dlerror();
    return nullptr;
  }
  void* s = dlsym(lib, name);
  if (!s) ADD_FAILURE() << "the reference BLAS has no " << name;
  return s;
}

// Vectors that reach every branch of i?amax and ?nrm2: ties, NaN first and inside, infinities,
// signed zeros, and values near the overflow and underflow thresholds of T.
template <class T>
std::vector<std::vector<T>> hard_vectors() {
  using L = std::numeric_limits<T>;
  const T big = L::max() / 4, huge = L::max(), tiny = L::min() * 2, sub = L::denorm_min() * 3;
  std::vector<std::vector<T>> v = {
      {T(1), T(-3), T(3), T(2)},
      {L::quiet_NaN(), T(5), T(1)},
      {T(2), L::quiet_NaN(), T(7), T(-7)},
      {T(-0.0), T(0.0), -L::infinity(), T(1)},
      {T(0.0)},
      {T(-0.0), T(-0.0)},
      {big, big, T(-1)},
      {huge, T(1), huge},
      {tiny, sub, -tiny},
      {tiny, T(1), sub},
      {tiny, big, T(0.5)},
      {sub, T(0.0), sub},
      {T(3), L::infinity(), L::quiet_NaN()},
      {T(1e-3), T(2e-3), T(0.25)},
  };
  std::mt19937 rng(7);
  // Long enough to fill the scheduled kernels' lane registers several times over (i?amax folds
  // 4 registers of lanes per group): ties across lanes and groups, NaN in lanes, the best in the
  // scalar tail, -0 against +0, an infinity late.
  for (size_t n : {64, 65, 127, 200, 259}) {
    std::vector<T> x(n);
    for (T& e : x) e = T(int(rng() % 7) - 3);  // many equal values
    v.push_back(x);
    x[n / 3] = L::quiet_NaN();
    x[n - 1] = T(9);  // past the last full group when n % 64 != 0
    v.push_back(x);
    x[n / 2] = -L::infinity();
    x[1] = T(-9);  // equal magnitude, earlier: wins
    v.push_back(x);
    std::fill(x.begin(), x.end(), T(-0.0));
    x[n / 2] = T(0.0);
    v.push_back(x);
  }
  for (int k = 0; k < 12; ++k) {  // random mixtures of scales
    std::vector<T> x(1 + rng() % 40);
    for (T& e : x) {
      const int e2 = static_cast<int>(rng() % (2 * L::max_exponent)) - L::max_exponent;
      e = std::ldexp(T(1) + T(rng() % 1000) / T(1000), e2) * (rng() % 2 ? T(1) : T(-1));
    }
    v.push_back(x);
  }
  return v;
}

template <class T>
ArgValue vector_arg(const std::vector<T>& x, ScalarKind k) {
  return Buffer::from_values(k, {static_cast<int64_t>(x.size())},
                             std::vector<double>(x.begin(), x.end()));
}

// Runs kernel `name` (its schedule, compiled, and its plain proc, interpreted) on x; returns
// the two results.
template <class T>
std::pair<double, double> run(const CompiledLibrary& lib, const std::string& name,
                              const std::vector<T>& x, ScalarKind elem, ScalarKind result) {
  std::vector<ArgValue> args = {static_cast<int64_t>(x.size()), vector_arg(x, elem),
                                Buffer::scalar(result, 0)};
  std::vector<ArgValue> c = deep_copy(args);
  interpret(value_control::plain(name), args);
  lib.call(name, c);
  return {std::get<Buffer>(args[2]).get({}), std::get<Buffer>(c[2]).get({})};
}

template <class T>
void expect_iamax_matches_reference(const std::string& name, const char* ref_name,
                                    ScalarKind elem) {
  using Ref = int (*)(const int*, const T*, const int*);
  Ref ref = reinterpret_cast<Ref>(reference(ref_name));
  ASSERT_NE(ref, nullptr);
  CompiledLibrary lib({value_control::scheduled(name)}, "vc_" + name);
  for (const std::vector<T>& x : hard_vectors<T>()) {
    const int n = static_cast<int>(x.size()), inc = 1;
    const int want = ref(&n, x.data(), &inc) - 1;  // Fortran's index is 1-based
    auto [interp, compiled] = run(lib, name, x, elem, ScalarKind::I32);
    EXPECT_EQ(interp, want) << name << " x = " << ::testing::PrintToString(x);
    EXPECT_EQ(compiled, want) << name << " x = " << ::testing::PrintToString(x);
  }
}

// The scheduled i?amax, ?nrm2 and bs_sgemm run AVX-512 (and FMA) instructions: on a CPU
// without them the compiled kernels cannot run, and their tests skip, saying so.
bool cpu_runs_the_kernels() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("fma");
}
#define SKIP_WITHOUT_AVX512()  \
  if (!cpu_runs_the_kernels()) \
  GTEST_SKIP() << "this CPU has no AVX-512F/VL or FMA: the scheduled kernels cannot run here"

TEST(ValueControlKernels, IsamaxIsTheReferenceAnswer) {
  SKIP_WITHOUT_AVX512();
  expect_iamax_matches_reference<float>("isamax", "isamax_", ScalarKind::F32);
}

TEST(ValueControlKernels, IdamaxIsTheReferenceAnswer) {
  SKIP_WITHOUT_AVX512();
  expect_iamax_matches_reference<double>("idamax", "idamax_", ScalarKind::F64);
}

// |a - b| in units in the last place of b (0 when both are the same NaN-ness and value).
template <class T>
double ulps(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1e9;
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) return 1e9;
  const T ulp = std::nextafter(std::fabs(b), std::numeric_limits<T>::infinity()) - std::fabs(b);
  return std::fabs(double(a) - double(b)) / double(ulp);
}

template <class T>
void expect_nrm2_within_2_ulp(const std::string& name, const char* ref_name, ScalarKind elem) {
  using Ref = T (*)(const int*, const T*, const int*);
  Ref ref = reinterpret_cast<Ref>(reference(ref_name));
  ASSERT_NE(ref, nullptr);
  CompiledLibrary lib({value_control::scheduled(name)}, "vc_" + name);
  for (const std::vector<T>& x : hard_vectors<T>()) {
    const int n = static_cast<int>(x.size()), inc = 1;
    const T want = ref(&n, x.data(), &inc);
    auto [interp, compiled] = run(lib, name, x, elem, elem);
    EXPECT_LE(ulps(static_cast<T>(interp), want), 2)
        << name << " = " << interp << ", reference " << want
        << ", x = " << ::testing::PrintToString(x);
    EXPECT_LE(ulps(static_cast<T>(compiled), want), 2)
        << name << " = " << compiled << " (C), reference " << want
        << ", x = " << ::testing::PrintToString(x);
  }
}

TEST(ValueControlKernels, Snrm2IsWithinTwoUlpOfTheReference) {
  SKIP_WITHOUT_AVX512();
  expect_nrm2_within_2_ulp<float>("snrm2", "snrm2_", ScalarKind::F32);
}

TEST(ValueControlKernels, Dnrm2IsWithinTwoUlpOfTheReference) {
  SKIP_WITHOUT_AVX512();
  expect_nrm2_within_2_ulp<double>("dnrm2", "dnrm2_", ScalarKind::F64);
}

TEST(ValueControlKernels, ScheduledLevel1KernelsCompileToWhatTheInterpreterComputes) {
  SKIP_WITHOUT_AVX512();
  // The vector instructions' C (this example's nrm2 lanes among them) against their bodies:
  // the scheduled procs, compiled and interpreted, bit for bit; sizes with and without a tail.
  for (const char* k : {"isamax", "idamax", "snrm2", "dnrm2"})
    for (int64_t n : {1, 16, 37, 130})
      EXPECT_EQ(compare_compiled_with_interpreter(value_control::scheduled(k), {{"n", n}}, 5), "")
          << k << " n = " << n;
}

// Rows long enough for both registers of lanes and a tail; rowptr is drawn anywhere in its
// range, so some rows run backwards (no nonzeros, the specialized branch that goes).
const std::map<std::string, int64_t> kSpmvSizes = {{"m", 7}, {"n", 40}, {"nnz", 150}};

TEST(ValueControlKernels, SpmvRowsInParallelComputeThePlainProc) {
  for (const char* name : {"spmv_s", "spmv_d"}) {
    Proc p = value_control::plain(name), q = value_control::scheduled(name);
    EXPECT_NE(to_string(q).find("for i in par(0, m):"), std::string::npos) << q;
    EXPECT_NE(to_string(q).find("_i32gather_p"), std::string::npos) << q;
    // Exactly: the lanes regroup each row's sum (as reals), but the drawn values keep these sums
    // exact, so any other difference shows.
    EXPECT_EQ(compare_procs(p, q, kSpmvSizes, 3), "") << name;
  }
}

TEST(ValueControlKernels, SpmvCompiledMatchesTheInterpreter) {
  SKIP_WITHOUT_AVX512();
  for (const char* name : {"spmv_s", "spmv_d"})
    EXPECT_EQ(compare_compiled_with_interpreter(value_control::scheduled(name), kSpmvSizes, 1,
                                                CompileOptions{"cc", {"-O2", "-march=native"}}),
              "")
        << name;
}

}  // namespace

namespace {

TEST(ValueControlKernels, BlockSparseSgemmComputesThePlainProc) {
  Proc p = value_control::plain("bs_sgemm"), q = value_control::scheduled("bs_sgemm");
  EXPECT_NE(to_string(q).find("if mask[it, kti + 8 * kto] > 0:"), std::string::npos) << q;
  EXPECT_NE(to_string(q).find("sgemm_tile_6_avx512("), std::string::npos) << q;
  // N = 70: full panels and a right edge; K = 512: one block of 8 tiles.
  const std::map<std::string, int64_t> sizes = {{"MT", 2}, {"N", 70}, {"KT", 8}};
  EXPECT_EQ(compare_procs(p, q, sizes, 2), "");
}

TEST(ValueControlKernels, BlockSparseSgemmCompiledMatchesTheInterpreter) {
  SKIP_WITHOUT_AVX512();
  const std::map<std::string, int64_t> sizes = {{"MT", 2}, {"N", 70}, {"KT", 8}};
  EXPECT_EQ(compare_compiled_with_interpreter(value_control::scheduled("bs_sgemm"), sizes, 1,
                                              CompileOptions{"cc", {"-O2", "-march=native"}}),
            "");
}

}  // namespace
