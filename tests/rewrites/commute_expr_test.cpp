// commute_expr: swapping the operands of + and *.
#include <regex>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
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
  expect_golden(to_string(q));
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
  expect_refused([&] { commute_expr(p, {}); }, "commute_expr", ErrorCode::BadArgument,
                 "arg.invalid", "no expression");
}

TEST(CommuteExpr, ChecksEveryTargetBeforeRewriting) {
  Proc p = parse_proc(kSrc);
  // The second target is a read, not a product: nothing is rewritten, the call refuses.
  expect_refused(
      [&] {
        commute_expr(p, {rhs(p), rhs(p).child(0)});
      },
      "commute_expr", ErrorCode::BadArgument, "target.wrong_kind", "'B[i]' is not one");
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

namespace {

// Exo tests/test_schedules.py::test_commute: x[0] * y[2] --> y[2] * x[0].
TEST(CommuteExpr, Commute) {
  Proc foo = parse_proc(R"(def foo(x: f32[3] @ DRAM, y: f32[3] @ DRAM, z: f32 @ DRAM):
    z = x[0] * y[2]
)");
  Proc q = commute_expr(foo, {"x[0] * y[_]"});
  EXPECT_TRUE(has(q, "z = y[2] * x[0]")) << q;
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_commute3: the product's two sums swap.
TEST(CommuteExpr, Commute3) {
  Proc foo = parse_proc(R"(def foo(x: f32[3] @ DRAM, y: f32[3] @ DRAM, z: f32 @ DRAM):
    z = (x[0] + y[0]) * (x[1] + y[1] + y[2])
)");
  Proc q = commute_expr(foo, {"(x[_] + y[_]) * (x[_] + y[_] + y[_])"});
  EXPECT_TRUE(has(q, "z = (x[1] + y[1] + y[2]) * (x[0] + y[0])")) << q;
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_commute4: subtraction does not commute.
TEST(CommuteExpr, Commute4) {
  Proc foo = parse_proc(R"(def foo(x: f32[3] @ DRAM, y: f32[3] @ DRAM, z: f32 @ DRAM):
    z = x[0] - y[2]
)");
  EXPECT_ANY_THROW(commute_expr(foo, {"x[0] - y[_]"}));
}

// Exo tests/test_schedules.py::test_commute2: `y[0] + x[1]` is no subexpression of x[0] + y[0] +
// x[1] + y[1] (it parses as
// ((x[0] + y[0]) + x[1]) + y[1]). Exo: "failed to find matches".
TEST(CommuteExpr, Commute2FindsNoMatch) {
  Proc foo = parse_proc(R"(def foo(x: R[3], y: R[3], z: R):
    z = x[0] + y[0] + x[1] + y[1]
)");
  expect_refused([&] { commute_expr(foo, {"y[0] + x[1]"}); }, "commute_expr", ErrorCode::NotFound,
                 "target.no_match", "no match for pattern 'y[0] + x[1]'");
}

}  // namespace
