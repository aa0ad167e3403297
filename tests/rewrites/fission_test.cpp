// Tests of fission: loops and ifs (golden + equivalence), n_lifts, the refusals (a dependence
// the split would reverse, an allocation used across the gap, a gap at the edge, too many
// lifts, a config written before an if's gap) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kTwo = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = A[i] * 2.0
)";

TEST(Fission, LoopAtAGap) {
  Proc p = parse_proc(kTwo);
  Proc q = fission(p, p.body_cursor()[0].body()[0].after());
  expect_golden("Fission.LoopAtAGap", to_string(q));
  expect_equivalent(p, q);
}

TEST(Fission, AStatementCursorMeansTheGapAfterIt) {
  Proc p = parse_proc(kTwo);
  EXPECT_EQ(to_string(fission(p, p.body_cursor()[0].body()[0])),
            to_string(fission(p, p.body_cursor()[0].body()[0].after())));
}

TEST(Fission, TwoLifts) {
  Proc p = parse_proc(R"(def f(N: size, M: size, A: f32[N, M] @ DRAM, B: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            A[i, j] = 1.0
            B[i, j] = 2.0
)");
  Proc q = fission(p, p.body_cursor()[0].body()[0].body()[0].after(), {.n_lifts = 2});
  expect_golden("Fission.TwoLifts", to_string(q));
  expect_equivalent(p, q);
}

TEST(Fission, IfWithElse) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    if N > 4:
        x = 1.0
        y = 2.0
    else:
        x = 3.0
)");
  Proc q = fission(p, p.body_cursor()[0].body()[0].after());
  expect_golden("Fission.IfWithElse", to_string(q));
  expect_equivalent(p, q);
}

TEST(Fission, GapInAnElseBranch) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    if N > 4:
        x = 1.0
    else:
        x = 2.0
        y = 3.0
)");
  Proc q = fission(p, p.body_cursor()[0].orelse()[0].after());
  expect_golden("Fission.GapInAnElse", to_string(q));
  expect_equivalent(p, q);
}

TEST(Fission, ForwardsThroughTwoLifts) {
  Proc p = parse_proc(R"(def f(N: size, M: size, A: f32[N, M] @ DRAM, B: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            A[i, j] = 1.0
            B[i, j] = 2.0
)");
  Cursor b = p.body_cursor()[0].body()[0].body()[1];
  Proc q = fission(p, p.body_cursor()[0].body()[0].body()[0].after(), {.n_lifts = 2});
  EXPECT_EQ(q.forward(b).loc(), q.body_cursor()[1].body()[0].body()[0].loc());
  EXPECT_EQ(q.forward(b).to_string(), "B[i, j] = 2.0");
}

TEST(Fission, RefusesAReversedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM, B: f32[N + 1] @ DRAM):
    for i in seq(0, N):
        B[i] = A[i]
        A[i + 1] = 2.0
)");
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[0].after()); }, "fission",
                 "splitting loop i keeps every dependence, but");
}

// Each iteration of j rewrites t with the same values before using them (Exo's x86 matmul
// broadcast): the dependence from j = 0's use to j = 1's rewrite is reversed, but the rewrites
// after the first change nothing, so the split is accepted.
TEST(Fission, SplitsOffTheSameIdempotentWorkOfEveryIteration) {
  Proc p = parse_proc(R"(def f(N: size, M: size, x: f32[N] @ DRAM, y: f32[N, M, 4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, 4):
                t[k] = x[i] * 3.0
            for k in seq(0, 4):
                y[i, j, k] += t[k]
)");
  Proc q = fission(p, p.body_cursor()[1].body()[0].body()[0].after());
  expect_golden("Fission.SameIdempotentWork", to_string(q));
  for (int64_t n : {1, 3})
    for (int64_t m : {1, 2}) expect_equivalent(p, q, {{"N", n}, {"M", m}});
}

// The same shape where the second part writes what the first part reads: a later rewrite of t
// sees the new x, so the split is refused.
TEST(Fission, RefusesSplittingOffWorkTheRestDisturbs) {
  Proc p = parse_proc(R"(def f(N: size, M: size, x: f32[N] @ DRAM, y: f32[N, M, 4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, 4):
                t[k] = x[i] * 3.0
            for k in seq(0, 4):
                y[i, j, k] += t[k]
            x[i] = y[i, j, 0]
)");
  expect_refused([&] { fission(p, p.body_cursor()[1].body()[0].body()[0].after()); }, "fission",
                 "splitting loop j keeps every dependence, but");
}

TEST(Fission, RefusesAnAllocationUsedAfterTheGap) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = 1.0
        A[i] = t
)");
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[1].after()); }, "fission",
                 "'t' is defined before the gap and used after it");
}

TEST(Fission, RefusesAGapAtTheEndOfTheBody) {
  Proc p = parse_proc(kTwo);
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[1].after()); }, "fission",
                 "at the end of the body");
}

TEST(Fission, RefusesMoreLiftsThanEnclosingScopes) {
  Proc p = parse_proc(kTwo);
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[0].after(), {.n_lifts = 2}); },
                 "fission", "n_lifts is too large");
}

TEST(Fission, RefusesNonPositiveLifts) {
  Proc p = parse_proc(kTwo);
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[0].after(), {.n_lifts = 0}); },
                 "fission", "n_lifts must be at least 1");
}

TEST(Fission, RefusesAConfigWriteTheConditionReads) {
  Proc p = parse_proc(R"(config Cfg:
    n: index

def f(x: f32 @ DRAM):
    if Cfg.n > 0:
        Cfg.n = 0
        x = 1.0
)");
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[0].after()); }, "fission",
                 "the condition 'Cfg.n > 0' of the second copy has the same value");
}

TEST(Fission, ForwardsStatementsAfterTheGapIntoTheSecondLoop) {
  Proc p = parse_proc(kTwo);
  Cursor first = p.body_cursor()[0].body()[0], second = p.body_cursor()[0].body()[1];
  Proc q = fission(p, first.after());
  EXPECT_EQ(q.forward(first).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(second).loc(), q.body_cursor()[1].body()[0].loc());
  EXPECT_EQ(q.forward(first.after()).loc(), q.body_cursor()[1].before().loc());
}

// An allocation used on both sides of the gap: NotProved scope.escapes.
TEST(Fission, AnAllocationUsedAfterTheGapIsNotProvedScopeEscapes) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = 1.0
        A[i] = t
)");
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[1].after()); }, "fission",
                 ErrorCode::NotProved, "scope.escapes");
}

}  // namespace
