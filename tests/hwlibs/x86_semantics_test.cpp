// Every x86 instruction's body means what its name says: its wrapper (x86_harness.h), run by
// the reference interpreter on random inputs, matches the operation computed in plain C++
// from the instruction's name, for every mask count N of the masked ones.
#include <gtest/gtest.h>

#include "x86_harness.h"

namespace exocpp {
namespace {

class X86Semantics : public ::testing::TestWithParam<std::string> {};

TEST_P(X86Semantics, BodyMatchesTheNamedOperation) {
  const Proc& instr = x86::InstrRef(GetParam().c_str()).get();
  for (const auto& sizes : x86_test::size_cases(instr))
    for (uint64_t seed = 1; seed <= 2; ++seed)
      EXPECT_EQ(x86_test::check_against_reference(instr, sizes, seed), "")
          << "N = " << (sizes.empty() ? 0 : sizes.begin()->second) << ", seed " << seed;
}

INSTANTIATE_TEST_SUITE_P(AllInstructions, X86Semantics,
                         ::testing::ValuesIn(x86::instruction_names()),
                         [](const auto& info) { return info.param; });

// The check above can fail: an instruction whose body is off by one lane is caught.
TEST(X86SemanticsHarness, CatchesABodyThatDiffersFromItsName) {
  x86::register_memories();
  Proc wrong = parse_module(R"(
@instr("{dst_data} = _mm512_loadu_ps(&{src_data});")
def mm512_loadu_ps(dst: [f32][16] @ AVX512, src: [f32][16] @ DRAM):
    for i in seq(0, 16):
        dst[i] = src[i] + 1.0
)")
                   .proc("mm512_loadu_ps");
  std::string diff = x86_test::check_against_reference(wrong, {}, 1);
  EXPECT_NE(diff.find("differs"), std::string::npos) << diff;
}

TEST(X86SemanticsHarness, CatchesAMaskedBodyThatZeroesTheOtherLanes) {
  x86::register_memories();
  Proc wrong = parse_module(R"(
@instr("{dst_data} = _mm512_mask_loadu_ps({dst_data}, ((1 << ({N})) - 1), &{src_data});")
def mm512_mask_loadu_ps(N: size, dst: [f32][16] @ AVX512, src: [f32][N] @ DRAM):
    assert N <= 16
    for i in seq(0, N):
        dst[i] = src[i]
    for i in seq(N, 16):
        dst[i] = 0.0
)")
                   .proc("mm512_mask_loadu_ps");
  std::string diff = x86_test::check_against_reference(wrong, {{"N", 3}}, 1);
  EXPECT_NE(diff.find("differs"), std::string::npos) << diff;
}

TEST(X86SemanticsHarness, MeaningIsReadFromTheName) {
  x86_test::InstrMeaning m = x86_test::meaning_of("mm512_maskz_loadu_pd");
  EXPECT_EQ(m.op, "loadu");
  EXPECT_TRUE(m.masked);
  EXPECT_TRUE(m.zero);
  EXPECT_EQ(m.width, 8);
  EXPECT_EQ(m.elem, ScalarKind::F64);
  m = x86_test::meaning_of("mm256_broadcast_ss");
  EXPECT_EQ(m.op, "set1");
  EXPECT_EQ(m.width, 8);
  EXPECT_THROW(x86_test::meaning_of("mm512_frobnicate_ps"), std::invalid_argument);
}

TEST(X86SemanticsHarness, IntegerLanesAndConversionsAreReadFromTheName) {
  x86_test::InstrMeaning m = x86_test::meaning_of("mm512_mulhi_epu16");
  EXPECT_EQ(m.op, "mulhi");
  EXPECT_EQ(m.width, 32);
  EXPECT_EQ(m.elem, ScalarKind::UI16);
  m = x86_test::meaning_of("mm512_avg_epu8");
  EXPECT_EQ(m.op, "avg");
  EXPECT_EQ(m.width, 64);
  EXPECT_EQ(m.elem, ScalarKind::UI8);
  m = x86_test::meaning_of("mm512_cvtusepi32_epi16");
  EXPECT_EQ(m.op, "cvtus");
  EXPECT_EQ(m.width, 16);
  EXPECT_EQ(m.elem, ScalarKind::UI16);
  EXPECT_EQ(m.src_elem, ScalarKind::I32);
  m = x86_test::meaning_of("mm512_cvtepu8_epi16");
  EXPECT_EQ(m.op, "cvt");
  EXPECT_EQ(m.width, 32);
  EXPECT_EQ(m.elem, ScalarKind::UI16);
  EXPECT_EQ(m.src_elem, ScalarKind::UI8);
}

// The integer inputs reach the limits: a product of two ui16 past 2^31 wraps negative in 32-bit
// int, where `/` truncates toward zero, so `x * y / 65536` is not the high half of the product
// (65535 * 65535 gives 2, not 65534). Small random integers would never show it.
TEST(X86SemanticsHarness, CatchesAMulhiThatDividesTheWrappedProduct) {
  x86::register_memories();
  Proc wrong = parse_module(R"(
@instr("{out_data} = _mm512_mulhi_epu16({x_data}, {y_data});")
def mm512_mulhi_epu16(out: [ui16][32] @ AVX512, x: [ui16][32] @ AVX512, y: [ui16][32] @ AVX512):
    for i in seq(0, 32):
        out[i] = x[i] * y[i] / 65536
)")
                   .proc("mm512_mulhi_epu16");
  std::string diff = x86_test::check_against_reference(wrong, {}, 1);
  EXPECT_NE(diff.find("differs"), std::string::npos) << diff;
}

// vpmovusdw saturates a negative i32 to 65535 (it reads the lane as unsigned): a body that
// clamps it to 0 is caught.
TEST(X86SemanticsHarness, CatchesASaturationThatClampsNegativesToZero) {
  x86::register_memories();
  Proc wrong = parse_module(R"(
@instr("_mm256_storeu_si256((__m256i *)&{dst_data}, _mm512_cvtusepi32_epi16({src_data}));")
def mm512_cvtusepi32_epi16(dst: [ui16][16] @ DRAM, src: [i32][16] @ AVX512):
    for i in seq(0, 16):
        dst[i] = select(src[i], 0, 0, select(src[i], 65535, src[i], 65535))
)")
                   .proc("mm512_cvtusepi32_epi16");
  std::string diff = x86_test::check_against_reference(wrong, {}, 1);
  EXPECT_NE(diff.find("differs"), std::string::npos) << diff;
}

}  // namespace
}  // namespace exocpp
