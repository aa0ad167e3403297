// lift_reduce_constant: a constant factor pulled out of a reduction loop.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, y: f32[N] @ DRAM, c: f32 @ DRAM, x: f32 @ DRAM):
    x = 0.0
    for i in seq(0, N):
        x += c * y[i]
)";

TEST(LiftReduceConstant, LiftsTheFactor) {
  Proc p = parse_proc(kSrc);
  Proc q = lift_reduce_constant(p, p.body_cursor());
  expect_golden("LiftReduceConstant_LiftsTheFactor", to_string(q));
  expect_equivalent(p, q);
}

TEST(LiftReduceConstant, LiftsThroughANestedLoop) {
  Proc p = parse_proc(R"(def f(N: size, y: f32[N, N] @ DRAM, x: f32[2] @ DRAM):
    x[1] = 0.0
    for i in seq(0, N):
        for j in seq(0, N):
            x[1] += 3.0 * y[i, j]
)");
  Proc q = lift_reduce_constant(p, p.body_cursor());
  EXPECT_EQ(to_string(q.body()[2]), "x[1] = 3.0 * x[1]\n");
  expect_equivalent(p, q);
}

TEST(LiftReduceConstant, RefusesANonZeroStart) {
  Proc p = parse_proc(R"(def f(N: size, y: f32[N] @ DRAM, x: f32 @ DRAM):
    x = 1.0
    for i in seq(0, N):
        x += 2.0 * y[i]
)");
  expect_refused([&] { lift_reduce_constant(p, p.body_cursor()); }, "lift_reduce_constant",
                 "assign zero");
}

TEST(LiftReduceConstant, RefusesAFactorThatVaries) {
  Proc p = parse_proc(R"(def f(N: size, y: f32[N] @ DRAM, x: f32 @ DRAM):
    x = 0.0
    for i in seq(0, N):
        x += y[i] * y[i]
)");
  expect_refused([&] { lift_reduce_constant(p, p.body_cursor()); }, "lift_reduce_constant",
                 "changes inside the loop");
}

TEST(LiftReduceConstant, RefusesAFactorTheLoopWrites) {
  Proc p = parse_proc(R"(def f(N: size, y: f32[N] @ DRAM, c: f32 @ DRAM, x: f32 @ DRAM):
    x = 0.0
    for i in seq(0, N):
        x += c * y[i]
        c = 2.0
)");
  expect_refused([&] { lift_reduce_constant(p, p.body_cursor()); }, "lift_reduce_constant",
                 "the loop writes");
}

TEST(LiftReduceConstant, RefusesDifferentFactors) {
  Proc p = parse_proc(R"(def f(N: size, y: f32[N] @ DRAM, x: f32 @ DRAM):
    x = 0.0
    for i in seq(0, N):
        x += 2.0 * y[i]
        x += 3.0 * y[i]
)");
  expect_refused([&] { lift_reduce_constant(p, p.body_cursor()); }, "lift_reduce_constant",
                 "different factors");
}

TEST(LiftReduceConstant, RefusesAReadOfTheAccumulator) {
  Proc p = parse_proc(R"(def f(N: size, y: f32[N] @ DRAM, x: f32 @ DRAM):
    x = 0.0
    for i in seq(0, N):
        x += 2.0 * y[i]
        y[i] = x
)");
  expect_refused([&] { lift_reduce_constant(p, p.body_cursor()); }, "lift_reduce_constant",
                 "other than by reductions");
}

TEST(LiftReduceConstant, ForwardsTheLoop) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[1];
  Proc q = lift_reduce_constant(p, p.body_cursor());
  EXPECT_EQ(q.forward(loop).to_string(), "for i in seq(0, N): ...");
  EXPECT_EQ(q.forward(loop).next().to_string(), "x = c * x");
}

// The reduction's right-hand side `c * y[i]` became `y[i]`: a cursor to it stays (now naming
// y[i]); cursors inside it, to the factor or to y[i], become invalid; the loop's bound stays.
TEST(LiftReduceConstant, ForwardsTheRewrittenRightHandSide) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[1];
  Cursor rhs = loop.body()[0].rhs(), factor = rhs.child(0), bound = loop.hi();
  Proc q = lift_reduce_constant(p, p.body_cursor());
  EXPECT_EQ(q.forward(rhs).to_string(), "y[i]");
  EXPECT_FALSE(q.forward(factor).is_valid());
  EXPECT_FALSE(q.forward(rhs.child(1)).is_valid());
  EXPECT_EQ(q.forward(bound).to_string(), "N");
}

TEST(LiftReduceConstant, RefusesProductsInANarrowerPrecision) {
  Proc p = parse_proc(R"(def f(N: size, y: f32[N] @ DRAM, x: f64 @ DRAM):
    x = 0.0
    for i in seq(0, N):
        x += 0.1 * y[i]
)");  // 0.1 * y[i] rounds in f32; 0.1 * x would multiply in f64
  expect_refused([&] { return lift_reduce_constant(p, p.body_cursor()); }, "lift_reduce_constant",
                 ErrorCode::NotProved, "precision.regroup");
}

}  // namespace
