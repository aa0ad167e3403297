// Tests of reorder_loops: the "i j" shorthand and a cursor, golden + equivalence, refusals
// (not a single nested loop, dependent bounds, a carried dependence, no match) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

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
  expect_golden(to_string(q));
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
  expect_golden(to_string(q));
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
  expect_refused([&] { reorder_loops(p, "j i"); }, "reorder_loops", ErrorCode::NotFound,
                 "target.no_match", "no loop over j whose only statement is a loop over i");
}

TEST(ReorderLoops, RefusesALoopWithMoreThanTheNestedLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        x = 0.0
        for j in seq(0, N):
            A[i, j] = x
)");
  expect_refused([&] { reorder_loops(p, p.body_cursor()[0]); }, "reorder_loops",
                 ErrorCode::BadArgument, "target.wrong_kind",
                 "is not one loop: it holds 2 statements");
}

TEST(ReorderLoops, RefusesBoundsThatDependOnTheOuterLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, i):
            A[i, j] = 1.0
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops", ErrorCode::NotProved,
                 "dep.loop_variant", "the bounds of loop j depend on i");
}

TEST(ReorderLoops, RefusesAReversedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1, N + 1] @ DRAM):
    for i in seq(0, N):
        for j in seq(1, N + 1):
            A[i + 1, j - 1] = A[i, j]
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops", ErrorCode::NotProved,
                 "checker.refuted", "interchanging loops i and j is safe, but");
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

namespace {

// Exo tests/test_schedules.py::test_reorder_loops: the inner bound depends on i. Exo: "inner loop's
// lo or hi depends on outer loop's iteration variable".
TEST(ReorderLoops, ReorderLoopsRefusesADependentInnerBound) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n, n]):
    for i in seq(0, n):
        for j in seq(0, (-1 - i + n)):
            A[i, j] = 0.0
)");
  expect_refused([&] { reorder_loops(bar, bar.find("for i in _:_")); }, "reorder_loops",
                 ErrorCode::NotProved, "dep.loop_variant",
                 "the bounds of loop j depend on i, so the loops cannot be interchanged");
}

// Exo tests/test_schedules.py::test_simple_reorder
TEST(ReorderLoops, SimpleReorder) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size, A: i8[n, m]):
    tmp: i8[n, m]
    for i in seq(0, n):
        for j in seq(0, m):
            tmp[i, j] = A[i, j]
)");
  Proc q = reorder_loops(bar, "i j");
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size, A: i8[n, m] @ DRAM):
    tmp: i8[n, m] @ DRAM
    for j in seq(0, m):
        for i in seq(0, n):
            tmp[i, j] = A[i, j]
)");
  expect_equivalent(bar, q, {{"n", 1}, {"m", 1}});
  expect_equivalent(bar, q, {{"n", 3}, {"m", 4}});
}

// Exo tests/test_schedules.py::test_simple_reorder2: nonzero lower bounds.
TEST(ReorderLoops, SimpleReorder2) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size, A: i8[n, m]):
    assert n > 5
    assert m > 7
    tmp: i8[n, m]
    for i in seq(4, n):
        for j in seq(2, m):
            tmp[i, j] = A[i, j]
)");
  Proc q = reorder_loops(bar, "i j");
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size, A: i8[n, m] @ DRAM):
    assert n > 5
    assert m > 7
    tmp: i8[n, m] @ DRAM
    for j in seq(2, m):
        for i in seq(4, n):
            tmp[i, j] = A[i, j]
)");
  expect_equivalent(bar, q, {{"n", 6}, {"m", 8}});
  expect_equivalent(bar, q, {{"n", 9}, {"m", 10}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(ReorderLoops, ReorderLoopsRefusesABoundTheNestWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16, 16] @ DRAM):
    C.n = 8
    for i in seq(0, 4):
        for j in seq(0, C.n):
            C.n = 4
            A[i, j] = 1.0
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

// Par loops: a par result's iterations must be proved independent.
// For one i the iterations of j touch different elements; across i they do not: B[i + j]
// is reduced into by (i, j) and (i + 1, j - 1). Reductions commute, so the interchange itself
// is legal, but as the outer par loop j would race on B.
TEST(ReorderLoops, ReorderLoopsRefusesAParInnerLoopThatRacesOutside) {
  Proc p = parse_proc(R"(def f(N: size, B: i32[2 * N] @ DRAM):
    for i in seq(0, N):
        for j in par(0, N):
            B[i + j] += 1
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops", ErrorCode::NotProved,
                 "checker.par_conflict", kParLoopNeedle);
}

// Par loops: a par result's iterations must be proved independent.
TEST(ReorderLoops, ReorderLoopsMovesAnIndependentParLoopOutside) {
  Proc p = parse_proc(R"(def f(N: size, B: i32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in par(0, N):
            B[i, j] += 1
)");
  Proc q = reorder_loops(p, "i j");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

}  // namespace
