// commute_expr: swapping the operands of + and *.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N + 1] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i + 1] = B[i] * 2.0
)";

// The rhs of the assignment, and its index i + 1.
Cursor rhs(const Proc& p) { return p.body_cursor()[0].body()[0].rhs(); }
Cursor index(const Proc& p) { return p.body_cursor()[0].body()[0].idx()[0]; }

TEST(CommuteExpr, SwapsAProductAndASum) {
  Proc p = parse_proc(kSrc);
  Proc q = commute_expr(p, {rhs(p), index(p)});
  expect_golden("CommuteExpr_SwapsAProductAndASum", to_string(q));
  expect_equivalent(p, q);
}

TEST(CommuteExpr, RefusesASubtraction) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    A[0] = A[1] - A[2]
)");
  expect_refused([&] { commute_expr(p, {p.body_cursor()[0].rhs()}); }, "commute_expr",
                 ErrorCode::BadArgument, "target.wrong_kind");
}

TEST(CommuteExpr, RefusesAnEmptyList) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { commute_expr(p, {}); }, "commute_expr", "no expression");
}

TEST(CommuteExpr, ChecksEveryTargetBeforeRewriting) {
  Proc p = parse_proc(kSrc);
  // The second target is a read, not a product: nothing is rewritten, the call refuses.
  expect_refused(
      [&] {
        commute_expr(p, {rhs(p), rhs(p).child(0)});
      },
      "commute_expr", "'B[i]' is not one");
}

TEST(CommuteExpr, ForwardsOperands) {
  Proc p = parse_proc(kSrc);
  Cursor b = rhs(p).child(0);
  Proc q = commute_expr(p, {rhs(p)});
  EXPECT_EQ(q.forward(b).to_string(), "B[i]");
  EXPECT_EQ(q.forward(b).loc().expr.back(), 1);
}

TEST(CommuteExpr, AcceptsAnExpressionPattern) {
  Proc p = parse_proc(kSrc);
  Proc q = commute_expr(p, {"_ * _"});
  EXPECT_EQ(to_string(q.body()[0].as<ForNode>()->body[0]), "A[i + 1] = 2.0 * B[i]\n");
  expect_equivalent(p, q);
}

}  // namespace
