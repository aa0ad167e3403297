// lift_if (rewrites/lift_if.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include "replace_test.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kIfInIfInLoop = R"(def foo(n: size, x: R[n], i: index):
    for j in seq(0, n):
        if n > 20:
            if i < 10:
                x[j] = 1.0
)";

const char* kIfInTwoLoops = R"(def f(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            if N > 4:
                A[i, j] = 1.0
            else:
                A[i, j] = 2.0
)";

// Exo tests/test_schedules.py::test_lift_if_halfway: one lift moves the inner if above the outer
// one.
TEST(LiftIf, LiftIfHalfway) {
  Proc foo = parse_proc(kIfInIfInLoop);
  Proc q = lift_if(foo, "if i < 10: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    for j in seq(0, n):
        if i < 10:
            if n > 20:
                x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 12}, {"i", 11}});
}

// Exo tests/test_schedules.py::test_lift_if_in_else_branch_of_parent: the lifted if lives in the
// parent's else branch, so the parent is copied into both of its branches.
TEST(LiftIf, LiftIfInElseBranchOfParent) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    if 10 < n:
        x[0] = 1.0
    else:
        if n < 20:
            x[0] = 2.0
        else:
            x[0] = 3.0
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    if n < 20:
        if 10 < n:
            x[0] = 1.0
        else:
            x[0] = 2.0
    else:
        if 10 < n:
            x[0] = 1.0
        else:
            x[0] = 3.0
)");
  expect_equivalent(foo, q, {{"n", 5}});
  expect_equivalent(foo, q, {{"n", 15}});
  expect_equivalent(foo, q, {{"n", 25}});
}

// Exo tests/test_schedules.py::test_lift_if_in_full_nest: both branches of the parent are ifs; the
// else one is lifted.
TEST(LiftIf, LiftIfInFullNest) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    if 10 < n:
        if n < 15:
            x[0] = 1.0
        else:
            x[0] = 2.0
    else:
        if n < 20:
            x[0] = 3.0
        else:
            x[0] = 4.0
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    if n < 20:
        if 10 < n:
            if n < 15:
                x[0] = 1.0
            else:
                x[0] = 2.0
        else:
            x[0] = 3.0
    else:
        if 10 < n:
            if n < 15:
                x[0] = 1.0
            else:
                x[0] = 2.0
        else:
            x[0] = 4.0
)");
  expect_equivalent(foo, q, {{"n", 5}});
  expect_equivalent(foo, q, {{"n", 12}});
  expect_equivalent(foo, q, {{"n", 17}});
  expect_equivalent(foo, q, {{"n", 25}});
}

// Exo tests/test_schedules.py::test_lift_if_middle: the outer if of the nest moves out of the loop.
TEST(LiftIf, LiftIfMiddle) {
  Proc foo = parse_proc(kIfInIfInLoop);
  Proc q = lift_if(foo, "if n > 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    if n > 20:
        for j in seq(0, n):
            if i < 10:
                x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 12}, {"i", 3}});
}

// Exo tests/test_schedules.py::test_lift_if_past_for: an if independent of the loop moves out of
// it.
TEST(LiftIf, LiftIfPastFor) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: index):
    for j in seq(0, n):
        if i < 10:
            x[j] = 1.0
)");
  Proc q = lift_if(foo, "if i < 10: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    if i < 10:
        for j in seq(0, n):
            x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 7}, {"i", 12}});
}

// Exo tests/test_schedules.py::test_lift_if_past_if: two ifs without else swap.
TEST(LiftIf, LiftIfPastIf) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: index):
    assert i > 0
    if i < n:
        if i < 10:
            x[i] = 1.0
)");
  Proc q = lift_if(foo, "if i < 10: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    assert i > 0
    if i < 10:
        if i < n:
            x[i] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 5}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 15}, {"i", 12}});
}

// Exo tests/test_schedules.py::test_lift_if_past_if_then_for: two lifts, past the if and then past
// the loop.
TEST(LiftIf, LiftIfPastIfThenFor) {
  Proc foo = parse_proc(kIfInIfInLoop);
  Proc q = lift_if(foo, "if i < 10: _", 2);
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    if i < 10:
        for j in seq(0, n):
            if n > 20:
                x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 12}, {"i", 11}});
}

// Exo tests/test_schedules.py::test_lift_if_with_else_past_if: the lifted if's else branch gets its
// own copy of the parent.
TEST(LiftIf, LiftIfWithElsePastIf) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: size):
    assert n > 10
    if i < 10:
        if n > 20:
            x[i] = 1.0
        else:
            x[i] = 2.0
)");
  Proc q = lift_if(foo, "if n > 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: size):
    assert n > 10
    if n > 20:
        if i < 10:
            x[i] = 1.0
    else:
        if i < 10:
            x[i] = 2.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 15}, {"i", 12}});
}

// Exo tests/test_schedules.py::test_lift_if_with_else_past_if_with_else: both ifs have an else; the
// parent's else branch is copied into both branches of the lifted if.
TEST(LiftIf, LiftIfWithElsePastIfWithElse) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: size):
    assert n > 10
    assert i < n
    if i < 10:
        if n > 20:
            x[i] = 1.0
        else:
            x[i] = 2.0
    else:
        x[i] = 3.0
)");
  Proc q = lift_if(foo, "if n > 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: size):
    assert n > 10
    assert i < n
    if n > 20:
        if i < 10:
            x[i] = 1.0
        else:
            x[i] = 3.0
    else:
        if i < 10:
            x[i] = 2.0
        else:
            x[i] = 3.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 25}, {"i", 22}});
  expect_equivalent(foo, q, {{"n", 15}, {"i", 12}});
}

// Exo tests/test_schedules.py::test_lift_if_with_pass_body
TEST(LiftIf, LiftIfWithPassBody) {
  Proc foo = parse_proc(R"(def foo(n: size):
    if 10 < n:
        if n < 20:
            pass
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    if n < 20:
        if 10 < n:
            pass
)");
  expect_equivalent(foo, q, {{"n", 5}});
  expect_equivalent(foo, q, {{"n", 15}});
}

// Exo tests/test_schedules.py::test_lift_if_with_pass_body_and_else
TEST(LiftIf, LiftIfWithPassBodyAndElse) {
  Proc foo = parse_proc(R"(def foo(n: size):
    if 10 < n:
        if n < 20:
            pass
        else:
            pass
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    if n < 20:
        if 10 < n:
            pass
    else:
        if 10 < n:
            pass
)");
  expect_equivalent(foo, q, {{"n", 15}});
  expect_equivalent(foo, q, {{"n", 25}});
}

// Exo tests/test_schedules.py::test_lift_if_dependency_error: Exo says "if statement depends on
// iteration variable".
TEST(LiftIf, LiftIfDependencyError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        if i < 10:
            x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if i < 10: _"); }, "lift_if", ErrorCode::NotProved,
                 "dep.loop_variant", "the condition 'i < 10' depends on the loop variable i");
}

// Exo tests/test_schedules.py::test_lift_if_second_statement_in_else_error: Exo says "expected if
// statement to be directly nested in parent".
TEST(LiftIf, LiftIfSecondStatementInElseError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        if m > 12:
            pass
        else:
            x[0] = 1.0
            if i < 10:
                x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if i < 10: _"); }, "lift_if", ErrorCode::NotProved,
                 "loop.not_a_perfect_nest",
                 "to be the only statement of its enclosing 'if m > 12: ...', which holds 2");
}

// Exo tests/test_schedules.py::test_lift_if_second_statement_in_for_error
TEST(LiftIf, LiftIfSecondStatementInForError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        x[0] = 1.0
        if m > 12:
            pass
)");
  expect_refused([&] { lift_if(foo, "if m > 12: _"); }, "lift_if", ErrorCode::NotProved,
                 "loop.not_a_perfect_nest",
                 "to be the only statement of its enclosing 'for i in seq(0, m): ...', which "
                 "holds 2");
}

// Exo tests/test_schedules.py::test_lift_if_second_statement_in_then_error
TEST(LiftIf, LiftIfSecondStatementInThenError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        if m > 12:
            x[0] = 1.0
            if i < 10:
                x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if i < 10: _"); }, "lift_if", ErrorCode::NotProved,
                 "loop.not_a_perfect_nest",
                 "to be the only statement of its enclosing 'if m > 12: ...', which holds 2");
}

// Exo tests/test_schedules.py::test_lift_if_too_high_error: Exo says "Cannot lift scope of
// top-level statement".
TEST(LiftIf, LiftIfTooHighError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m], j: size):
    for i in seq(0, m):
        if j < 10:
            x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if j < 10: _", 2); }, "lift_if", ErrorCode::NotProved,
                 "stmt.no_enclosing_scope", "the statement is at the top level of the proc");
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(LiftIf, LiftsTheIfOutOfBothLoops) {
  Proc p = parse_proc(kIfInTwoLoops);
  Proc q = lift_if(p, "if _: _", 2);
  EXPECT_TRUE(q.body_cursor()[0].stmt().as<IfNode>()) << q;
  expect_equivalent(p, q, {{"N", 3}});
  expect_equivalent(p, q, {{"N", 6}});
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(LiftIf, ARefusalSaysHowManyLiftsRemain) {
  Proc p = parse_proc(kIfInTwoLoops);
  expect_refused([&] { lift_if(p, "if _: _", 3); }, "lift_if", ErrorCode::NotProved,
                 "stmt.no_enclosing_scope", "1 lift(s) remain");
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(LiftIf, RefusesALoop) {
  Proc p = parse_proc(kIfInTwoLoops);
  expect_refused([&] { lift_if(p, "for j in _: _"); }, "lift_if", ErrorCode::BadArgument,
                 "target.wrong_kind", "must be an if");
}

}  // namespace

namespace {

TEST(LiftIf, RefusesADataConditionTheLoopChanges) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[4] @ DRAM):
    for i in seq(0, n):
        if x[0] > 0.0:
            x[0] = x[0] - 1.0
)");
  expect_refused([&] { lift_if(p, p.body_cursor()[0].body()[0]); }, "lift_if", ErrorCode::NotProved,
                 "checker.value_changed", "x[0] > 0.0");
}

TEST(LiftIf, LiftsADataConditionTheLoopLeavesAlone) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[4] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        if x[0] > 0.0:
            y[i] = x[1]
        else:
            y[i] = 0.0
)");
  Proc q = lift_if(p, p.body_cursor()[0].body()[0]);
  EXPECT_TRUE(has(q, "    if x[0] > 0.0:\n        for i in seq(0, n):"));
  expect_equivalent(p, q);
}

}  // namespace
