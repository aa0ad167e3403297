// The AVX2, AVX512 and DRAM_ALIGNED memories (hwlibs/x86/memories.cpp): the C they emit for
// allocation, freeing and windows, and the CodegenErrors for shapes and windows a register cannot
// hold.
#include <gtest/gtest.h>

#include "hwlibs/x86/x86.h"

namespace exocpp {
namespace {

SrcInfo here() {
  auto f = std::make_shared<SourceFile>(SourceFile{"k.exo", "    r: f32[4, 8] @ AVX512\n"});
  return SrcInfo{f, 1, 5};
}

// The CodegenError `f` throws, with its location checked; fails the test if none is thrown.
template <class F>
std::string codegen_error(F f) {
  try {
    f();
  } catch (const CodegenError& e) {
    EXPECT_EQ(e.loc().to_string(), "k.exo:1:5");
    return e.reason();
  }
  ADD_FAILURE() << "expected a CodegenError";
  return "";
}

TEST(X86Memories, RegistersAreForInstructionsOnly) {
  EXPECT_FALSE(x86::AVX512.get().can_read());
  EXPECT_FALSE(x86::AVX2.get().can_read());
  EXPECT_FALSE(x86::AVX512.get().addressable());
}

TEST(X86Memories, GlobalIncludesIntrinsics) {
  EXPECT_EQ(x86::AVX512.get().global(), "#include <immintrin.h>");
  EXPECT_EQ(x86::AVX2.get().global(), "#include <immintrin.h>");
}

TEST(X86Memories, AllocDeclaresAZeroedRegisterArray) {
  const Memory& m = x86::AVX512;
  EXPECT_EQ(m.alloc("C_reg", "float", {"6", "4", "16"}, here()), "__m512 C_reg[6][4] = {0};");
  EXPECT_EQ(m.alloc("r", "float", {"16"}, here()), "__m512 r = {0};");
  EXPECT_EQ(m.alloc("d", "double", {"3", "(8)"}, here()), "__m512d d[3] = {0};");
  const Memory& m2 = x86::AVX2;
  EXPECT_EQ(m2.alloc("r", "float", {"2", "8"}, here()), "__m256 r[2] = {0};");
  EXPECT_EQ(m2.alloc("d", "double", {"4"}, here()), "__m256d d = {0};");
}

TEST(X86Memories, FreeEmitsNothing) {
  EXPECT_EQ(x86::AVX512.get().free("r", "float", {"16"}, here()), "");
}

TEST(X86Memories, AllocRefusesALastDimensionOtherThanTheWidth) {
  EXPECT_EQ(codegen_error([] {
              x86::AVX512.get().alloc("r", "float", {"4", "8"}, here());
            }),
            "cannot allocate 'r' of shape [4, 8] in AVX512: the last dimension must be the "
            "register width, 16 for f32");
  EXPECT_EQ(codegen_error([] { x86::AVX2.get().alloc("r", "double", {"8"}, here()); }),
            "cannot allocate 'r' of shape [8] in AVX2: the last dimension must be the register "
            "width, 4 for f64");
  EXPECT_EQ(codegen_error([] { x86::AVX512.get().alloc("r", "float", {"N"}, here()); }),
            "cannot allocate 'r' of shape [N] in AVX512: the last dimension must be the "
            "register width, 16 for f32");
}

TEST(X86Memories, AllocRefusesAScalar) {
  EXPECT_EQ(codegen_error([] { x86::AVX512.get().alloc("s", "float", {}, here()); }),
            "cannot allocate scalar 's' in AVX512: a register holds 16 f32 (__m512); declare it "
            "as f32[16] (or [..., 16] for several registers)");
}

TEST(X86Memories, AllocRefusesOtherElementTypes) {
  EXPECT_EQ(codegen_error([] { x86::AVX512.get().alloc("r", "exo_f16", {"32"}, here()); }),
            "cannot allocate 'r' of C type exo_f16 in AVX512: its registers hold f32 (__m512), "
            "f64 (__m512d) or integer (__m512i) vectors");
}

// Integer registers are __m512i whatever the lane width: 16 i32, 64 i8.
TEST(X86Memories, IntegerRegistersAreM512iOfTheirLaneCount) {
  EXPECT_EQ(x86::AVX512.get().alloc("acc", "int32_t", {"6", "16"}, here()),
            "__m512i acc[6] = {0};");
  EXPECT_EQ(x86::AVX512.get().alloc("bytes", "int8_t", {"64"}, here()), "__m512i bytes = {0};");
  EXPECT_NE(codegen_error([] { x86::AVX512.get().alloc("acc", "int32_t", {"8"}, here()); }), "");
}

TEST(X86Memories, WindowSelectsTheRegisterDroppingTheLaneIndex) {
  const Memory& m = x86::AVX512;
  EXPECT_EQ(m.window("__m512", "C_reg", {"i", "j + 1", "0"}, {"64", "16", "1"}, here()),
            "C_reg[i][j + 1]");
  EXPECT_EQ(m.window("__m512", "r", {"0"}, {"1"}, here()), "r");
  EXPECT_EQ(m.window("__m512", "r", {"k", "( 0 )"}, {"16", "(1)"}, here()), "r[k]");
}

TEST(X86Memories, WindowRefusesAPartialRegister) {
  EXPECT_EQ(codegen_error([] {
              x86::AVX512.get().window("__m512", "r", {"k", "i + 1"}, {"16", "1"}, here());
            }),
            "a window of 'r' in AVX512 must start at lane 0 of a register, but its last index "
            "is i + 1");
}

TEST(X86Memories, WindowRefusesAStridedLaneDimension) {
  EXPECT_EQ(codegen_error([] {
              x86::AVX2.get().window("__m256", "r", {"k", "0"}, {"1", "8"}, here());
            }),
            "a window of 'r' in AVX2 must have unit stride in its last dimension, but it is 8");
}

// DRAM_ALIGNED: plain host arrays on a 64-byte boundary, passed where DRAM is declared.
TEST(X86Memories, AlignedDramPassesAsDramAndAllocatesOnACacheLine) {
  const Memory& m = x86::DRAM_ALIGNED.get();
  EXPECT_TRUE(m.can_read());
  EXPECT_TRUE(m.passes_as_dram());
  EXPECT_NE(m.alloc("t", "float", {"N", "16"}, here()).find("exo_aligned64_alloc((N) * (16) *"),
            std::string::npos);
  EXPECT_EQ(m.free("t", "float", {"N", "16"}, here()), "exo_aligned64_free(t);");
}

// A DRAM_ALIGNED buffer feeds a register through replace (the load declares its source @ DRAM),
// and the compiled proc computes what the interpreter does.
TEST(X86Memories, AlignedDramBufferFeedsInstructionsAndRuns) {
  x86::register_memories();
  Proc p = parse_module(R"(
def copy2(N: size, x: f32[N, 16] @ DRAM, y: f32[N, 16] @ DRAM):
    t: f32[N, 16] @ DRAM_ALIGNED
    for i in seq(0, N):
        for j in seq(0, 16):
            t[i, j] = x[i, j] * 2.0
    for i in seq(0, N):
        r: f32[16] @ DRAM
        for j in seq(0, 16):
            r[j] = t[i, j]
        for j in seq(0, 16):
            y[i, j] = r[j]
)")
               .proc("copy2");
  Proc q = set_memory(p, "r", "AVX512");
  q = replace_all(q, x86::mm512_loadu_ps.get());
  q = replace_all(q, x86::mm512_storeu_ps.get());
  EXPECT_NE(to_string(q).find("mm512_loadu_ps(r[0:16], t[i, 0:16])"), std::string::npos) << q;
  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "this CPU has no AVX-512F";
  CompileOptions native{"cc", {"-O2", "-march=native", "-Wall", "-Wextra", "-Werror"}};
  for (int64_t n : {1, 3, 17})
    EXPECT_EQ(compare_compiled_with_interpreter(q, {{"N", n}}, 2, native), "");
}

}  // namespace
}  // namespace exocpp
