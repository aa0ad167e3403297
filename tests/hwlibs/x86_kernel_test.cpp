// The x86 instructions in the shape the SGEMM schedule produces: a 6x16 register tile of C
// accumulating A[i, k] * B[k, 0:16] over k, its loads, FMAs and stores put in by replace_all,
// full-width and with a masked tail of n < 16 columns. Each result runs like the DRAM kernel,
// interpreted and (on a CPU with AVX-512) compiled.
#include <gtest/gtest.h>

#include "hwlibs/x86/x86.h"
#include "x86_harness.h"

namespace exocpp {
namespace {

// The micro-kernel with its staging buffers in memory MEM (DRAM: the reference; AVX512: what
// stage_mem + set_memory give, parsed without the type checker since plain code still touches
// the registers until replace has run).
std::string tile_kernel(const std::string& mem) {
  return R"(
def tile(K: size, A: f32[6, K] @ DRAM, B: f32[K, 16] @ DRAM, C: f32[6, 16] @ DRAM):
    C_reg: f32[6, 16] @ )" +
         mem + R"(
    for i in seq(0, 6):
        for j in seq(0, 16):
            C_reg[i, j] = C[i, j]
    for k in seq(0, K):
        B_reg: f32[16] @ )" +
         mem + R"(
        for j in seq(0, 16):
            B_reg[j] = B[k, j]
        for i in seq(0, 6):
            for j in seq(0, 16):
                C_reg[i, j] += A[i, k] * B_reg[j]
    for i in seq(0, 6):
        for j in seq(0, 16):
            C[i, j] = C_reg[i, j]
)";
}

// The same with only n < 16 valid columns (a tail tile): every lane loop guarded by `j < n`.
std::string tail_kernel(const std::string& mem) {
  return R"(
def tail(n: size, K: size, A: f32[6, K] @ DRAM, B: f32[K, n] @ DRAM, C: f32[6, n] @ DRAM):
    assert n < 16
    C_reg: f32[6, 16] @ )" +
         mem + R"(
    for i in seq(0, 6):
        for j in seq(0, 16):
            if j < n:
                C_reg[i, j] = C[i, j]
    for k in seq(0, K):
        B_reg: f32[16] @ )" +
         mem + R"(
        for j in seq(0, 16):
            if j < n:
                B_reg[j] = B[k, j]
        for i in seq(0, 6):
            for j in seq(0, 16):
                if j < n:
                    C_reg[i, j] += A[i, k] * B_reg[j]
    for i in seq(0, 6):
        for j in seq(0, 16):
            if j < n:
                C[i, j] = C_reg[i, j]
)";
}

Proc parse_kernel(const std::string& text, const std::string& name, bool typecheck) {
  x86::register_memories();
  ParseOptions opts;
  opts.typecheck = typecheck;
  return parse_module(text, opts).proc(name);
}

CompileOptions strict() { return {"cc", {"-O2", "-march=native", "-Wall", "-Wextra", "-Werror"}}; }

Proc replace_each(Proc p, const std::vector<const Proc*>& instrs) {
  for (const Proc* instr : instrs) p = replace_all(p, *instr);
  return p;
}

TEST(X86Kernels, RegisterTileBecomesLoadsBroadcastFmasAndStores) {
  Proc plain = parse_kernel(tile_kernel("DRAM"), "tile", true);
  Proc regs = parse_kernel(tile_kernel("AVX512"), "tile", false);
  Proc q = replace_each(regs, {&x86::mm512_loadu_ps.get(), &x86::mm512_fmadd_ps_broadcast.get(),
                               &x86::mm512_storeu_ps.get()});
  EXPECT_NO_THROW(typecheck(q)) << q;
  std::string text = to_string(q);
  EXPECT_NE(text.find("mm512_loadu_ps(C_reg[i, 0:16], C[i, 0:16])"), std::string::npos) << text;
  EXPECT_NE(text.find("mm512_loadu_ps(B_reg[0:16], B[k, 0:16])"), std::string::npos) << text;
  EXPECT_NE(text.find("mm512_fmadd_ps_broadcast(C_reg[i, 0:16], A[i, k:k + 1], B_reg[0:16])"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("mm512_storeu_ps(C[i, 0:16], C_reg[i, 0:16])"), std::string::npos) << text;
  EXPECT_EQ(compare_procs(plain, q, {{"K", 5}}), "");
  if (__builtin_cpu_supports("avx512f")) {
    EXPECT_EQ(compare_compiled_with_interpreter(q, {{"K", 5}}, 1, strict()), "");
  }
}

TEST(X86Kernels, TailTileUsesMaskedInstructions) {
  Proc plain = parse_kernel(tail_kernel("DRAM"), "tail", true);
  Proc regs = parse_kernel(tail_kernel("AVX512"), "tail", false);
  Proc q = replace_each(regs,
                        {&x86::mm512_mask_loadu_ps.get(), &x86::mm512_mask_fmadd_ps_broadcast.get(),
                         &x86::mm512_mask_storeu_ps.get()});
  EXPECT_NO_THROW(typecheck(q)) << q;
  std::string text = to_string(q);
  EXPECT_EQ(text.find("if j < n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("mm512_mask_fmadd_ps_broadcast(n, C_reg[i, 0:16], A[i, k:k + 1], B_reg[0:16])"),
      std::string::npos)
      << text;
  for (int64_t n = 1; n < 16; n += 7) {
    EXPECT_EQ(compare_procs(plain, q, {{"n", n}, {"K", 3}}), "");
    if (__builtin_cpu_supports("avx512f")) {
      EXPECT_EQ(compare_compiled_with_interpreter(q, {{"n", n}, {"K", 3}}, 1, strict()), "");
    }
  }
}

// One 32-lane strip of a uint16 3x3 box blur's vertical pass as Halide's apps/blur writes it
// (written registers are distinct: replace refuses a call whose written argument aliases another),
// three rows summed in wrapping u16 and divided by 3 as Halide lowers it, the high half of the
// product with 43691 (k[0]) shifted right by 1; its register staging in memory MEM.
std::string blur_strip(const std::string& mem) {
  std::string text = R"(
def blur_strip(a: ui16[32] @ DRAM, b: ui16[32] @ DRAM, c: ui16[32] @ DRAM, k: ui16[1] @ DRAM, out: ui16[32] @ DRAM):
    ra: ui16[32] @ MEM
    rb: ui16[32] @ MEM
    rc: ui16[32] @ MEM
    rk: ui16[32] @ MEM
    ab: ui16[32] @ MEM
    abc: ui16[32] @ MEM
    hi: ui16[32] @ MEM
    q: ui16[32] @ MEM
    for i in seq(0, 32):
        ra[i] = a[i]
    for i in seq(0, 32):
        rb[i] = b[i]
    for i in seq(0, 32):
        rc[i] = c[i]
    for i in seq(0, 32):
        ab[i] = ra[i] + rb[i]
    for i in seq(0, 32):
        abc[i] = ab[i] + rc[i]
    for i in seq(0, 32):
        rk[i] = k[0]
    for i in seq(0, 32):
        hi[i] = (abc[i] * (rk[i] / 256) + abc[i] * (rk[i] - rk[i] / 256 * 256) / 256) / 256
    for i in seq(0, 32):
        q[i] = hi[i] / 2
    for i in seq(0, 32):
        out[i] = q[i]
)";
  for (size_t at = text.find("MEM"); at != std::string::npos; at = text.find("MEM", at))
    text.replace(at, 3, mem);
  return text;
}

TEST(X86Kernels, U16BlurStripBecomesIntegerInstructions) {
  Proc plain = parse_kernel(blur_strip("DRAM"), "blur_strip", true);
  Proc regs = parse_kernel(blur_strip("AVX512"), "blur_strip", false);
  Proc q = replace_each(regs, {&x86::mm512_loadu_epi16.get(), &x86::mm512_add_epi16.get(),
                               &x86::mm512_set1_epi16.get(), &x86::mm512_mulhi_epu16.get(),
                               &x86::mm512_srli1_epi16.get(), &x86::mm512_storeu_epi16.get()});
  EXPECT_NO_THROW(typecheck(q)) << q;
  std::string text = to_string(q);
  EXPECT_EQ(text.find("for i in"), std::string::npos) << text;
  EXPECT_NE(text.find("mm512_add_epi16(abc[0:32], ab[0:32], rc[0:32])"), std::string::npos) << text;
  EXPECT_NE(text.find("mm512_mulhi_epu16(hi[0:32], abc[0:32], rk[0:32])"), std::string::npos)
      << text;
  // The magic number of a division by 3 and inputs whose sum wraps past 65535.
  std::vector<ArgValue> args = x86_test::limit_args(plain, {}, 7);
  std::get<Buffer>(args[3]).set({0}, 43691);
  std::vector<ArgValue> expected = deep_copy(args);
  interpret(plain, expected);
  std::vector<ArgValue> got = deep_copy(args);
  interpret(q, got);
  EXPECT_EQ(compare_args(plain, expected, got), "");
  const Buffer &a = std::get<Buffer>(args[0]), &b = std::get<Buffer>(args[1]),
               &c = std::get<Buffer>(args[2]), &out = std::get<Buffer>(got[4]);
  for (int64_t i = 0; i < 32; ++i) {
    const auto sum = static_cast<uint16_t>(a.get({i}) + b.get({i}) + c.get({i}));
    EXPECT_EQ(out.get({i}), sum / 3) << "lane " << i;
  }
  // Compiled, on the same inputs: the plain C of the DRAM kernel and (on a CPU with AVX512-BW)
  // the instructions both give the interpreter's result.
  std::vector<std::pair<Proc, std::string>> builds = {{plain, "blur_strip_plain"}};
  if (__builtin_cpu_supports("avx512bw")) builds.emplace_back(q, "blur_strip_avx512");
  for (const auto& [proc, lib_name] : builds) {
    CompiledLibrary lib({proc}, lib_name, strict());
    std::vector<ArgValue> compiled = deep_copy(args);
    lib.call(proc.name(), compiled);
    EXPECT_EQ(compare_args(plain, expected, compiled), "") << lib_name;
  }
}

// A call's written argument may not alias another: an in-place sum on registers stays a loop
// (write the sum to another register, as blur_strip does).
TEST(X86Kernels, InPlaceSumIsRefusedAsAliasing) {
  Proc p = parse_kernel(R"(
def acc(a: ui16[32] @ DRAM):
    ra: ui16[32] @ AVX512
    rb: ui16[32] @ AVX512
    for i in seq(0, 32):
        ra[i] = ra[i] + rb[i]
)",
                        "acc", false);
  SchedulingError e = x86_test::refusal(p, "for i in _: _", x86::mm512_add_epi16);
  EXPECT_EQ(e.op(), "replace");
  EXPECT_EQ(e.reason(),
            "'ra' would be passed for both 'out' and 'x' of 'mm512_add_epi16', and 'out' is "
            "written: arguments of a call may not alias a written one");
}

// A masked load must not zero the lanes it does not load: the zeroing variant's body says it
// does, so it does not unify with a guarded copy.
TEST(X86Kernels, ZeroMaskedLoadDoesNotReplaceAGuardedCopy) {
  Proc regs = parse_kernel(tail_kernel("AVX512"), "tail", false);
  SchedulingError e = x86_test::refusal(regs, "for j in _: _ #0", x86::mm512_maskz_loadu_ps);
  EXPECT_EQ(e.op(), "replace");
  EXPECT_EQ(e.reason(),
            "the block does not unify with the body of 'mm512_maskz_loadu_ps': the if `if j < n:` "
            "does not match `if i < N:` of 'mm512_maskz_loadu_ps': only one of them has an else "
            "branch");
}

// An instruction's asserts are proved at the call: a 16-lane masked store cannot take n = 17.
TEST(X86Kernels, MaskCountAboveTheWidthIsRefused) {
  Proc p = parse_kernel(R"(
def wide(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    assert n <= 17
    r: f32[16] @ AVX512
    for j in seq(0, 16):
        if j < n:
            x[j] = r[j]
)",
                        "wide", false);
  SchedulingError e = x86_test::refusal(p, "for j in _: _", x86::mm512_mask_storeu_ps);
  EXPECT_EQ(e.reason(),
            "requires that the assert `N <= 16` of 'mm512_mask_storeu_ps' holds at the call (as "
            "`n <= 16`), but `n <= 16` does not always hold");
  EXPECT_EQ(e.counterexample(), "n = 17");
}

// A register operand must be in registers: a DRAM buffer is refused, naming both memories.
TEST(X86Kernels, DramBufferIsNotARegisterOperand) {
  Proc p = parse_kernel(R"(
def copy(x: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for j in seq(0, 16):
        y[j] = x[j]
)",
                        "copy", true);
  SchedulingError e = x86_test::refusal(p, "for j in _: _", x86::mm512_loadu_ps);
  EXPECT_EQ(e.reason(),
            "the block does not unify with the body of 'mm512_loadu_ps': 'y' lives in DRAM but "
            "the argument 'dst' of 'mm512_loadu_ps' is declared @ AVX512");
}

}  // namespace
}  // namespace exocpp
