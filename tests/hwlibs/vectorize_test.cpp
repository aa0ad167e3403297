// vectorize with the x86 library: a loop becomes instructions in one call, and Halide's uint16
// blur (compute_and_store_at + vectorize) runs like the plain proc on inputs whose sums wrap,
// interpreted and compiled.
#include <gtest/gtest.h>

#include "hwlibs/x86/x86.h"
#include "support/halide_blur.h"
#include "x86_harness.h"

namespace exocpp {
namespace {

Proc parse_plain(const std::string& text, const std::string& name) {
  x86::register_memories();
  return parse_module(text).proc(name);
}

std::vector<Proc> procs(const std::vector<const x86::InstrRef*>& refs) {
  std::vector<Proc> out;
  for (const x86::InstrRef* r : refs) out.push_back(r->get());
  return out;
}

bool has(const Proc& p, const std::string& needle) {
  return to_string(p).find(needle) != std::string::npos;
}

CompileOptions native() { return {"cc", {"-O2", "-march=native", "-Wall", "-Wextra", "-Werror"}}; }

// The plain proc interpreted and the scheduled one compiled, on inputs at the limits of their
// precisions (x86_test::limit_args): "" when every argument agrees.
std::string compiled_matches_plain(const Proc& plain, const Proc& scheduled,
                                   const std::map<std::string, int64_t>& sizes, uint64_t seed) {
  std::vector<ArgValue> args = x86_test::limit_args(plain, sizes, seed);
  std::vector<ArgValue> expected = deep_copy(args), got = deep_copy(args);
  interpret(plain, expected);
  CompiledLibrary lib({scheduled}, scheduled.name() + "_vec", native());
  lib.call(scheduled.name(), got);
  return compare_args(plain, expected, got);
}

TEST(X86Vectorize, ElementwiseMathInOneCall) {
  Proc plain = parse_plain(R"(
def simple_math(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = x[i] * y[i] * y[i]
)",
                           "simple_math");
  Proc p = vectorize(plain, "i", 8, "AVX2",
                     procs({&x86::mm256_loadu_ps, &x86::mm256_storeu_ps, &x86::mm256_mul_ps}));
  EXPECT_NO_THROW(typecheck(p)) << p;
  EXPECT_EQ(to_string(p).find("in seq(0, 8):"), std::string::npos) << p;
  EXPECT_TRUE(has(p, "mm256_mul_ps(")) << p;
  for (int64_t n : {1, 8, 21}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}), "") << "n = " << n;
    if (__builtin_cpu_supports("avx2")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 1, native()), "");
    }
  }
}

// A literal operand is bound once before the loop into a one-element buffer that a broadcast
// reads: the vectorized proc computes what the plain one does, interpreted and compiled.
TEST(X86Vectorize, ALiteralOperandIsBroadcastFromAHoistedBuffer) {
  Proc plain = parse_plain(R"(
def scale_shift(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = x[i] * 1.5 + 0.25 * x[i]
)",
                           "scale_shift");
  Proc p = vectorize(plain, "i", 16, "AVX512",
                     procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_set1_ps,
                            &x86::mm512_mul_ps, &x86::mm512_add_ps}));
  EXPECT_NO_THROW(typecheck(p)) << p;
  EXPECT_TRUE(has(p, "mm512_set1_ps(")) << p;
  EXPECT_TRUE(has(p, "= 1.5\n")) << p;
  for (int64_t n : {1, 16, 37}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}), "") << "n = " << n;
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 2, native()), "") << "n = " << n;
    }
  }
}

// A parallel loop vectorized: its strips stay parallel iterations, and the literal is bound in
// each iteration of the parallel loop, outside the strip, never inside it.
TEST(X86Vectorize, ALiteralInAParallelLoopIsBoundOutsideTheStrip) {
  Proc plain = parse_plain(R"(
def scale(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in par(0, n):
        y[i] = x[i] * 1.5
)",
                           "scale");
  Proc p = vectorize(plain, "i", 16, "AVX512",
                     procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_set1_ps,
                            &x86::mm512_mul_ps}));
  EXPECT_TRUE(has(p, "for io in par(0, n / 16):")) << p;
  EXPECT_TRUE(has(p, "mm512_mul_ps(")) << p;
  // The binding is inside the parallel loop: each iteration (thread) has its own.
  const std::string text = to_string(p);
  EXPECT_GT(text.find("= 1.5\n"), text.find("for io in par")) << p;
  for (int64_t n : {1, 16, 40}) EXPECT_EQ(compare_procs(plain, p, {{"n", n}}), "") << n;
}

// A literal that no precision holds exactly (0.1) cannot be bound to a buffer without changing
// its value in some precision: vectorize refuses it, naming the literal and bind_expr's reason.
TEST(X86Vectorize, RefusesALiteralNoBufferHoldsExactly) {
  Proc plain = parse_plain(R"(
def scale(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = x[i] * 0.1
)",
                           "scale");
  try {
    vectorize(plain, "i", 16, "AVX512",
              procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_set1_ps,
                     &x86::mm512_mul_ps}));
    ADD_FAILURE() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "vectorize") << e.what();
    EXPECT_NE(std::string(e.what()).find("the literal '0.1'"), std::string::npos) << e.what();
  }
}

// A reduction into a register (`acc += a[i] * b[i]` with acc a local): the product goes to a
// register of its own and the sum into the accumulator with reduce_add_wide, in order.
// `Y[.., j] += e` into memory: no instruction adds into memory, so the lanes it touches are
// staged in a register (a load, the reduction into the register, a store); the loop-invariant
// A[i, k] is broadcast.
TEST(X86Vectorize, AReductionIntoMemoryIsStagedInARegister) {
  Proc plain = parse_plain(R"(
def rows(n: size, A: f32[n, 8] @ DRAM, X: f32[8, 32] @ DRAM, Y: f32[n, 32] @ DRAM):
    for i in seq(0, n):
        for k in seq(0, 8):
            for j in seq(0, 32):
                Y[i, j] += A[i, k] * X[k, j]
)",
                           "rows");
  Proc p = vectorize(plain, "j", 16, "AVX512",
                     procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_mul_ps,
                            &x86::mm512_set1_ps, &x86::mm512_reduce_add_wide_ps}));
  EXPECT_TRUE(has(p, "mm512_reduce_add_wide_ps(acc")) << p;
  EXPECT_TRUE(has(p, "mm512_storeu_ps(Y[i, 16 * jo:16 * jo + 16]")) << p;
  CompareProcsOptions reals;
  reals.inputs.integer_valued = false;
  reals.inputs.lo = -1000;
  reals.inputs.hi = 1000;
  for (int64_t n : {1, 3}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}, 1, reals), "") << "n = " << n;
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 4, native()), "") << "n = " << n;
      EXPECT_EQ(compiled_matches_plain(plain, p, {{"n", n}}, 5), "") << "n = " << n;
    }
  }
}

TEST(X86Vectorize, AReductionIntoARegisterUsesReduceAddWide) {
  Proc plain = parse_plain(R"(
def muladd(n: size, a: f32[n] @ DRAM, b: f32[n] @ DRAM, c: f32[n] @ DRAM):
    for i in seq(0, n):
        acc: f32 @ DRAM
        acc = c[i]
        acc += a[i] * b[i]
        c[i] = acc
)",
                           "muladd");
  Proc p = vectorize(plain, "i", 16, "AVX512",
                     procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_mul_ps,
                            &x86::mm512_reduce_add_wide_ps}));
  EXPECT_NO_THROW(typecheck(p)) << p;
  EXPECT_TRUE(has(p, "mm512_reduce_add_wide_ps(acc")) << p;
  CompareProcsOptions reals;
  reals.inputs.integer_valued = false;
  reals.inputs.lo = -1000;
  reals.inputs.hi = 1000;
  for (int64_t n : {1, 16, 35}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}, 1, reals), "") << "n = " << n;
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 4, native()), "") << "n = " << n;
    }
  }
}

// `acc += a[i] * b[i]` into a register: with a multiply-add in the list, its factors go to
// registers and the strip is one multiply-add, before the product would be bound whole.
TEST(X86Vectorize, AReductionOfAProductIntoARegisterUsesAMultiplyAdd) {
  Proc plain = parse_plain(R"(
def muladd(n: size, a: f32[n] @ DRAM, b: f32[n] @ DRAM, c: f32[n] @ DRAM):
    for i in seq(0, n):
        acc: f32 @ DRAM
        acc = c[i]
        acc += a[i] * b[i]
        c[i] = acc
)",
                           "muladd");
  Proc p = vectorize(plain, "i", 16, "AVX512",
                     procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_mul_ps,
                            &x86::mm512_reduce_add_wide_ps, &x86::mm512_fmadd_ps}));
  EXPECT_TRUE(has(p, "mm512_fmadd_ps(")) << p;
  EXPECT_FALSE(has(p, "mm512_mul_ps(")) << p;
  for (int64_t n : {1, 16, 35}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}, 1), "") << "n = " << n;
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 4, native()), "") << "n = " << n;
    }
  }
}

// `y[i] += alpha * x[i]` into memory: staged in a register first, so that the multiply-add (with
// alpha broadcast) takes the staged reduction.
TEST(X86Vectorize, AReductionOfAProductIntoMemoryIsStagedForAMultiplyAdd) {
  Proc plain = parse_plain(R"(
def axpy(n: size, alpha: f32 @ DRAM, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] += alpha * x[i]
)",
                           "axpy");
  Proc p = vectorize(
      plain, "i", 16, "AVX512",
      procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_mul_ps,
             &x86::mm512_reduce_add_wide_ps, &x86::mm512_fmadd_ps, &x86::mm512_set1_scalar_ps}));
  EXPECT_TRUE(has(p, "mm512_fmadd_ps(")) << p;
  EXPECT_TRUE(has(p, "mm512_storeu_ps(y[16 * io:16 * io + 16]")) << p;
  for (int64_t n : {1, 16, 35}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}, 1), "") << "n = " << n;
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 4, native()), "") << "n = " << n;
    }
  }
}

// A reduction whose lanes run down the first index (`A[i + 1, 0] += x[i] * x[0]`, as in a column
// of a column-major window; here a tensor whose rows are one element, so that its first stride
// is 1): the lanes of that dimension are staged in a register.
TEST(X86Vectorize, AReductionAlongTheFirstIndexIsStaged) {
  Proc plain = parse_plain(R"(
def column(m: size, x: f32[m] @ DRAM, A: f32[m + 1, 1] @ DRAM):
    for i in seq(0, m):
        A[i + 1, 0] += x[i] * x[0]
)",
                           "column");
  Proc p = vectorize(plain, "i", 16, "AVX512",
                     procs({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_fmadd_ps,
                            &x86::mm512_set1_scalar_ps}));
  EXPECT_TRUE(has(p, "mm512_storeu_ps(A[16 * io + 1:16 * io + 17, 0]")) << p;
  for (int64_t m : {1, 17, 40}) {
    EXPECT_EQ(compare_procs(plain, p, {{"m", m}}, 1), "") << "m = " << m;
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"m", m}}, 4, native()), "") << "m = " << m;
    }
  }
}

// A body of several statements that one instruction computes whole becomes that instruction,
// before the body is split into a strip per statement (the list has nothing for either alone).
TEST(X86Vectorize, ABodyOneInstructionComputesWholeBecomesIt) {
  Proc plain = parse_plain(R"(
def squares(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        t: f32 @ DRAM
        t = x[i]
        y[i] = t * t
)",
                           "squares");
  Proc whole = parse_plain(R"(
@instr("{t_data} = _mm512_loadu_ps(&{x_data}); _mm512_storeu_ps(&{y_data}, _mm512_mul_ps({t_data}, {t_data}));", c_global="#include <immintrin.h>")
def load_square_store(t: [f32][16] @ AVX512, x: [f32][16] @ DRAM, y: [f32][16] @ DRAM):
    assert stride(t, 0) == 1
    assert stride(x, 0) == 1
    assert stride(y, 0) == 1
    for i in seq(0, 16):
        t[i] = x[i]
        y[i] = t[i] * t[i]
)",
                           "load_square_store");
  Proc p = vectorize(plain, "i", 16, "AVX512", {whole});
  EXPECT_TRUE(has(p, "load_square_store(t[0:16], x[16 * io:16 * io + 16]")) << p;
  for (int64_t n : {1, 16, 35}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}, 1), "") << "n = " << n;
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 4, native()), "") << "n = " << n;
    }
  }
}

// A reduction into memory that no instruction takes is refused, naming the statement.
TEST(X86Vectorize, RefusesAReductionIntoMemoryNoInstructionTakes) {
  Proc plain = parse_plain(R"(
def accumulate(n: size, a: f32[n] @ DRAM, c: f32[n] @ DRAM):
    for i in seq(0, n):
        c[i] += a[i]
)",
                           "accumulate");
  try {
    vectorize(plain, "i", 16, "AVX512",
              procs({&x86::mm512_loadu_ps, &x86::mm512_reduce_add_wide_ps}));
    ADD_FAILURE() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "vectorize") << e.what();
    EXPECT_NE(std::string(e.what()).find("no instruction in the list computes"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("c["), std::string::npos) << e.what();
  }
}

const char* const kBlur = exocpp::testing::kHalideBlurU16;

// Strips of 8 rows, the horizontal pass computed per strip, both passes in `lanes`-lane
// registers of `mem` with the instructions of `ins`.
Proc schedule_blur(const Proc& plain, int lanes, const std::string& mem,
                   const std::vector<Proc>& ins) {
  Proc p = divide_loop(plain, "for y in _: _ #1", 8, {"yo", "yi"}, {.tail = Tail::Cut});
  p = compute_and_store_at(p, "for y in _: _ #0", {"for yo in _: _", "for yi in _: _ #1"});
  p = vectorize(p, "for i1 in _: _", lanes, mem, ins);
  return vectorize(p, "for x in _: _", lanes, mem, ins);
}

TEST(X86Vectorize, Uint16BlurWithAvx2) {
  Proc plain = parse_plain(kBlur, "blur");
  Proc p = schedule_blur(plain, 16, "AVX2",
                         procs({&x86::mm256_loadu_epi16, &x86::mm256_storeu_epi16,
                                &x86::mm256_add_epi16, &x86::mm256_div3_epu16}));
  EXPECT_NO_THROW(typecheck(p)) << p;
  EXPECT_TRUE(has(p, "mm256_div3_epu16(")) << p;
  for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {9, 16}, {17, 35}}) {
    EXPECT_EQ(compare_procs(plain, p, {{"H", h}, {"W", w}}), "") << h << "x" << w;
    if (__builtin_cpu_supports("avx2")) {
      EXPECT_EQ(compiled_matches_plain(plain, p, {{"H", h}, {"W", w}}, 3), "") << h << "x" << w;
    }
  }
}

TEST(X86Vectorize, Uint16BlurWithAvx512) {
  Proc plain = parse_plain(kBlur, "blur");
  Proc p = schedule_blur(plain, 32, "AVX512",
                         procs({&x86::mm512_loadu_epi16, &x86::mm512_storeu_epi16,
                                &x86::mm512_add_epi16, &x86::mm512_div3_epu16}));
  EXPECT_TRUE(has(p, "mm512_add_epi16(")) << p;
  EXPECT_EQ(compare_procs(plain, p, {{"H", 10}, {"W", 40}}), "");
  if (__builtin_cpu_supports("avx512bw")) {
    for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {8, 32}, {19, 70}}) {
      EXPECT_EQ(compiled_matches_plain(plain, p, {{"H", h}, {"W", w}}, 5), "") << h << "x" << w;
    }
  }
}

// No instruction in the list divides: the strip computing `sx / 3` is refused by name.
TEST(X86Vectorize, RefusesAStripNoInstructionFits) {
  Proc plain = parse_plain(kBlur, "blur");
  try {
    vectorize(plain, "for x in _: _ #0", 16, "AVX2",
              procs({&x86::mm256_loadu_epi16, &x86::mm256_storeu_epi16, &x86::mm256_add_epi16}));
    ADD_FAILURE() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "vectorize") << e.what();
    EXPECT_NE(std::string(e.what()).find("no instruction in the list computes"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("/ 3"), std::string::npos) << e.what();
  }
}

TEST(X86Vectorize, RefusesAWidthBelowOne) {
  Proc plain = parse_plain(kBlur, "blur");
  try {
    vectorize(plain, "for x in _: _ #0", 0, "AVX2", procs({&x86::mm256_add_epi16}));
    ADD_FAILURE() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find("width must be positive"), std::string::npos) << e.what();
  }
}

// mm512_div3_epu16 (a multiply-high by 43691 and a shift) against the division on every one of
// the 65536 uint16 values, compiled.
TEST(X86Vectorize, Div3IsExactOnEverySixteenBitValue) {
  if (!__builtin_cpu_supports("avx512bw")) GTEST_SKIP() << "this CPU has no AVX-512 BW";
  Proc plain = parse_plain(R"(
def d3(x: ui16[65536] @ DRAM, y: ui16[65536] @ DRAM):
    for i in seq(0, 65536):
        y[i] = x[i] / 3
)",
                           "d3");
  Proc p =
      vectorize(plain, "i", 32, "AVX512",
                procs({&x86::mm512_loadu_epi16, &x86::mm512_storeu_epi16, &x86::mm512_div3_epu16}));
  EXPECT_TRUE(has(p, "mm512_div3_epu16(")) << p;
  std::vector<ArgValue> args = random_args(p, {}, 1);
  Buffer& x = std::get<Buffer>(args[0]);
  for (int64_t v = 0; v < 65536; ++v) x.set({v}, double(v));
  CompiledLibrary lib({p}, "div3_all", native());
  lib.call("d3", args);
  const Buffer& y = std::get<Buffer>(args[1]);
  int64_t wrong = 0;
  for (int64_t v = 0; v < 65536; ++v) wrong += y.get({v}) != double(v / 3);
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace exocpp
