// The x86 instructions with a condition on data lanes (select_gt, max_update, add_if_gt, the
// argmax's update and fold, and abs; f32 and f64; AVX-512 and AVX2): compiled, each computes what
// its body computes in the interpreter, bit for bit, on the lanes where the condition's outcome is
// decided by NaN, ±0, ±inf and ties.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

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

// A gather's lanes read x through 16 elements of the caller's index argument.
std::string gather_kernel(const std::string& mem, const std::string& col_index) {
  return R"(
def gather(n: size, k: size, col: i32[32 * k] @ DRAM in range(0, n), x: f32[n] @ DRAM,
           y: f32[16 * k] @ DRAM):
    for jo in seq(0, k):
        g: f32[16] @ )" +
         mem + R"(
        for l in seq(0, 16):
            g[l] = x[col[)" +
         col_index + R"(]]
        for l in seq(0, 16):
            y[16 * jo + l] = g[l]
)";
}

Proc parse_gather(const std::string& mem, const std::string& col_index) {
  x86::register_memories();
  ParseOptions opts;
  opts.procs = x86::library().procs;
  opts.typecheck = mem == "DRAM";  // plain code on a register is what replace removes
  return parse_module(gather_kernel(mem, col_index), opts).proc("gather");
}

// replace solves the gather's indices as a window of the caller's index argument and its extent
// from the argument's range; the compiled kernel reads what the plain loop read.
TEST(X86Gathers, AWindowOfAnIndexArgumentBecomesTheGathersIndices) {
  Proc plain = parse_gather("DRAM", "16 * jo + l");
  Proc q =
      replace(parse_gather("AVX512", "16 * jo + l"), "for l in _: _ #0", x86::mm512_i32gather_ps);
  q = replace(q, "for l in _: _ #0", x86::mm512_storeu_ps);
  EXPECT_NO_THROW(typecheck(q)) << q;
  EXPECT_NE(to_string(q).find("mm512_i32gather_ps(n, g[0:16], x[0:n], col[16 * jo:16 * jo + 16])"),
            std::string::npos)
      << q;
  for (int64_t k : {1, 3}) EXPECT_EQ(compare_procs(plain, q, {{"k", k}, {"n", 5}}), "") << k;
  if (!__builtin_cpu_supports("avx512f"))
    GTEST_SKIP() << "this CPU has no AVX-512F: the gather cannot run here";
  EXPECT_EQ(compare_compiled_with_interpreter(q, {{"k", 3}, {"n", 7}}, 1,
                                              CompileOptions{"cc", {"-O2", "-march=native"}}),
            "");
}

// x read one past each index: the gather's src is the window of x starting one further in.
TEST(X86Gathers, AnOffsetPastTheIndexIsTheSourceWindowsStart) {
  auto kernel = [](const std::string& mem) {
    x86::register_memories();
    ParseOptions opts;
    opts.procs = x86::library().procs;
    opts.typecheck = mem == "DRAM";
    return parse_module(R"(
def shifted(n: size, k: size, col: i32[16 * k] @ DRAM in range(0, n), x: f32[n + 1] @ DRAM,
            y: f32[16 * k] @ DRAM):
    for jo in seq(0, k):
        g: f32[16] @ )" + mem +
                            R"(
        for l in seq(0, 16):
            g[l] = x[col[16 * jo + l] + 1]
        for l in seq(0, 16):
            y[16 * jo + l] = g[l]
)",
                        opts)
        .proc("shifted");
  };
  Proc q = replace(kernel("AVX512"), "for l in _: _ #0", x86::mm512_i32gather_ps);
  q = replace(q, "for l in _: _ #0", x86::mm512_storeu_ps);
  EXPECT_NE(to_string(q).find("mm512_i32gather_ps(n, g[0:16], x[1:n + 1], "), std::string::npos)
      << q;
  EXPECT_EQ(compare_procs(kernel("DRAM"), q, {{"k", 2}, {"n", 5}}), "");
}

// Lanes two elements apart in the index argument are no window of it.
TEST(X86Gathers, StridedIndicesDoNotUnify) {
  SchedulingError e = x86_test::refusal(parse_gather("AVX512", "32 * jo + 2 * l"),
                                        "for l in _: _ #0", x86::mm512_i32gather_ps);
  EXPECT_EQ(e.op(), "replace");
  EXPECT_NE(e.reason().find("for any window of 'col'"), std::string::npos) << e.reason();
}

}  // namespace
}  // namespace exocpp
