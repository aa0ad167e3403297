// Tests of fission: loops and ifs (golden + equivalence), n_lifts, the refusals (a dependence
// the split would reverse, an allocation used across the gap, a gap at the edge, too many
// lifts, a config written before an if's gap) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

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
  expect_golden(to_string(q));
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
  expect_golden(to_string(q));
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
  expect_golden(to_string(q));
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
  expect_golden(to_string(q));
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
                 ErrorCode::NotProved, "checker.refuted",
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
  expect_golden(to_string(q));
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
                 ErrorCode::NotProved, "checker.refuted",
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
                 ErrorCode::NotProved, "scope.escapes",
                 "'t' is defined before the gap and used after it");
}

TEST(Fission, RefusesAGapAtTheEndOfTheBody) {
  Proc p = parse_proc(kTwo);
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[1].after()); }, "fission",
                 ErrorCode::NotProved, "stmt.empty_part", "at the end of the body");
}

TEST(Fission, RefusesMoreLiftsThanEnclosingScopes) {
  Proc p = parse_proc(kTwo);
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[0].after(), {.n_lifts = 2}); },
                 "fission", ErrorCode::NotProved, "stmt.no_enclosing_scope",
                 "n_lifts is too large");
}

TEST(Fission, RefusesNonPositiveLifts) {
  Proc p = parse_proc(kTwo);
  expect_refused([&] { fission(p, p.body_cursor()[0].body()[0].after(), {.n_lifts = 0}); },
                 "fission", ErrorCode::BadArgument, "arg.range", "n_lifts must be at least 1");
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
                 ErrorCode::NotProved, "checker.value_changed",
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

namespace {

const char* kFooTwoLoops = R"(def foo(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
)";

// Ported from Exo tests/test_config.py.
// The limits of the rule that lets test_config_fission through (checker/queries_config.h,
// config_fields_settled_before): a write whose value changes inside the loop, or a field the
// part after the gap writes, still blocks the split.
TEST(Fission, ConfigWriteOfValueChangedInLoopBlocksFission) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, x: f32 @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        ConfigLoad.scale = x
        y[i] = ConfigLoad.scale
        x = 2.0
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { fission(foo, foo.find("ConfigLoad.scale = _").after()); }, "fission",
                 ErrorCode::NotProved, "checker.refuted", "reorders two conflicting statements");
}

// Ported from Exo tests/test_config.py.
TEST(Fission, ConfigFieldWrittenAfterTheGapBlocksFission) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, y: f32[n] @ DRAM):
    for i in seq(0, n):
        ConfigLoad.scale = 2.0
        y[i] = ConfigLoad.scale
        ConfigLoad.scale = 3.0
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { fission(foo, foo.find("ConfigLoad.scale = _").after()); }, "fission",
                 ErrorCode::NotProved, "checker.refuted", "reorders two conflicting statements");
}

// Exo tests/test_schedules.py::test_fission_after_simple, first case: each statement pair gets its
// own nest.
TEST(Fission, FissionAfterSimple) {
  Proc foo = parse_proc(kFooTwoLoops);
  Proc q = fission(foo, foo.find("x = _").after(), {.n_lifts = 2});
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32 @ DRAM
            x = 0.0
    for i in seq(0, n):
        for j in seq(0, m):
            y: f32 @ DRAM
            y = 1.1
)");
  expect_equivalent(foo, q, {{"n", 2}, {"m", 3}});
}

// Exo tests/test_schedules.py::test_fission_after_simple, second case: the first match is split;
// the later nest stays.
TEST(Fission, FissionAfterSimpleSplitsTheFirstMatchOnly) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
    for k in seq(0, 30):
        for l in seq(0, 100):
            x: i8
            x = 4.0
            y: f32
            y = 1.1
)");
  Proc q = fission(bar, bar.find("x = _").after(), {.n_lifts = 2});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32 @ DRAM
            x = 0.0
    for i in seq(0, n):
        for j in seq(0, m):
            y: f32 @ DRAM
            y = 1.1
    for k in seq(0, 30):
        for l in seq(0, 100):
            x: i8 @ DRAM
            x = 4.0
            y: f32 @ DRAM
            y = 1.1
)");
}

// Exo tests/test_schedules.py::test_fission_after_simple_fail: one loop, two lifts asked for. Exo
// says "Can only lift past a for loop"; ours names the missing scope.
TEST(Fission, FissionAfterSimpleFailsPastTheProc) {
  Proc foo = parse_proc(R"(def foo():
    for i in seq(0, 4):
        x: i8
        x = 0.0
        y: i8
        y = 1.0
)");
  expect_refused([&] { fission(foo, foo.find("x = 0.0").after(), {.n_lifts = 2}); }, "fission",
                 ErrorCode::NotProved, "stmt.no_enclosing_scope",
                 "there is no enclosing loop or if to split (n_lifts is too large)");
}

// Exo tests/test_schedules.py::test_simple_fission: autofission of two reductions; neither copy can
// be removed.
TEST(Fission, SimpleFission) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n], B: i8[n], C: i8[n]):
    for i in seq(0, n):
        C[i] += A[i]
        C[i] += B[i]
)");
  Proc q = autofission(bar, bar.find("C[_] += A[_]").after());
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM, B: i8[n] @ DRAM, C: i8[n] @ DRAM):
    for i in seq(0, n):
        C[i] += A[i]
    for i in seq(0, n):
        C[i] += B[i]
)");
  expect_equivalent(bar, q, {{"n", 5}});
}

// Exo tests/test_schedules.py::test_fission: autofission through two loops whose copies use neither
// iterator, so all four copies are removed (sizes are positive, so every loop runs and no guard is
// needed).
TEST(Fission, FissionRemovesEveryLoopCopy) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
)");
  Proc q = autofission(bar, bar.find("x = _").after(), {.n_lifts = 2});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size):
    x: f32 @ DRAM
    x = 0.0
    y: f32 @ DRAM
    y = 1.1
)");
}

// Exo tests/test_schedules.py::test_fission2: x is allocated before the gap and read after it. Exo:
// "Will not fission here".
TEST(Fission, Fission2RefusesAnAllocationUsedAcrossTheGap) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
            y = x
)");
  expect_refused([&] { autofission(bar, bar.find("x = _").after(), {.n_lifts = 2}); },
                 "autofission", ErrorCode::NotProved, "scope.escapes",
                 "'x' is defined before the gap and used after it");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(Fission, FissionRefusesBoundsTheFirstHalfWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 4
        A[i] = 1.0
        B[i] = 2.0
)");
  expect_refused([&] { fission(p, p.find("A[_] = _").after()); }, "fission", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(Fission, FissionRefusesAConditionTheFirstHalfWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    if C.n > 4:
        C.n = 2
        B[0] = 2.0
)");
  expect_refused([&] { fission(p, p.find("C.n = _ #1").after()); }, "fission", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(Fission, FissionAcceptsAConditionOnlyTheSecondHalfWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    if C.n > 4:
        A[0] = 1.0
        C.n = 2
)");
  Proc q = fission(p, p.find("A[_] = _").after());
  expect_equivalent(p, q);
}

}  // namespace
