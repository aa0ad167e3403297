// rewrite_expr: an expression replaced by one the checker proves equal.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    assert N % 4 == 0
    for i in seq(0, N / 4 * 4):
        A[i] = 1.0
)";

TEST(RewriteExpr, ReplacesABoundByAnEqualOne) {
  Proc p = parse_proc(kSrc);
  Proc q = rewrite_expr(p, p.body_cursor()[0].hi(), "N");
  expect_golden("RewriteExpr_ReplacesABoundByAnEqualOne", to_string(q));
  expect_equivalent(p, q);
}

TEST(RewriteExpr, UsesEnclosingLoopVariables) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i + 0] = 1.0
)");
  Proc q = rewrite_expr(p, p.body_cursor()[0].body()[0].idx()[0], "i");
  EXPECT_EQ(to_string(q.body()[0].as<ForNode>()->body[0]), "A[i] = 1.0\n");
  expect_equivalent(p, q);
}

TEST(RewriteExpr, UsesEnclosingIfConditions) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i == 0:
            A[i] = 1.0
)");
  Proc q = rewrite_expr(p, p.body_cursor()[0].body()[0].body()[0].idx()[0], "0");
  expect_golden("RewriteExpr_UsesEnclosingIfConditions", to_string(q));
  expect_equivalent(p, q);
}

TEST(RewriteExpr, RefusesAnUnequalExpression) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].hi(), "N - 1"); }, "rewrite_expr",
                 "counterexample");
}

TEST(RewriteExpr, RefusesADataExpression) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].body()[0].rhs(), "2.0 - 1.0"); },
                 "rewrite_expr", "only control expressions");
}

TEST(RewriteExpr, RefusesAnUnknownName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].hi(), "M"); }, "rewrite_expr", "M");
}

TEST(RewriteExpr, RefusesTheLoopsOwnVariableInItsBound) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].hi(), "i"); }, "rewrite_expr", "i");
}

TEST(RewriteExpr, ForwardsTheStatement) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0];
  Cursor hi = p.body_cursor()[0].hi();
  Proc q = rewrite_expr(p, hi, "N");
  EXPECT_EQ(q.forward(body).to_string(), "A[i] = 1.0");
  EXPECT_EQ(q.forward(hi).to_string(), "N");
  EXPECT_FALSE(q.forward(hi.child(0)).is_valid());
}

}  // namespace
