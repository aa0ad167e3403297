// A schedule written the way a user writes one: pattern-string targets, several operations in
// sequence, cursors carried across steps, and the result checked against the original.
#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

Proc gemm() {
  return parse_file(std::string(EXOCPP_SOURCE_DIR) + "/examples/gemm.exo").proc("gemm");
}

// The example of docs/scheduling.md, step for step.
TEST(Pipeline, DocsExampleRuns) {
  Proc p = gemm();
  p = divide_loop(p, "j", 4, {"jo", "ji"}, {.tail = Tail::Cut});
  p = reorder_loops(p, "ji k");
  p = stage_mem(p, p.find_loop("k"), "C[i, 4 * jo:4 * jo + 4]", "C_reg");
  expect_golden(to_string(p));
  expect_equivalent(gemm(), p, {{"M", 3}, {"N", 9}, {"K", 5}});
}

TEST(Pipeline, CursorFromTheOriginalProcIsForwardedThroughEveryStep) {
  Proc p0 = gemm();
  Cursor body = p0.find("C[_] += _");
  Proc p = divide_loop(p0, "j", 4, {"jo", "ji"}, {.tail = Tail::Cut});
  p = reorder_loops(p, "ji k");
  Cursor fwd = p.forward(body);
  ASSERT_TRUE(fwd.is_valid());
  EXPECT_EQ(fwd.to_string(), "C[i, 4 * jo + ji] += A[i, k] * B[k, 4 * jo + ji]");
}

TEST(Pipeline, IllegalStepIsRefusedWithLocationAndLeavesTheProcUsable) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM):
    for i in seq(0, N):
        A[i + 1] = A[i] + 1.0
)");
  expect_refused([&] { parallelize_loop(p, "i"); }, "parallelize_loop", ErrorCode::NotProved,
                 "checker.par_conflict", "<string>:2:5");
  EXPECT_EQ(to_string(p).substr(0, 3), "def");
}

// An expression passed as a string that does not make sense where it is parsed is reported at
// the statement it was for, quoting the string and the column at fault.
TEST(Pipeline, BadExpressionArgumentIsReportedAtTheStatement) {
  Proc p = gemm();
  try {
    stage_mem(p, p.find_loop("k"), "C[i, q:q + 4]", "C_reg");
    ADD_FAILURE() << "stage_mem accepted an undefined name";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "stage_mem");
    EXPECT_NE(e.loc().file->name.find("gemm.exo"), std::string::npos) << e.what();
    EXPECT_EQ(e.reason(), "in the expression `C[i, q:q + 4]` (column 6): undefined variable 'q'");
  }
}

}  // namespace
