// The Gemmini matmul schedule (examples/gemmini): the scheduled proc, emitted as C and run on the
// functional model, matches the plain proc byte for byte; configuration is written once; the
// instruction counts are those of the plan.
#include "gemmini_schedule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gemmini_model.h"
#include "hwlibs/gemmini/gemmini.h"

namespace exocpp {
namespace {

// Validation mode (this suite's EXOCPP_VALIDATE=1) cannot compare these steps: the smallest
// sizes the proc accepts (64 x 64 x 64) run past its interpreter step limit, so every trial is
// skipped after seconds of work. It is off here; the checker proves each step, and the tests
// below compare the final proc with the plain one.
const Proc& scheduled() {
  static const Proc p = [] {
    ValidationScope off(false);
    return gemmini_example::schedule_matmul();
  }();
  return p;
}

std::vector<ArgValue> matmul_args(const std::map<std::string, int64_t>& sizes, bool act,
                                  double scale, uint64_t seed) {
  std::vector<ArgValue> args =
      random_args(gemmini_example::plain_matmul(), sizes, seed, {.lo = -128, .hi = 127});
  std::get<Buffer>(args[3]).set_flat(0, scale);  // (N, M, K, scale, act, A, B, C)
  args[4] = act;
  return args;
}

// The plain proc in the interpreter against the scheduled one as C on the model.
std::string plain_vs_model(const std::map<std::string, int64_t>& sizes, bool act, double scale) {
  std::vector<ArgValue> want = matmul_args(sizes, act, scale, 7), got = deep_copy(want);
  interpret(gemmini_example::plain_matmul(), want);
  CompiledLibrary lib({scheduled()}, "gemmini_matmul", gemmini::model_compile_options());
  lib.call("matmul", got);
  return compare_buffers(std::get<Buffer>(got[7]), std::get<Buffer>(want[7]), "C");
}

TEST(GemminiMatmul, ScheduledKernelOnTheModelMatchesThePlainProcWithRelu) {
  EXPECT_EQ(plain_vs_model({{"N", 64}, {"M", 64}, {"K", 64}}, true, 1.0 / 256), "");
}

TEST(GemminiMatmul, ScheduledKernelOnTheModelMatchesThePlainProcWithoutRelu) {
  EXPECT_EQ(plain_vs_model({{"N", 128}, {"M", 192}, {"K", 64}}, false, 1.0 / 512), "");
}

TEST(GemminiMatmul, SaturatingScalesAgreeToo) {
  EXPECT_EQ(plain_vs_model({{"N", 64}, {"M", 64}, {"K", 128}}, false, 3.0), "");
  EXPECT_EQ(plain_vs_model({{"N", 64}, {"M", 64}, {"K", 128}}, true, -0.5), "");
}

TEST(GemminiMatmul, ConfigurationIsWrittenOnceBeforeTheLoops) {
  int config_calls = 0, loops_before = 0;
  for (const Stmt& s : scheduled().body()) {
    if (const CallNode* c = s.as<CallNode>()) {
      EXPECT_EQ(c->proc->name.rfind("config_", 0), 0u) << c->proc->name;
      EXPECT_EQ(loops_before, 0) << "a config call after a loop";
      ++config_calls;
    }
    if (s.is<ForNode>()) ++loops_before;
  }
  EXPECT_EQ(config_calls, 4);
}

TEST(GemminiMatmul, InstructionCountsFollowThePlan) {
  const int64_t N = 128, M = 192, K = 128;
  std::vector<ArgValue> args = matmul_args({{"N", N}, {"M", M}, {"K", K}}, true, 0.01, 3);
  CompiledLibrary lib({scheduled()}, "gemmini_counts", gemmini::model_compile_options());
  reinterpret_cast<void (*)()>(lib.symbol("gemmini_reset"))();
  lib.call("matmul", args);
  const gemmini_counters& c =
      *reinterpret_cast<const gemmini_counters* (*)()>(lib.symbol("gemmini_get_counters"))();
  const uint64_t tiles = (N / 16) * (M / 16);
  // A: one 4-block load per 16 rows and 64 columns; B: a K x 64 panel per 64-row block of A.
  const uint64_t a_loads = (N / 16) * (K / 64), b_loads = (N / 64) * (M / 64) * (K / 16);
  EXPECT_EQ(c.mvin, a_loads + b_loads + tiles);
  EXPECT_EQ(c.mvin_zero, tiles);
  EXPECT_EQ(c.mvout, tiles);
  EXPECT_EQ(c.compute, tiles * (K / 16));
  EXPECT_EQ(c.preload, tiles * (K / 16));
  EXPECT_EQ(c.macs, static_cast<uint64_t>(N * M * K));
  EXPECT_EQ(c.config_ld + c.config_st + c.config_ex, 4u);
}

TEST(GemminiMatmul, FixedSizesAllow256RowBlocksThatLoadBOnce) {
  const int64_t N = 256, M = 128, K = 128;
  Proc plain = gemmini_example::plain_matmul();
  Proc fixed = partial_eval(plain, {{"N", N}, {"M", M}, {"K", K}});
  Proc sched = [&] {
    ValidationScope off(false);
    return gemmini_example::schedule_matmul(fixed, 256);
  }();
  std::vector<ArgValue> want = matmul_args({{"N", N}, {"M", M}, {"K", K}}, true, 1.0 / 1024, 4);
  std::vector<ArgValue> got = {deep_copy(want)[3], want[4], deep_copy(want)[5], deep_copy(want)[6],
                               deep_copy(want)[7]};
  CompiledLibrary ref({plain}, "plain_matmul");
  ref.call("matmul", want);
  CompiledLibrary lib({sched}, "gemmini_fixed", gemmini::model_compile_options());
  reinterpret_cast<void (*)()>(lib.symbol("gemmini_reset"))();
  lib.call("matmul", got);
  EXPECT_EQ(compare_buffers(std::get<Buffer>(got[4]), std::get<Buffer>(want[7]), "C"), "");
  const gemmini_counters& c =
      *reinterpret_cast<const gemmini_counters* (*)()>(lib.symbol("gemmini_get_counters"))();
  const uint64_t a_loads = (N / 16) * (K / 64), b_loads = (M / 64) * (K / 16);  // B once
  EXPECT_EQ(c.mvin, a_loads + b_loads + (N / 16) * (M / 16));
}

// ---- the convolution ---------------------------------------------------------------------------

// Validation mode compares every step of this schedule (small sizes meet its asserts), in about
// ten seconds: EveryStepIsComparedInTheInterpreter does it once, the other tests schedule
// without it.
const Proc& scheduled_conv() {
  static const Proc p = [] {
    ValidationScope off(false);
    return gemmini_example::schedule_conv();
  }();
  return p;
}

TEST(GemminiConv, EveryStepIsComparedInTheInterpreter) {
  ValidationScope on;
  ValidationStats before = validation_stats();
  gemmini_example::schedule_conv();
  ValidationStats after = validation_stats();
  EXPECT_GE(after.operations - before.operations, 50u);
  EXPECT_EQ(after.compared - before.compared, after.operations - before.operations);
}

// The plain convolution in the interpreter against the scheduled one as C on the model, with
// `ow` output columns: full 16-column tiles and a tail, tiles only, or a tail only.
std::string conv_vs_model(int64_t ow, bool act) {
  Proc plain = gemmini_example::plain_conv();
  std::vector<ArgValue> want =
      random_args(plain, {{"batch", 2}, {"OH", 2}, {"OW", ow}, {"CI", 32}, {"CO", 32}}, 5,
                  {.lo = -128, .hi = 127});
  std::get<Buffer>(want[5]).set_flat(0, 1.0 / 512);  // (batch, OH, OW, CI, CO, scale, act, ...)
  want[6] = act;
  std::vector<ArgValue> got = deep_copy(want);
  interpret(plain, want);
  CompiledLibrary lib({scheduled_conv()}, "gemmini_conv", gemmini::model_compile_options());
  lib.call("conv", got);
  return compare_buffers(std::get<Buffer>(got[9]), std::get<Buffer>(want[9]), "out");
}

TEST(GemminiConv, FullTilesAndATailMatchThePlainProc) { EXPECT_EQ(conv_vs_model(20, true), ""); }

TEST(GemminiConv, FullTilesOnlyMatchThePlainProc) { EXPECT_EQ(conv_vs_model(16, false), ""); }

TEST(GemminiConv, ATailOnlyMatchesThePlainProc) { EXPECT_EQ(conv_vs_model(5, true), ""); }

TEST(GemminiConv, ConfigurationIsWrittenOnceAndEveryWeightLoadedOnce) {
  int config_calls = 0;
  for (const Stmt& s : scheduled_conv().body())
    if (const CallNode* c = s.as<CallNode>(); c && c->proc->name.rfind("config_", 0) == 0)
      ++config_calls;
  EXPECT_EQ(config_calls, 4);
  std::vector<ArgValue> args = random_args(
      gemmini_example::plain_conv(), {{"batch", 1}, {"OH", 3}, {"OW", 20}, {"CI", 32}, {"CO", 48}},
      9, {.lo = -128, .hi = 127});
  CompiledLibrary lib({scheduled_conv()}, "gemmini_conv_counts", gemmini::model_compile_options());
  reinterpret_cast<void (*)()>(lib.symbol("gemmini_reset"))();
  lib.call("conv", args);
  const gemmini_counters& c =
      *reinterpret_cast<const gemmini_counters* (*)()>(lib.symbol("gemmini_get_counters"))();
  const uint64_t weight_tiles = 9 * (32 / 16) * (48 / 16);
  const uint64_t row_parts = 3 * 2;  // OH rows, each a 16-column tile and a 4-column tail
  const uint64_t input_tiles = row_parts * 9 * (32 / 16);
  const uint64_t acc_tiles = row_parts * (48 / 16);
  EXPECT_EQ(c.mvin, weight_tiles + input_tiles + acc_tiles);
  EXPECT_EQ(c.mvin_zero, acc_tiles);
  EXPECT_EQ(c.compute, input_tiles * (48 / 16));
  EXPECT_EQ(c.mvout, acc_tiles);
  EXPECT_EQ(c.config_ld + c.config_st + c.config_ex, 4u);
}

}  // namespace
}  // namespace exocpp
