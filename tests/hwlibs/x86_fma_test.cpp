// fma(a, b, c), the built-in extern with one rounding, and the x86 instructions whose bodies use
// it: the interpreter rounds once as the hardware does, so a kernel using FMA instructions agrees
// with the interpreter bit for bit on inputs whose products round (the fmadd bodies, read as
// real arithmetic, do not: hwlibs/x86/README.md).
#include <gtest/gtest.h>

#include <cmath>

#include "hwlibs/x86/x86.h"
#include "x86_harness.h"

namespace exocpp {
namespace {

// a = b = 1 + 2^-12, c = -1: a * b = 1 + 2^-11 + 2^-24, which f32 rounds (a tie, to even) to
// 1 + 2^-11; fused, the 2^-24 survives.
std::vector<ArgValue> rounding_inputs() {
  const double a = 1.0 + 1.0 / 4096;
  return {int64_t(16), Buffer(ScalarKind::F32, {16}, a), Buffer(ScalarKind::F32, {16}, a),
          Buffer(ScalarKind::F32, {16}, -1.0)};
}

const char* kFused = R"(
def fused(n: size, a: f32[n] @ DRAM, b: f32[n] @ DRAM, c: f32[n] @ DRAM):
    for i in seq(0, n):
        c[i] = fma(a[i], b[i], c[i])
)";

Proc parse(const char* text, const std::string& name) {
  x86::register_memories();
  return parse_module(text).proc(name);
}

TEST(Fma, TheInterpreterRoundsOnce) {
  std::vector<ArgValue> args = rounding_inputs();
  interpret(parse(kFused, "fused"), args);
  const double a = 1.0 + 1.0 / 4096;
  EXPECT_EQ(std::get<Buffer>(args[3]).get({0}), double(std::fmaf(float(a), float(a), -1.0f)));
  EXPECT_NE(std::get<Buffer>(args[3]).get({0}), double(float(float(a) * float(a)) - 1.0f));
}

TEST(Fma, RefusesAPrecisionWithoutASingleRoundingDefinedHere) {
  x86::register_memories();
  EXPECT_THROW(parse_module(R"(
def f(a: i32 @ DRAM, b: i32 @ DRAM):
    a = fma(a, b, a)
)"),
               TypeError);
}

CompileOptions native() { return {"cc", {"-O2", "-march=native", "-Wall", "-Werror"}}; }

// The plain loop emitted as C (fmaf) agrees with the interpreter where the product rounds.
TEST(Fma, EmittedCAgreesWithTheInterpreterWhereTheProductRounds) {
  Proc p = parse(kFused, "fused");
  std::vector<ArgValue> want = rounding_inputs(), got = rounding_inputs();
  interpret(p, want);
  CompiledLibrary lib({p}, "fma_plain", native());
  lib.call("fused", got);
  EXPECT_EQ(compare_args(p, want, got), "");
}

// vectorize picks mm512_fma_ps, and the compiled kernel agrees bit for bit, on the rounding
// inputs and on random reals.
TEST(Fma, AVectorizedKernelAgreesBitForBit) {
  Proc plain = parse(R"(
def fused(n: size, a: f32[n] @ DRAM, b: f32[n] @ DRAM, c: f32[n] @ DRAM):
    for i in seq(0, n):
        acc: f32 @ DRAM
        acc = c[i]
        acc = fma(a[i], b[i], acc)
        c[i] = acc
)",
                     "fused");
  Proc p =
      vectorize(plain, "i", 16, "AVX512",
                {x86::mm512_loadu_ps.get(), x86::mm512_storeu_ps.get(), x86::mm512_fma_ps.get()});
  EXPECT_NE(to_string(p).find("mm512_fma_ps("), std::string::npos) << p;
  // The schedule is checked on any machine; running the kernel needs the instructions.
  if (!__builtin_cpu_supports("avx512f"))
    GTEST_SKIP() << "this CPU has no AVX-512: the vectorized kernel cannot run";
  std::vector<ArgValue> want = rounding_inputs(), got = rounding_inputs();
  interpret(plain, want);
  CompiledLibrary lib({p}, "fma_vec", native());
  lib.call("fused", got);
  EXPECT_EQ(compare_args(plain, want, got), "");
  for (uint64_t seed : {1, 2, 3}) {
    RandomArgsOptions reals;
    reals.integer_valued = false;
    reals.lo = -1000;
    reals.hi = 1000;
    std::vector<ArgValue> w = random_args(plain, {{"n", 37}}, seed, reals), g = deep_copy(w);
    interpret(plain, w);
    lib.call("fused", g);
    EXPECT_EQ(compare_args(plain, w, g), "") << "seed " << seed;
  }
}

}  // namespace
}  // namespace exocpp
