// left_reassociate_expr: a + (b + c) -> (a + b) + c.
#include <gtest/gtest.h>

#include <regex>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM, C: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = A[i] + (B[i] + C[i])
)";

Cursor rhs(const Proc& p) { return p.body_cursor()[0].body()[0].rhs(); }

TEST(LeftReassociateExpr, RegroupsASum) {
  Proc p = parse_proc(kSrc);
  Proc q = left_reassociate_expr(p, rhs(p));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(LeftReassociateExpr, RegroupsAnIndexProduct) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[8 * N] @ DRAM):
    for i in seq(0, N):
        A[2 * (4 * i)] = 1.0
)");
  Proc q = left_reassociate_expr(p, p.body_cursor()[0].body()[0].idx()[0]);
  EXPECT_EQ(to_string(q.body()[0].as<ForNode>()->body[0]), "A[2 * 4 * i] = 1.0\n");
  expect_equivalent(p, q);
}

TEST(LeftReassociateExpr, RefusesMixedOperators) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    A[0] = A[1] + A[2] * A[3]
)");
  expect_refused([&] { left_reassociate_expr(p, p.body_cursor()[0].rhs()); },
                 "left_reassociate_expr", ErrorCode::NotProved, "stmt.form", "nothing to regroup");
}

TEST(LeftReassociateExpr, RefusesANonSum) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { left_reassociate_expr(p, rhs(p).child(0)); }, "left_reassociate_expr",
                 ErrorCode::BadArgument, "target.wrong_kind", "expected an addition");
}

TEST(LeftReassociateExpr, ForwardsTheThreeOperands) {
  Proc p = parse_proc(kSrc);
  Cursor a = rhs(p).child(0), b = rhs(p).child(1).child(0), c = rhs(p).child(1).child(1);
  Cursor bc = rhs(p).child(1);
  Proc q = left_reassociate_expr(p, rhs(p));
  EXPECT_EQ(q.forward(a).to_string(), "A[i]");
  EXPECT_EQ(q.forward(b).to_string(), "B[i]");
  EXPECT_EQ(q.forward(c).to_string(), "C[i]");
  EXPECT_EQ(q.forward(a).parent().to_string(), "A[i] + B[i]");
  EXPECT_FALSE(q.forward(bc).is_valid());
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_left_reassociate_expr_1: a + (b + c) --> (a + b) + c, then the
// outer sum commuted.
TEST(LeftReassociateExpr, LeftReassociate1) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM, c: f32 @ DRAM):
    b = a + (b + c)
)");
  Proc q = left_reassociate_expr(foo, "_ + _");
  q = commute_expr(q, {"_ + _"});
  EXPECT_TRUE(has(q, "b = c + (a + b)")) << q;
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_left_reassociate_expr_2: the same for products.
TEST(LeftReassociateExpr, LeftReassociate2) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM, c: f32 @ DRAM):
    b = a * b * (b * c)
)");
  Proc q = left_reassociate_expr(foo, "_ * _");
  q = commute_expr(q, {"_ * _"});
  EXPECT_TRUE(has(q, "b = c * (a * b * b)")) << q;
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_left_reassociate_expr_fail_1 / _fail_2: not a sum of a sum.
TEST(LeftReassociateExpr, LeftReassociateFail) {
  Proc f1 = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM, c: f32 @ DRAM):
    b = a - (b + c)
)");
  EXPECT_ANY_THROW(left_reassociate_expr(f1, "_ - _"));
  Proc f2 = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM, c: f32 @ DRAM):
    b = a + (b - c)
)");
  EXPECT_ANY_THROW(left_reassociate_expr(f2, "_ + _"));
}

// Exo tests/test_schedules.py::test_reassociate_then_fold: b = a + (b + c) becomes b += c + a.
TEST(LeftReassociateExpr, ReassociateThenFold) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM, c: f32 @ DRAM):
    b = a + (b + c)
)");
  Proc q = commute_expr(foo, {"_ + _ #1"});
  q = left_reassociate_expr(q, "_ + _");
  q = commute_expr(q, {"_ + _"});
  q = fold_into_reduce(q, "_ = _");
  EXPECT_TRUE(has(q, "b += ")) << q;
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_left_reassociate_expr_fail_2: the right operand is a
// subtraction. Exo: "same binary operation as the expression".
TEST(LeftReassociateExpr, LeftReassociateExprFail2) {
  Proc foo = parse_proc(R"(def foo(a: f32, b: f32, c: f32):
    b = a + (b - c)
)");
  expect_refused([&] { left_reassociate_expr(foo, "_ + _"); }, "left_reassociate_expr",
                 ErrorCode::NotProved, "stmt.form", "is not also an addition");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(LeftReassociateExpr, LeftReassociateIntegerWrapsAlike) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, y: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * (y[i] * x[i])
)");
  Proc q = left_reassociate_expr(p, p.find("a[_] = _").rhs());
  expect_equivalent(p, q, {}, near_limits());
}

}  // namespace
