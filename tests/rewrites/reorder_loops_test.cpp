// Tests of reorder_loops: the "i j" shorthand and a cursor, golden + equivalence, refusals
// (not a single nested loop, dependent bounds, a carried dependence, no match) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kGemm =
    R"(def gemm(N: size, M: size, A: f32[N, M] @ DRAM, B: f32[M] @ DRAM, C: f32[N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            C[i] += A[i, j] * B[j]
)";

TEST(ReorderLoops, ByNamePair) {
  Proc p = parse_proc(kGemm);
  Proc q = reorder_loops(p, "i j");
  expect_golden("ReorderLoops.ByNamePair", to_string(q));
  expect_equivalent(p, q);
}

TEST(ReorderLoops, ByCursorToTheOuterLoop) {
  Proc p = parse_proc(kGemm);
  Proc q = reorder_loops(p, p.body_cursor()[0]);
  EXPECT_EQ(to_string(q), to_string(reorder_loops(p, "i j")));
}

TEST(ReorderLoops, NamePairWithMatchIndex) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM, B: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            A[i, j] = 1.0
    for i in seq(0, N):
        for j in seq(0, N):
            B[i, j] = 2.0
)");
  Proc q = reorder_loops(p, "i j #1");
  expect_golden("ReorderLoops.SecondMatch", to_string(q));
  expect_equivalent(p, q);
}

// A float addend into an integer buffer truncates each sum: interchanging the loops would sum
// the same addends in another order (core's reductions_regroup).
TEST(ReorderLoops, RefusesReorderingReductionsThatTruncateTheirSums) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM, X: i8[1] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            X[0] += A[i, j]
)");
  expect_refused([&] { return reorder_loops(p, "i j"); }, "reorder_loops", ErrorCode::NotProved,
                 "checker.refuted");
}

TEST(ReorderLoops, RefusesWhenTheNamePairMatchesNothing) {
  Proc p = parse_proc(kGemm);
  expect_refused([&] { reorder_loops(p, "j i"); }, "reorder_loops",
                 "no loop over j whose only statement is a loop over i");
}

TEST(ReorderLoops, RefusesALoopWithMoreThanTheNestedLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        x = 0.0
        for j in seq(0, N):
            A[i, j] = x
)");
  expect_refused([&] { reorder_loops(p, p.body_cursor()[0]); }, "reorder_loops",
                 "is not one loop: it holds 2 statements");
}

TEST(ReorderLoops, RefusesBoundsThatDependOnTheOuterLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, i):
            A[i, j] = 1.0
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops",
                 "the bounds of loop j depend on i");
}

TEST(ReorderLoops, RefusesAReversedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1, N + 1] @ DRAM):
    for i in seq(0, N):
        for j in seq(1, N + 1):
            A[i + 1, j - 1] = A[i, j]
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops",
                 "interchanging loops i and j is safe, but");
}

TEST(ReorderLoops, ForwardsCursorsToTheLoopsTheyName) {
  Proc p = parse_proc(kGemm);
  Cursor i = p.body_cursor()[0], j = i.body()[0], body = j.body()[0];
  Proc q = reorder_loops(p, "i j");
  EXPECT_EQ(q.forward(i).name(), "i");
  EXPECT_EQ(q.forward(i).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(j).name(), "j");
  EXPECT_EQ(q.forward(j).loc(), q.body_cursor()[0].loc());
  EXPECT_EQ(q.forward(body).to_string(), "C[i] += A[i, j] * B[j]");
  EXPECT_EQ(q.forward(i.hi()).to_string(), "N");
}

// An inner bound that depends on the outer loop: NotProved dep.loop_variant.
TEST(ReorderLoops, ADependentInnerBoundIsNotProvedDepLoopVariant) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, i):
            A[i, j] = 1.0
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops", ErrorCode::NotProved,
                 "dep.loop_variant");
}

}  // namespace
