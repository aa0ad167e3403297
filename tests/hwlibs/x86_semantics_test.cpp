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

}  // namespace
}  // namespace exocpp
