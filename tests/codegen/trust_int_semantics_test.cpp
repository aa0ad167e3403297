// Emitted C computes what the interpreter computes for every input: integer data arithmetic in
// every precision and operator (wrap-around, no signed overflow, no trap), float-to-integer
// conversion of any value, stores and reductions across precisions, and float arithmetic that
// the C compiler may not contract into fused multiply-adds.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/codegen/codegen_test_util.h"

namespace exocpp {
namespace {

using codegen_test::compile_object;
using codegen_test::proc_of;

constexpr double kMin32 = -2147483648.0, kMax32 = 2147483647.0;

// Edge values of each integer precision (and the 32-bit ones every intermediate may reach).
std::vector<double> edges(const std::string& t) {
  if (t == "i8") return {-128, -127, -2, -1, 0, 1, 2, 64, 126, 127};
  if (t == "ui8") return {0, 1, 2, 127, 128, 200, 254, 255};
  if (t == "ui16") return {0, 1, 2, 255, 256, 32767, 32768, 65534, 65535};
  return {kMin32, kMin32 + 1, -65536, -256, -2, -1, 0, 1, 2, 255, 65535, 46341, kMax32 - 1, kMax32};
}

ScalarKind kind_of(const std::string& t) {
  if (t == "i8") return ScalarKind::I8;
  if (t == "ui8") return ScalarKind::UI8;
  if (t == "ui16") return ScalarKind::UI16;
  if (t == "i32") return ScalarKind::I32;
  if (t == "f16") return ScalarKind::F16;
  if (t == "f64") return ScalarKind::F64;
  return ScalarKind::F32;
}

// Runs `p` on `args` in the interpreter (R as f32) and compiled (with `opts`); "" when every
// argument agrees exactly.
std::string run_both(const Proc& p, const std::vector<ArgValue>& args, CompileOptions opts = {}) {
  std::vector<ArgValue> a = deep_copy(args), b = deep_copy(args);
  InterpOptions io;
  io.real_as = ScalarKind::F32;
  interpret(p, a, io);
  CompiledLibrary lib({p}, "trust", opts);
  lib.call(p.name(), b);
  return compare_args(p, a, b);
}

// y[i, j] = x[i] OP z[j] over every pair of edge values.
std::string pairwise(const std::string& t, const std::string& op, bool nonzero_rhs) {
  std::vector<double> xs = edges(t), zs;
  for (double v : xs)
    if (!nonzero_rhs || v != 0) zs.push_back(v);
  Proc p =
      proc_of("def f(n: size, m: size, x: " + t + "[n] @ DRAM, z: " + t + "[m] @ DRAM, y: " + t +
                  "[n, m] @ DRAM):\n"
                  "    for i in seq(0, n):\n"
                  "        for j in seq(0, m):\n"
                  "            y[i, j] = x[i] " +
                  op + " z[j]\n",
              "f");
  auto n = static_cast<int64_t>(xs.size()), m = static_cast<int64_t>(zs.size());
  ScalarKind k = kind_of(t);
  return run_both(p, {n, m, Buffer::from_values(k, {n}, xs), Buffer::from_values(k, {m}, zs),
                      Buffer(k, {n, m}, 0)});
}

class TrustIntOps : public ::testing::TestWithParam<std::string> {};

TEST_P(TrustIntOps, AddAtTheLimitsWrapsAsTheInterpreter) {
  EXPECT_EQ(pairwise(GetParam(), "+", false), "");
}
TEST_P(TrustIntOps, SubAtTheLimitsWrapsAsTheInterpreter) {
  EXPECT_EQ(pairwise(GetParam(), "-", false), "");
}
TEST_P(TrustIntOps, MulAtTheLimitsWrapsAsTheInterpreter) {
  EXPECT_EQ(pairwise(GetParam(), "*", false), "");
}
TEST_P(TrustIntOps, DivAtTheLimitsTruncatesAsTheInterpreter) {
  EXPECT_EQ(pairwise(GetParam(), "/", true), "");
}

TEST_P(TrustIntOps, NegationAndCompoundExpressionsAgree) {
  const std::string t = GetParam();
  Proc p = proc_of("def f(n: size, x: " + t + "[n] @ DRAM, y: " + t +
                       "[n, 6] @ DRAM):\n"
                       "    for i in seq(0, n):\n"
                       "        y[i, 0] = -x[i]\n"
                       "        y[i, 1] = -x[i] / 2\n"
                       "        y[i, 2] = x[i] * 2 / 2\n"
                       "        y[i, 3] = x[i] + 2147483647 - 2147483647\n"
                       "        y[i, 4] = (x[i] * x[i] + 1) / (x[i] * 0 - 1)\n"
                       "        y[i, 5] = -(-x[i] * 65536)\n",
                   "f");
  std::vector<double> xs = edges(t);
  auto n = static_cast<int64_t>(xs.size());
  ScalarKind k = kind_of(t);
  EXPECT_EQ(run_both(p, {n, Buffer::from_values(k, {n}, xs), Buffer(k, {n, 6}, 0)}), "");
}

TEST_P(TrustIntOps, ReductionsWrapAsTheInterpreter) {
  const std::string t = GetParam();
  Proc p = proc_of("def f(n: size, x: " + t + "[n] @ DRAM, y: " + t +
                       "[n] @ DRAM):\n"
                       "    for i in seq(0, n):\n"
                       "        y[i] += x[i]\n"
                       "        y[i] += x[i] * 3\n",
                   "f");
  std::vector<double> xs = edges(t);
  auto n = static_cast<int64_t>(xs.size());
  ScalarKind k = kind_of(t);
  EXPECT_EQ(run_both(p, {n, Buffer::from_values(k, {n}, xs), Buffer::from_values(k, {n}, xs)}), "");
}

INSTANTIATE_TEST_SUITE_P(Precisions, TrustIntOps, ::testing::Values("i8", "ui8", "ui16", "i32"));

// Two integer precisions in one operator (a ui8 times an i8, as in u8 x s8 dot products): an
// i32 value, computed in 32-bit int; y[i, j] = x[i] OP z[j] over every pair of both types' edge
// values, stored to i32 and to i8 (which wraps once more), and accumulated into i32.
std::string mixed_pairwise(const std::string& tx, const std::string& tz, const std::string& op) {
  std::vector<double> xs = edges(tx), zs;
  for (double v : edges(tz))
    if (op != "/" || v != 0) zs.push_back(v);
  Proc p = proc_of("def f(n: size, m: size, x: " + tx + "[n] @ DRAM, z: " + tz +
                       "[m] @ DRAM, y: i32[n, m] @ DRAM, w: i8[n, m] @ DRAM, acc: i32[n] @ DRAM):\n"
                       "    for i in seq(0, n):\n"
                       "        for j in seq(0, m):\n"
                       "            y[i, j] = x[i] " +
                       op +
                       " z[j]\n"
                       "            w[i, j] = x[i] " +
                       op +
                       " z[j]\n"
                       "            acc[i] += x[i] " +
                       op + " z[j]\n",
                   "f");
  auto n = static_cast<int64_t>(xs.size()), m = static_cast<int64_t>(zs.size());
  return run_both(p, {n, m, Buffer::from_values(kind_of(tx), {n}, xs),
                      Buffer::from_values(kind_of(tz), {m}, zs), Buffer(ScalarKind::I32, {n, m}, 0),
                      Buffer(ScalarKind::I8, {n, m}, 0), Buffer(ScalarKind::I32, {n}, 0)});
}

class TrustMixedIntOps : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(TrustMixedIntOps, EveryOperatorOnEdgeValuesAgreesWithTheInterpreter) {
  const auto& [tx, tz] = GetParam();
  for (const char* op : {"+", "-", "*", "/"}) EXPECT_EQ(mixed_pairwise(tx, tz, op), "") << op;
}

INSTANTIATE_TEST_SUITE_P(PrecisionPairs, TrustMixedIntOps,
                         ::testing::Values(std::pair<std::string, std::string>{"ui8", "i8"},
                                           std::pair<std::string, std::string>{"i8", "ui8"},
                                           std::pair<std::string, std::string>{"ui16", "i32"},
                                           std::pair<std::string, std::string>{"i32", "ui8"},
                                           std::pair<std::string, std::string>{"i8", "ui16"}),
                         [](const auto& info) {
                           return info.param.first + "_" + info.param.second;
                         });

TEST(TrustIntSemantics, Int32MinDividedByMinusOneWrapsInsteadOfTrapping) {
  Proc p = proc_of(
      "def f(x: i32[2] @ DRAM, y: i32[2] @ DRAM):\n"
      "    y[0] = x[0] / x[1]\n",
      "f");
  EXPECT_EQ(run_both(p, {Buffer::from_values(ScalarKind::I32, {2}, {kMin32, -1}),
                         Buffer(ScalarKind::I32, {2}, 0)}),
            "");
}

// The interpreter reports an integer division by zero; the C gives 0 (documented in
// docs/codegen.md) rather than killing the caller with SIGFPE.
TEST(TrustIntSemantics, DivisionByZeroGivesZeroInC) {
  Proc p = proc_of(
      "def f(x: i32[2] @ DRAM, y: i32[2] @ DRAM):\n"
      "    y[0] = x[0] / x[1]\n"
      "    y[1] = 7\n",
      "f");
  std::vector<ArgValue> args = {Buffer::from_values(ScalarKind::I32, {2}, {kMin32, 0}),
                                Buffer::from_values(ScalarKind::I32, {2}, {5, 5})};
  std::vector<ArgValue> in = deep_copy(args);
  EXPECT_THROW(interpret(p, in), InterpError);
  CompiledLibrary lib({p}, "trust");
  lib.call("f", args);
  EXPECT_EQ(std::get<Buffer>(args[1]).get({0}), 0.0);
  EXPECT_EQ(std::get<Buffer>(args[1]).get({1}), 7.0);
}

// Stores between integer precisions wrap to the target's width.
TEST(TrustIntSemantics, StoresBetweenIntegerPrecisionsWrap) {
  for (const std::string from : {"i8", "ui8", "ui16", "i32"})
    for (const std::string to : {"i8", "ui8", "ui16", "i32"}) {
      Proc p = proc_of("def f(n: size, x: " + from + "[n] @ DRAM, y: " + to +
                           "[n] @ DRAM):\n"
                           "    for i in seq(0, n):\n"
                           "        y[i] = x[i]\n",
                       "f");
      std::vector<double> xs = edges(from);
      auto n = static_cast<int64_t>(xs.size());
      EXPECT_EQ(run_both(p, {n, Buffer::from_values(kind_of(from), {n}, xs),
                             Buffer(kind_of(to), {n}, 0)}),
                "")
          << from << " -> " << to;
    }
}

// Float to integer: truncate toward zero, then wrap (docs/language.md), for values far outside
// the target's range too.
TEST(TrustIntSemantics, FloatToIntegerConversionOfAnyFiniteValueAgrees) {
  std::vector<double> vals = {0.0,
                              -0.0,
                              0.5,
                              -0.5,
                              2.5,
                              -2.5,
                              -3.0,
                              127.9,
                              128.0,
                              255.9,
                              256.0,
                              -129.0,
                              65535.5,
                              65536.0,
                              3e9,
                              -3e9,
                              kMax32,
                              kMin32,
                              4294967296.0,
                              4294967297.0,
                              1e15 + 3,
                              -1e15 - 7,
                              9.2e18,
                              -9.2e18,
                              9.3e18,
                              1.8446744073709552e19,
                              1.8446744073709552e19 + 4096.0 * 1024 * 1024,
                              3.7e19 + 2048.0 * 3,
                              1e25,
                              -1e25,
                              3.9614081257132169e28,
                              1e30,
                              -1e30,
                              1e300,
                              -1e300,
                              std::numeric_limits<double>::denorm_min(),
                              1.5e-300};
  for (const std::string src : {"f32", "f64", "f16"})
    for (const std::string to : {"i8", "ui8", "ui16", "i32"}) {
      Proc p = proc_of("def f(n: size, x: " + src + "[n] @ DRAM, y: " + to +
                           "[n] @ DRAM):\n"
                           "    for i in seq(0, n):\n"
                           "        y[i] = x[i]\n",
                       "f");
      std::vector<double> xs;
      for (double v : vals) {
        double r = round_to_kind(kind_of(src), v);
        if (std::isfinite(r)) xs.push_back(r);
      }
      auto n = static_cast<int64_t>(xs.size());
      EXPECT_EQ(
          run_both(p, {n, Buffer::from_values(kind_of(src), {n}, xs), Buffer(kind_of(to), {n}, 0)}),
          "")
          << src << " -> " << to;
    }
}

// NaN and infinities have no integer value: the interpreter reports the store, the C stores 0.
TEST(TrustIntSemantics, NonFiniteToIntegerIsZeroInCAndAnErrorInTheInterpreter) {
  Proc p = proc_of(
      "def f(x: f32[3] @ DRAM, y: i32[3] @ DRAM):\n"
      "    for i in seq(0, 3):\n"
      "        y[i] = x[i]\n",
      "f");
  double inf = std::numeric_limits<double>::infinity();
  std::vector<ArgValue> args = {
      Buffer::from_values(ScalarKind::F32, {3}, {std::nan(""), inf, -inf}),
      Buffer::from_values(ScalarKind::I32, {3}, {5, 5, 5})};
  std::vector<ArgValue> in = deep_copy(args);
  EXPECT_THROW(interpret(p, in), InterpError);
  CompiledLibrary lib({p}, "trust");
  lib.call("f", args);
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(std::get<Buffer>(args[1]).get({i}), 0.0) << i;
}

// A float reduced into an integer (or another float precision) adds exactly, then rounds once.
TEST(TrustIntSemantics, ReductionsAcrossPrecisionsRoundOnce) {
  struct Case {
    std::string to, from;
    std::vector<double> y, x;
  };
  std::vector<Case> cases = {
      {"i32", "f32", {16777217, kMax32, kMin32, 0, -5}, {1.0, 1.0, -0.5, 3e9, 2.75}},
      {"ui8", "f32", {255, 0, 200, 1, 7}, {1.5, -1.0, 100.25, 1e9, -8.5}},
      {"f64", "f32", {1e16, 1, 0.1, -3, 2}, {1.0, 1e-8, 0.2, 3, 1e20}},
      {"f32", "i32", {16777216, 0, 1, -1, 3}, {1, kMax32, kMin32, 16777217, 5}},
      {"f16", "f32", {2048, 1, 0.5, 1000, -2}, {1.0009765625, 0.00048828125, 3e-5, 65504, 1}},
      {"i8", "i32", {127, -128, 0, 5, -1}, {1, -1, 300, kMax32, kMin32}},
  };
  for (const Case& c : cases) {
    Proc p = proc_of("def f(n: size, x: " + c.from + "[n] @ DRAM, y: " + c.to +
                         "[n] @ DRAM):\n"
                         "    for i in seq(0, n):\n"
                         "        y[i] += x[i]\n",
                     "f");
    auto n = static_cast<int64_t>(c.x.size());
    EXPECT_EQ(run_both(p, {n, Buffer::from_values(kind_of(c.from), {n}, c.x),
                           Buffer::from_values(kind_of(c.to), {n}, c.y)}),
              "")
        << c.from << " += into " << c.to;
  }
}

// GCC 12 rewrites (-x) / c as -(x / c), which differs for x = INT32_MIN, where
// -x wraps to x: the interpreter's (x * -1) / 3 + x / 3 is 2 * (x / 3), not 0. The emitted
// division divides unsigned magnitudes, which no compiler can rewrite that way.
TEST(TrustIntSemantics, DivisionOfANegatedValueAtInt32MinMatchesUnderEveryCompiler) {
  Proc p = proc_of(
      "def f(n: size, x: i32[n] @ DRAM, y: i32[n] @ DRAM, z: i32[n] @ DRAM):\n"
      "    for i in seq(0, n):\n"
      "        y[i] = x[i] * -1 / 3 + x[i] / 3\n"
      "        z[i] = -x[i] / 7 + x[i] / 7\n",
      "f");
  std::vector<double> xs = {kMin32, kMin32 + 1, -7, 7, kMax32};
  auto n = static_cast<int64_t>(xs.size());
  for (const std::string cc : {"gcc", "clang"})
    for (const std::string opt : {"-O1", "-O2", "-O3"}) {
      CompileOptions o{cc, {opt}};
      EXPECT_EQ(run_both(p,
                         {n, Buffer::from_values(ScalarKind::I32, {n}, xs),
                          Buffer(ScalarKind::I32, {n}, 0), Buffer(ScalarKind::I32, {n}, 0)},
                         o),
                "")
          << cc << " " << opt;
    }
}

// gcc with -ffp-contract=fast (its default in GNU modes) and an FMA target would fuse
// `x * y + z` into one rounding; the emitted C forbids contraction.
TEST(TrustFloatSemantics, MultiplyAddIsNotContractedUnderFpContractFast) {
  for (const std::string t : {"f32", "f64", "f16"}) {
    Proc p = proc_of("def f(n: size, x: " + t + "[n] @ DRAM, y: " + t +
                         "[n] @ DRAM):\n"
                         "    for i in seq(0, n):\n"
                         "        y[i] = x[i] * x[i] - 1.0\n"
                         "        y[i] += x[i] * x[i]\n",
                     "f");
    double e = t == "f16" ? 1.0009765625 : t == "f32" ? 1.0000001192092896 : 1.0000000000000002;
    std::vector<double> xs(16, e);
    auto n = static_cast<int64_t>(xs.size());
    for (const std::string cc : {"gcc", "clang"}) {
      if (t == "f16" && cc == "clang")
        continue;  // clang 14's __fp16 has no native arithmetic to fuse
      CompileOptions o{
          cc,
          {"-O3", "-march=native", "-ffp-contract=" + std::string(cc == "gcc" ? "fast" : "on")}};
      EXPECT_EQ(
          run_both(p, {n, Buffer::from_values(kind_of(t), {n}, xs), Buffer(kind_of(t), {n}, 0)}, o),
          "")
          << t << " with " << cc;
    }
  }
}

TEST(TrustFloatSemantics, EmittedSourceForbidsContraction) {
  CSource c = compile_procs_to_c(
      {proc_of("def f(x: f32[3] @ DRAM):\n    x[0] = x[1] * x[2] + x[0]\n", "f")}, "lib");
  EXPECT_NE(c.source.find("#pragma GCC optimize(\"fp-contract=off\""), std::string::npos);
  EXPECT_NE(c.source.find("#pragma clang fp contract(off)"), std::string::npos);
}

// gcc 12's SLP vectorizer computed `D[i] += t` for two adjacent `t: f32 = D[i] - D[2]` with D
// in double as if t were not rounded to float (seed 999829768 of the soak); the emitted C turns
// basic-block vectorization off for gcc.
TEST(TrustFloatSemantics, FloatLocalNarrowedFromDoubleRoundsUnderGccVectorizers) {
  Proc p = proc_of(
      "def f(D: f64[3] @ DRAM):\n"
      "    for i in seq(0, 2):\n"
      "        t: f32 @ DRAM\n"
      "        t = D[i] - D[2]\n"
      "        D[i] += t\n",
      "f");
  const double big = std::numeric_limits<double>::max();
  for (const std::vector<double>& d : {std::vector<double>{0.1, 1.0 / 3, -0.0},  // rounding
                                       std::vector<double>{0.0, -2.7, big}})     // overflow
    for (const std::string cc : {"gcc", "clang"})
      for (const std::string opt : {"-O2", "-O3"}) {
        CompileOptions o{cc, {opt, "-march=native"}};
        EXPECT_EQ(run_both(p, {Buffer::from_values(ScalarKind::F64, {3}, d)}, o), "")
            << cc << " " << opt << " D[2] = " << d[2];
      }
}

// The emitted integer helpers build warning-free in C99 with gcc and clang.
TEST(TrustIntSemantics, IntegerHelpersCompileWarningFree) {
  Proc p = proc_of(
      "def f(x: i32[4] @ DRAM, y: i8[4] @ DRAM, z: f32[4] @ DRAM, w: ui16[4] @ DRAM):\n"
      "    x[0] = -x[1] * x[2] / x[3] - x[0]\n"
      "    y[0] = x[0]\n"
      "    y[1] = z[0]\n"
      "    y[2] += z[1]\n"
      "    w[0] += y[0]\n",
      "f");
  CSource c = compile_procs_to_c({p}, "lib");
  for (const std::string cc : {"gcc", "clang"})
    EXPECT_EQ(compile_object(c, "lib", cc, "-std=c99 -Wall -Wextra -Werror -pedantic -O2"), "")
        << cc;
}

}  // namespace
}  // namespace exocpp
