// Tests of lift_scope: each shape of the rewrite (golden + equivalence), the refusals
// (condition uses the loop variable, parent has other statements, if with else around a loop,
// top level, not a loop or if) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(LiftScope, IfOutOfALoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if N > 4:
            A[i] = 1.0
        else:
            A[i] = 2.0
)");
  Proc q = lift_scope(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(LiftScope, LoopOutOfAnIf) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    if N > 4:
        for i in seq(0, N):
            A[i] = 1.0
)");
  Proc q = lift_scope(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(LiftScope, IfOutOfAnIfBody) {
  Proc p = parse_proc(R"(def f(N: size, M: size, x: f32 @ DRAM):
    if N > 4:
        if M > 4:
            x = 1.0
        else:
            x = 2.0
    else:
        x = 3.0
)");
  Proc q = lift_scope(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(LiftScope, IfOutOfAnElseBranch) {
  Proc p = parse_proc(R"(def f(N: size, M: size, x: f32 @ DRAM):
    if N > 4:
        x = 1.0
    else:
        if M > 4:
            x = 2.0
        else:
            x = 3.0
)");
  Proc q = lift_scope(p, p.body_cursor()[0].orelse()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(LiftScope, LoopOutOfALoopIsAReorder) {
  Proc p = parse_proc(R"(def f(N: size, M: size, A: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            A[i, j] = 1.0
)");
  Proc q = lift_scope(p, p.body_cursor()[0].body()[0]);
  EXPECT_EQ(to_string(q), to_string(reorder_loops(p, "i j")));
  expect_equivalent(p, q);
}

TEST(LiftScope, RefusesAConditionOnTheLoopVariable) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i > 4:
            A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, p.body_cursor()[0].body()[0]); }, "lift_scope",
                 ErrorCode::NotProved, "dep.loop_variant", "depends on the loop variable i");
}

// The outer if guards the inner condition's read: swapped, H[i + 1] would be read for i = N - 1.
TEST(LiftScope, RefusesToEvaluateAGuardedReadUnguarded) {
  Proc p = parse_proc(R"(def f(N: size, H: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        if i < N - 1:
            if H[i + 1] >= 0.0:
                x = 1.0
)");
  expect_refused([&] { lift_scope(p, p.find("if H[_] >= _: _")); }, "lift_scope",
                 ErrorCode::NotProved, "expr.unsafe_to_move",
                 "the read of H at index 'i + 1' (dimension 0) lies in the buffer where the if "
                 "goes, since the condition is evaluated there whatever 'i < N - 1' is");
}

// Out of a loop that may run no iteration, a condition reading the buffer the loop walks would
// be evaluated on an empty buffer.
TEST(LiftScope, RefusesAReadOnlyTheLoopsIterationsMadeSafe) {
  Proc p = parse_proc(R"(def f(N: size, K: index, H: f32[N] @ DRAM, x: f32 @ DRAM):
    assert K >= 0
    for i in seq(0, N - K):
        if H[K] >= 0.0:
            x = 1.0
)");
  expect_refused([&] { lift_scope(p, p.find("if H[_] >= _: _")); }, "lift_scope",
                 ErrorCode::NotProved, "expr.unsafe_to_move",
                 "even when the loop runs no iteration");
}

// A read in bounds wherever the if goes is lifted as before.
TEST(LiftScope, LiftsADataConditionReadInBoundsEverywhere) {
  Proc p = parse_proc(R"(def f(N: size, H: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        if i < N - 1:
            if H[0] >= 0.0:
                x = 1.0
)");
  Proc q = lift_scope(p, p.find("if H[_] >= _: _"));
  EXPECT_NE(to_string(q).find("    for i in seq(0, N):\n        if H[0] >= 0.0:"),
            std::string::npos)
      << q;
  expect_equivalent(p, q);
}

TEST(LiftScope, RefusesAConditionOnAConfigTheBranchesWrite) {
  Proc p = parse_proc(R"(config Cfg:
    n: index

def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if Cfg.n > 0:
            Cfg.n = 0
            A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, p.body_cursor()[0].body()[0]); }, "lift_scope",
                 ErrorCode::NotProved, "checker.value_changed",
                 "evaluated once instead of in every iteration");
}

TEST(LiftScope, RefusesALoopWritingAConfigTheConditionReads) {
  Proc p = parse_proc(R"(config Cfg:
    n: index

def f(N: size, A: f32[N] @ DRAM):
    if Cfg.n > 0:
        for i in seq(0, N):
            Cfg.n = 0
            A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, p.body_cursor()[0].body()[0]); }, "lift_scope",
                 ErrorCode::NotProved, "checker.value_changed",
                 "evaluated in every iteration of the loop");
}

TEST(LiftScope, ForwardsTheCopiedElseBranchToItsFirstCopy) {
  Proc p = parse_proc(R"(def f(N: size, M: size, x: f32 @ DRAM):
    if N > 4:
        if M > 4:
            x = 1.0
    else:
        x = 3.0
)");
  Cursor c_branch = p.body_cursor()[0].orelse()[0];
  Proc q = lift_scope(p, p.body_cursor()[0].body()[0]);
  EXPECT_EQ(q.forward(c_branch).loc(), q.body_cursor()[0].body()[0].orelse()[0].loc());
  EXPECT_EQ(q.forward(c_branch).to_string(), "x = 3.0");
  expect_equivalent(p, q);
}

TEST(LiftScope, RefusesAParentWithOtherStatements) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 0.0
        if N > 4:
            A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, p.body_cursor()[0].body()[1]); }, "lift_scope",
                 ErrorCode::NotProved, "loop.not_a_perfect_nest");
}

TEST(LiftScope, RefusesALoopOutOfAnIfWithElse) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    if N > 4:
        for i in seq(0, N):
            A[i] = 1.0
    else:
        A[0] = 2.0
)");
  expect_refused([&] { lift_scope(p, p.body_cursor()[0].body()[0]); }, "lift_scope",
                 ErrorCode::NotProved, "stmt.form", "has an else branch");
}

TEST(LiftScope, RefusesATopLevelStatement) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, p.body_cursor()[0]); }, "lift_scope", ErrorCode::NotProved,
                 "stmt.no_enclosing_scope", "top level");
}

TEST(LiftScope, RefusesAnAssignment) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, p.body_cursor()[0].body()[0]); }, "lift_scope",
                 ErrorCode::BadArgument, "target.wrong_kind", "expected a loop or an if");
}

TEST(LiftScope, ForwardsBranchesAndHeads) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if N > 4:
            A[i] = 1.0
        else:
            A[i] = 2.0
)");
  Cursor loop = p.body_cursor()[0], cond = loop.body()[0], then_s = cond.body()[0],
         else_s = cond.orelse()[0];
  Proc q = lift_scope(p, cond);
  EXPECT_EQ(q.forward(cond).loc(), q.body_cursor()[0].loc());
  EXPECT_EQ(q.forward(loop).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(then_s).loc(), q.body_cursor()[0].body()[0].body()[0].loc());
  EXPECT_EQ(q.forward(else_s).loc(), q.body_cursor()[0].orelse()[0].body()[0].loc());
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_lift_scope: a loop moves out of an if without else.
TEST(LiftScope, LiftScope) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n, n]):
    for j in seq(0, n):
        if j < 10:
            for i in seq(0, n):
                x[i, j] = 1.0
)");
  Proc q = lift_scope(foo, "for i in _: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n, n] @ DRAM):
    for j in seq(0, n):
        for i in seq(0, n):
            if j < 10:
                x[i, j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}});
  expect_equivalent(foo, q, {{"n", 13}});
}

// Exo tests/test_schedules.py::test_lift_scope_lift_for_when_outer_if_has_noelse_error: Exo says
// "cannot lift for loop when if has an orelse clause".
TEST(LiftScope, LiftScopeLiftForWhenOuterIfHasElseError) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    if n < 10:
        for i in seq(0, n):
            x[i] = 1.0
    else:
        pass
)");
  expect_refused([&] { lift_scope(foo, "for i in _: _"); }, "lift_scope", ErrorCode::NotProved,
                 "stmt.form", "cannot lift a loop out of an if that has an else branch");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(LiftScope, LiftScopeRefusesAConditionTheLoopWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, 8):
        if C.n > 4:
            C.n = 2
            A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, "if _: _"); }, "lift_scope", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

}  // namespace
