// left_reassociate_expr: a + (b + c) -> (a + b) + c.
#include "rewrite_test_util.h"
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
  expect_golden("LeftReassociateExpr_RegroupsASum", to_string(q));
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
                 "left_reassociate_expr", "nothing to regroup");
}

TEST(LeftReassociateExpr, RefusesANonSum) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { left_reassociate_expr(p, rhs(p).child(0)); }, "left_reassociate_expr",
                 "expected an addition");
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
