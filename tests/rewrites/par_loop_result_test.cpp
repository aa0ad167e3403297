// Loop operations whose result runs as one `par` loop iterations the input did not run in
// parallel (fuse, join_loops, mult_loops, reorder_loops) must prove those iterations
// independent: a par loop's iterations run in any order (the interpreter may run them in
// reverse, OpenMP at the same time). Found by the random-schedule soak through compute_at.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kNeedle = "a par loop, are independent";

// The soak's case: a seq stencil that reads ahead of itself, fused into a par producer loop.
TEST(ParLoopResult, FuseRefusesASeqStencilIntoAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, U: i32[N] @ DRAM, Z: i32[N + 2] @ DRAM):
    for i in par(0, N):
        U[i] = 3 * U[i]
    for j in seq(0, N):
        Z[j] += Z[j + 2]
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse", kNeedle);
}

TEST(ParLoopResult, ComputeAtRefusesASeqStencilIntoAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, U: i32[N] @ DRAM, Z: i32[N + 2] @ DRAM):
    for i in par(0, N):
        U[i] = 3 * U[i]
    for j in seq(0, N):
        Z[j] += Z[j + 2]
)");
  expect_refused([&] { compute_at(p, "i", "j"); }, "fuse", kNeedle);
}

TEST(ParLoopResult, FuseKeepsParWhenTheFusedIterationsAreIndependent) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in par(0, N):
        A[i] = 1.0
    for j in seq(0, N):
        B[j] = A[j] * 2.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

// Two par loops over consecutive ranges: joined, an iteration of the first may run after one of
// the second.
TEST(ParLoopResult, JoinLoopsRefusesParLoopsThatDependOnEachOther) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[2 * N + 1] @ DRAM):
    for i in par(0, N):
        A[i + 1] = A[i + 1] + 1.0
    for j in par(N, 2 * N):
        A[j + 1] = A[j + 1] + 1.0
)");
  // The bodies read and write only their own element: joined, still independent.
  Proc q = join_loops(p, "i", "j");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
  // Each loop on its own is independent (the first writes A[N:2N], the second A[2N:3N]), but
  // the second reads A[N:2N].
  Proc r = parse_proc(R"(def f(N: size, A: f32[3 * N] @ DRAM):
    for i in par(0, N):
        A[i + N] = A[i] + 1.0
    for j in par(N, 2 * N):
        A[j + N] = A[j] + 1.0
)");
  expect_refused([&] { join_loops(r, "i", "j"); }, "join_loops", kNeedle);
}

TEST(ParLoopResult, MultLoopsRefusesAParLoopOverADependentSeqLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: i32[N, 5] @ DRAM):
    for i in par(0, N):
        for j in seq(0, 4):
            A[i, j + 1] += A[i, j]
)");
  expect_refused([&] { mult_loops(p, "for i in _: _", "k"); }, "mult_loops", kNeedle);
}

TEST(ParLoopResult, MultLoopsMergesTwoParLoops) {
  Proc p = parse_proc(R"(def f(N: size, A: i32[N, 4] @ DRAM):
    for i in par(0, N):
        for j in par(0, 4):
            A[i, j] = A[i, j] * 2
)");
  Proc q = mult_loops(p, "for i in _: _", "k");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

// For one i the iterations of j touch different elements; across i they do not: B[i + j]
// is reduced into by (i, j) and (i + 1, j - 1). Reductions commute, so the interchange itself
// is legal, but as the outer par loop j would race on B.
TEST(ParLoopResult, ReorderLoopsRefusesAParInnerLoopThatRacesOutside) {
  Proc p = parse_proc(R"(def f(N: size, B: i32[2 * N] @ DRAM):
    for i in seq(0, N):
        for j in par(0, N):
            B[i + j] += 1
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops", kNeedle);
}

TEST(ParLoopResult, ReorderLoopsMovesAnIndependentParLoopOutside) {
  Proc p = parse_proc(R"(def f(N: size, B: i32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in par(0, N):
            B[i, j] += 1
)");
  Proc q = reorder_loops(p, "i j");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

// Any operation that rebuilds a par loop re-proves it (rewrites/internal/operation.h,
// require_well_formed): here stage_mem copies the whole buffer in and out in every iteration, so
// the iterations, each apart before, now all write every element. Found by the soak (the emitted C,
// run by OpenMP, disagreed with the interpreter).
TEST(ParLoopResult, StageMemRefusesStagingAWholeBufferInsideAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 8] @ DRAM):
    for i in par(0, N):
        A[i] = A[i] + 0.5 * A[i]
)");
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[0:N + 8]", "stz"); },
                 "stage_mem", kNeedle);
}

TEST(ParLoopResult, StageMemOfTheIterationsOwnElementKeepsTheLoopPar) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 8] @ DRAM):
    for i in par(0, N):
        A[i] = A[i] + 0.5 * A[i]
)");
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "A[i:i + 1]", "stz");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

}  // namespace
