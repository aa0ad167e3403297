// eliminate_dead_code: branches and loops the checker proves never run.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < N:
            A[i] = 1.0
        else:
            A[i] = 2.0
        if i >= N + 1:
            A[i] = 3.0
)";

Cursor loop_stmt(const Proc& p, int k) { return p.body_cursor()[0].body()[k]; }

TEST(EliminateDeadCode, KeepsTheBranchThatAlwaysRuns) {
  Proc p = parse_proc(kSrc);
  Proc q = eliminate_dead_code(p, loop_stmt(p, 0));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, RemovesAnIfThatNeverRuns) {
  Proc p = parse_proc(kSrc);
  Proc q = eliminate_dead_code(p, loop_stmt(p, 1));
  EXPECT_EQ(q.body()[0].as<ForNode>()->body.size(), 1u);
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, KeepsTheElseBranchOfAFalseCondition) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    if N < 1:
        A[0] = 1.0
    else:
        A[0] = 2.0
)");
  Proc q = eliminate_dead_code(p, p.body_cursor()[0]);
  EXPECT_EQ(to_string(q.body()), "A[0] = 2.0\n");
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, RemovesAnEmptyLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    A[0] = 0.0
    for i in seq(N, N):
        A[i] = 1.0
)");
  Proc q = eliminate_dead_code(p, p.body_cursor()[1]);
  EXPECT_EQ(to_string(q.body()), "A[0] = 0.0\n");
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, LeavesAPassInAnEmptiedBody) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, i - i):
            A[i] = 1.0
)");
  Proc q = eliminate_dead_code(p, p.body_cursor()[0].body()[0]);
  EXPECT_EQ(to_string(q.body()), "for i in seq(0, N):\n    pass\n");
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, RefusesAConditionThatVaries) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < 2:
            A[i] = 1.0
)");
  expect_refused([&] { eliminate_dead_code(p, p.body_cursor()[0].body()[0]); },
                 "eliminate_dead_code", ErrorCode::NotProved, "checker.refuted",
                 "may be true or false");
}

TEST(EliminateDeadCode, RefusesALoopThatMayRun) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { eliminate_dead_code(p, p.body_cursor()[0]); }, "eliminate_dead_code",
                 ErrorCode::NotProved, "checker.refuted", "never runs");
}

TEST(EliminateDeadCode, RefusesAnAssignment) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    A[0] = 1.0
)");
  expect_refused([&] { eliminate_dead_code(p, p.body_cursor()[0]); }, "eliminate_dead_code",
                 ErrorCode::BadArgument, "target.wrong_kind");
}

TEST(EliminateDeadCode, ForwardsTheKeptBranch) {
  Proc p = parse_proc(kSrc);
  Cursor kept = loop_stmt(p, 0).body()[0];
  Cursor dropped = loop_stmt(p, 0).orelse()[0];
  Proc q = eliminate_dead_code(p, loop_stmt(p, 0));
  EXPECT_EQ(q.forward(kept).to_string(), "A[i] = 1.0");
  EXPECT_EQ(q.forward(kept).loc().block.size(), 1u);
  EXPECT_FALSE(q.forward(dropped).is_valid());
}

TEST(EliminateDeadCode, AcceptsAnIfPattern) {
  Proc p = parse_proc(kSrc);
  EXPECT_EQ(to_string(eliminate_dead_code(p, "if _: _ #1")),
            to_string(eliminate_dead_code(p, loop_stmt(p, 1))));
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_eliminate_dead_code: `i + 3 > -1` always holds, so the
// then-branch replaces the if.
TEST(EliminateDeadCode, EliminateDeadCodeKeepsTheThenBranch) {
  Proc foo = parse_proc(R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        if i + 3 > -1:
            x = 0.0
            a: R
            a = x
        else:
            b: R
            b = x
)");
  Proc q = eliminate_dead_code(foo, "if _:_ #0");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        x = 0.0
        a: R @ DRAM
        a = x
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_eliminate_dead_code2: `i + 3 < -1` never holds, so the
// else-branch replaces the if.
TEST(EliminateDeadCode, EliminateDeadCode2KeepsTheElseBranch) {
  Proc foo = parse_proc(R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        if i + 3 < -1:
            x = 0.0
            a: R
            a = x
        else:
            b: R
            b = x
)");
  Proc q = eliminate_dead_code(foo, "if _:_ #0");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        b: R @ DRAM
        b = x
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_eliminate_dead_code3: an always-true if without an else.
TEST(EliminateDeadCode, EliminateDeadCode3AlwaysTrueWithoutElse) {
  Proc foo = parse_proc(R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        if i + 3 > -1:
            x = 0.0
            a: R
            a = x
)");
  Proc q = eliminate_dead_code(foo, "if _:_ #0");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        x = 0.0
        a: R @ DRAM
        a = x
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_eliminate_dead_code4: an always-false if without an else is
// removed; the loop body left empty keeps a `pass`.
TEST(EliminateDeadCode, EliminateDeadCode4AlwaysFalseWithoutElse) {
  Proc foo = parse_proc(R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        if i + 3 < -1:
            x = 0.0
            a: R
            a = x
)");
  Proc q = eliminate_dead_code(foo, "if _:_ #0");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        pass
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_eliminate_dead_code5: `i < 4` holds for some iterations only.
// Exo: "If condition isn't always True or always False".
TEST(EliminateDeadCode, EliminateDeadCode5RefusesAConditionThatVaries) {
  Proc foo = parse_proc(R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        if i < 4:
            x = 0.0
)");
  expect_refused([&] { eliminate_dead_code(foo, "if _:_ #0"); }, "eliminate_dead_code",
                 ErrorCode::NotProved, "checker.refuted",
                 "may be true or false, so neither branch is dead");
}

// Exo tests/test_schedules.py::test_eliminate_dead_code6: the loop may run. Exo: "Loop condition
// isn't always False".
TEST(EliminateDeadCode, EliminateDeadCode6RefusesALoopThatRuns) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0, n):
        pass
)");
  expect_refused([&] { eliminate_dead_code(foo, foo.find_loop("i")); }, "eliminate_dead_code",
                 ErrorCode::NotProved, "checker.refuted", "the loop over 'i' never runs");
}

// Exo tests/test_schedules.py::test_eliminate_dead_code7: the copy of the loop in the else-branch
// of `if 0 < n` never runs and is removed, leaving `pass`.
TEST(EliminateDeadCode, EliminateDeadCode7RemovesTheLoopInTheDeadBranch) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0, n):
        x: f32
)");
  Proc s = specialize(foo, foo.find_loop("i"), {"0 < n"});
  Proc q = eliminate_dead_code(s, s.find_loop("i #1"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    if 0 < n:
        for i in seq(0, n):
            x: f32 @ DRAM
    else:
        pass
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 5}});
}

// Exo tests/test_schedules.py::test_eliminate_dead_code8: a loop from e to e never runs.
TEST(EliminateDeadCode, EliminateDeadCode8RemovesAnEmptyLoop) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq((7 + n) / 8 * 8, (7 + n) / 8 * 8):
        pass
)");
  Proc q = eliminate_dead_code(foo, foo.find_loop("i"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    pass
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 9}});
}

// Exo tests/test_schedules.py::test_eliminate_dead_code9: ((7 + n) / 8 * 8 + 7) / 8 * 8 equals (7 +
// n) / 8 * 8, so the loop never runs.
TEST(EliminateDeadCode, EliminateDeadCode9RemovesALoopWithEqualBounds) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0 + (7 + n) / 8 * 8, ((7 + n) / 8 * 8 + 7) / 8 * 8):
        pass
)");
  Proc q = eliminate_dead_code(foo, foo.find_loop("i"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    pass
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 13}});
}

}  // namespace
