// The x86 instructions with a condition on data lanes (select_gt, max_update, add_if_gt, the
// argmax's update and fold, and abs; f32 and f64; AVX-512 and AVX2): compiled, each computes what
// its body computes in the interpreter, bit for bit, on the lanes where the condition's outcome is
// decided by NaN, ±0, ±inf and ties.
#include <gtest/gtest.h>

#include <cmath>

#include "x86_harness.h"

namespace exocpp {
namespace {

class X86DataConditions : public ::testing::TestWithParam<std::string> {};

// Special values, lane by lane: every pair of them meets in some lane of two operands.
double special(int64_t lane, int operand) {
  static const double kValues[] = {NAN, 0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, 2.5};
  const int64_t n = std::size(kValues);
  return kValues[(lane + operand * (lane / n + 1)) % n];
}

TEST_P(X86DataConditions, CompiledMatchesTheBodyOnNaNZerosInfinitiesAndTies) {
  const Proc& instr = x86::InstrRef(GetParam().c_str()).get();
  const bool avx512 = instr.name().rfind("mm512", 0) == 0;
  if (!(avx512 ? __builtin_cpu_supports("avx512f") : __builtin_cpu_supports("avx2")))
    GTEST_SKIP() << "this CPU has no " << (avx512 ? "AVX-512F" : "AVX2")
                 << ": the instruction cannot run here";
  x86_test::Wrapped w = x86_test::wrap(instr);
  CompiledLibrary lib({w.wrapper}, "x86dc_" + instr.name(),
                      CompileOptions{"cc", {"-O2", "-march=native"}});
  for (int shift = 0; shift < 8; ++shift) {
    std::vector<ArgValue> args = random_args(w.wrapper, {}, 1);
    int operand = shift;
    for (ArgValue& v : args)
      if (Buffer* b = std::get_if<Buffer>(&v); b && is_float(b->kind())) {
        ++operand;
        for (int64_t i = 0; i < b->num_elements(); ++i) b->set_flat(i, special(i, operand));
      }
    std::vector<ArgValue> compiled = deep_copy(args);
    interpret(w.wrapper, args);
    lib.call(w.wrapper.name(), compiled);
    EXPECT_EQ(compare_args(w.wrapper, args, compiled, {.nan_equal = true, .signed_zeros = true}),
              "")
        << "operand shift " << shift;
  }
}

INSTANTIATE_TEST_SUITE_P(
    ConditionOnLanes, X86DataConditions,
    ::testing::Values("mm512_select_gt_ps", "mm512_max_update_ps", "mm512_add_if_gt_ps",
                      "mm512_select_gt_pd", "mm512_max_update_pd", "mm512_add_if_gt_pd",
                      "mm256_select_gt_ps", "mm256_max_update_ps", "mm256_add_if_gt_ps",
                      "mm256_select_gt_pd", "mm256_max_update_pd", "mm256_add_if_gt_pd",
                      "mm512_reduce_argmax_ps", "mm512_reduce_argmax_pd", "mm512_argmax_update_ps",
                      "mm512_argmax_update_pd", "mm512_abs_ps", "mm512_abs_pd",
                      "mm512_reduce_add_ps", "mm512_reduce_add_pd"),
    [](const auto& info) { return info.param; });

}  // namespace
}  // namespace exocpp
