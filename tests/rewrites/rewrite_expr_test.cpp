// rewrite_expr: an expression replaced by one the checker proves equal.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
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
  expect_golden(to_string(q));
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
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(RewriteExpr, RefusesAnUnequalExpression) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].hi(), "N - 1"); }, "rewrite_expr",
                 ErrorCode::NotProved, "checker.refuted", "counterexample");
}

TEST(RewriteExpr, RefusesADataExpression) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].body()[0].rhs(), "2.0 - 1.0"); },
                 "rewrite_expr", ErrorCode::BadArgument, "arg.type", "only control expressions");
}

TEST(RewriteExpr, RefusesAnUnknownName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].hi(), "M"); }, "rewrite_expr",
                 ErrorCode::BadArgument, "arg.parse_or_type", "M");
}

TEST(RewriteExpr, RefusesTheLoopsOwnVariableInItsBound) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rewrite_expr(p, p.body_cursor()[0].hi(), "i"); }, "rewrite_expr",
                 ErrorCode::BadArgument, "arg.parse_or_type", "i");
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

namespace {

// Exo tests/test_schedules.py::test_rewrite_expr: n % 4 is 2 under the assert, so the bound is 6
// either way.
TEST(RewriteExpr, RewriteExpr) {
  Proc foo = parse_proc(R"(def foo(n: size):
    assert n % 4 == 2
    for i in seq(0, 4 + n % 4):
        pass
)");
  const char* golden = R"(def foo(n: size):
    assert n % 4 == 2
    for i in seq(0, 6):
        pass
)";
  Proc q = rewrite_expr(foo, "n % 4", "2");
  EXPECT_EQ(to_string(simplify(q)), golden);
  Proc q2 = rewrite_expr(foo, "4 + n % 4", "6");
  EXPECT_EQ(to_string(q2), golden);
  expect_equivalent(foo, q, {{"n", 2}});
  expect_equivalent(foo, q2, {{"n", 6}});
}

// Exo tests/test_schedules.py::test_rewrite_expr_2. Exo's golden is the simplified proc with the
// bound `n - n / 4 * 4`, which is what rewrite_expr gives here; our simplify prints `X - k * (X /
// k)` as `X % k` (docs/exo-differences.md, divide_with_recompute's inner bound), so after it the
// bound reads `n % 4` again.
TEST(RewriteExpr, RewriteExpr2) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0, n % 4):
        pass
)");
  Proc q = rewrite_expr(foo, "n % 4", "n - n/4 * 4");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    for i in seq(0, n - n / 4 * 4):
        pass
)");
  EXPECT_EQ(to_string(simplify(q)), R"(def foo(n: size):
    for i in seq(0, n % 4):
        pass
)");
  expect_equivalent(foo, q, {{"n", 3}});
  expect_equivalent(foo, q, {{"n", 9}});
}

// Exo tests/test_schedules.py::test_rewrite_expr_fail: n + n % 4 differs from n. Exo: "Expressions
// are not equivalent:".
TEST(RewriteExpr, RewriteExprFail) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0, n):
        pass
)");
  expect_refused([&] { rewrite_expr(foo, "n", "n + n%4"); }, "rewrite_expr", ErrorCode::NotProved,
                 "checker.refuted",
                 "requires that 'n' == 'n + n % 4', but `n == n + n % 4` does not always hold");
}

}  // namespace
