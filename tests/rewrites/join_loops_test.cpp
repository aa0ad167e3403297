// Tests of join_loops: golden + equivalence, refusals (bodies differ, ranges not consecutive,
// not adjacent) and forwarding.
#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N + 4] @ DRAM):
    for i in seq(0, 4):
        A[i] = 1.0
    for j in seq(4, N + 4):
        A[j] = 1.0
)";

TEST(JoinLoops, ConsecutiveRanges) {
  Proc p = parse_proc(kSrc);
  Proc q = join_loops(p, p.body_cursor()[0], p.body_cursor()[1]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(JoinLoops, RefusesDifferentBodies) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 4] @ DRAM):
    for i in seq(0, 4):
        A[i] = 1.0
    for j in seq(4, N + 4):
        A[j] = 2.0
)");
  expect_refused([&] { join_loops(p, p.body_cursor()[0], p.body_cursor()[1]); }, "join_loops",
                 ErrorCode::NotProved, "stmt.form", "differ");
}

TEST(JoinLoops, RefusesAGapBetweenTheRanges) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 4] @ DRAM):
    for i in seq(0, 3):
        A[i] = 1.0
    for j in seq(4, N + 4):
        A[j] = 1.0
)");
  expect_refused([&] { join_loops(p, p.body_cursor()[0], p.body_cursor()[1]); }, "join_loops",
                 ErrorCode::NotProved, "checker.refuted", "where the second begins ('4'), but");
}

TEST(JoinLoops, RefusesLoopsThatAreNotAdjacent) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { join_loops(p, p.body_cursor()[1], p.body_cursor()[0]); }, "join_loops",
                 ErrorCode::BadArgument, "target.not_adjacent");
}

TEST(JoinLoops, ForwardsTheFirstLoopAndInvalidatesTheSecond) {
  Proc p = parse_proc(kSrc);
  Proc q = join_loops(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.forward(p.body_cursor()[0].body()[0]).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_FALSE(q.forward(p.body_cursor()[1]).is_valid());
}

}  // namespace

namespace {

const char* kTwoLoops = R"(
def f(M: size, N: size, A: f32[N + M] @ DRAM):
    for i in seq(0, M):
        A[i] = 1.0
    for i in seq(M, N):
        A[i] = 1.0
)";

// Exo tests/test_schedules.py::test_join_loops_equiv_but_diff_bounds: `n % 4` equals 2 under the
// assert.
TEST(JoinLoops, JoinLoopsEquivButDiffBounds) {
  Proc foo = parse_proc(R"(def foo(n: size, x: i8[4]):
    assert n % 4 == 2
    for i in seq(0, 2):
        x[i] = 0.0
    for i in seq(n % 4, 4):
        x[i] = 0.0
)");
  Proc q = join_loops(foo, foo.find_loop("i"), foo.find_loop("i #1"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: i8[4] @ DRAM):
    assert n % 4 == 2
    for i in seq(0, 4):
        x[i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 2}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// Exo tests/test_schedules.py::test_join_loops_fail_equal_bounds. Exo: "expected the first loop
// upper bound n to be the same as the second loop lower bound n + 1".
TEST(JoinLoops, JoinLoopsFailEqualBounds) {
  Proc foo = parse_proc(R"(def foo(n: size, x: i8[n + 2]):
    for i in seq(0, n):
        x[i] = 0.0
    for i in seq(n + 1, n + 2):
        x[i] = 0.0
)");
  expect_refused([&] { join_loops(foo, foo.find_loop("i"), foo.find_loop("i #1")); }, "join_loops",
                 ErrorCode::NotProved, "checker.refuted",
                 "the first loop ends ('n') where the second begins ('n + 1')");
}

// Exo tests/test_schedules.py::test_join_loops_fail_type_match: the bodies allocate x with
// different precisions.
TEST(JoinLoops, JoinLoopsFailTypeMatch) {
  Proc foo = parse_proc(R"(def foo():
    for i in seq(0, 2):
        x: i8[4]
        x[i] = 0.0
    for i in seq(2, 4):
        x: f32[4]
        x[i] = 0.0
)");
  expect_refused([&] { join_loops(foo, foo.find_loop("i"), foo.find_loop("i #1")); }, "join_loops",
                 ErrorCode::NotProved, "stmt.form", "the bodies of loops i and i differ");
}

// Exo tests/test_schedules.py::test_join_loops_body_match: bodies holding an allocation, a window
// statement and a call with the window match.
TEST(JoinLoops, JoinLoopsWithWindowsAndCallsInTheBody) {
  const char* body = R"(
        x[i] = 0.0
        x[i] += -(1.0 + x[i])
        for j in seq(0, 1):
            if i == j:
                pass
        a: i8[4, 2]
        y = a[1:3, 1:2]
        do_nothing(y)
)";
  Module m = parse_module(std::string(R"(def do_nothing(x: [i8][2, 1]):
    pass

def foo(n: size, x: i8[n + 1]):
    for i in seq(0, n):)") +
                          body + "    for i in seq(n, n + 1):" + body);
  Proc foo = m.proc("foo");
  Proc q = join_loops(foo, foo.find_loop("i"), foo.find_loop("i #1"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: i8[n + 1] @ DRAM):
    for i in seq(0, n + 1):
        x[i] = 0.0
        x[i] += -(1.0 + x[i])
        for j in seq(0, 1):
            if i == j:
                pass
        a: i8[4, 2] @ DRAM
        y = a[1:3, 1:2]
        do_nothing(y)
)");
  expect_equivalent(foo, q, {{"n", 3}});
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(JoinLoops, JoinLoopsRefusesAMidPointBeyondTheUpperBound) {
  Proc p = parse_proc(kTwoLoops);
  expect_refused([&] { join_loops(p, "i #0", "i #1"); }, "join_loops", ErrorCode::NotProved,
                 "checker.refuted", "the second loop's range is not negative");
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(JoinLoops, JoinLoopsRefusesAMidPointBelowTheLowerBound) {
  Proc p = parse_proc(R"(
def f(M: size, N: size, A: f32[N + M + 4] @ DRAM):
    for i in seq(4, M):
        A[i] = 1.0
    for i in seq(M, N):
        A[i] = 1.0
)");
  expect_refused([&] { join_loops(p, "i #0", "i #1"); }, "join_loops", ErrorCode::NotProved,
                 "checker.refuted", "the first loop's range is not negative");
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(JoinLoops, JoinLoopsAcceptsOrderedBounds) {
  Proc p = parse_proc(R"(
def f(M: size, N: size, A: f32[N] @ DRAM):
    assert M <= N
    for i in seq(0, M):
        A[i] = 1.0
    for i in seq(M, N):
        A[i] = 1.0
)");
  Proc q = join_loops(p, "i #0", "i #1");
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {1, 2}, {3, 3}, {2, 7}})
    expect_equivalent(p, q, {{"M", m}, {"N", n}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(JoinLoops, JoinLoopsRefusesSecondBoundsTheFirstLoopWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, 4):
        C.n = 6
        A[i] = 1.0
    for i in seq(4, C.n):
        C.n = 6
        A[i] = 1.0
)");
  expect_refused([&] { join_loops(p, "i #0", "i #1"); }, "join_loops", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

// Par loops: a par result's iterations must be proved independent.
// Two par loops over consecutive ranges: joined, an iteration of the first may run after one of
// the second.
TEST(JoinLoops, JoinLoopsRefusesParLoopsThatDependOnEachOther) {
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
  expect_refused([&] { join_loops(r, "i", "j"); }, "join_loops", ErrorCode::NotProved,
                 "checker.par_conflict", kParLoopNeedle);
}

}  // namespace
