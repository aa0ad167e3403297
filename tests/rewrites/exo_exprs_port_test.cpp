// Ports of Exo's eliminate_dead_code, fold_into_reduce, inline_assign, insert_noop_call,
// lift_reduce_constant, merge_writes and split_write cases of tests/test_schedules.py (the
// rewrite_expr, partial_eval and specialize cases are in exo_exprs2_port_test.cpp). Each test names
// the Exo case it ports; the expected text is Exo's golden in our printer's layout, or, where we
// deliberately differ, our result with the reason.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// test_eliminate_dead_code: `i + 3 > -1` always holds, so the then-branch replaces the if.
TEST(ExoExprsPort, EliminateDeadCodeKeepsTheThenBranch) {
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

// test_eliminate_dead_code2: `i + 3 < -1` never holds, so the else-branch replaces the if.
TEST(ExoExprsPort, EliminateDeadCode2KeepsTheElseBranch) {
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

// test_eliminate_dead_code3: an always-true if without an else.
TEST(ExoExprsPort, EliminateDeadCode3AlwaysTrueWithoutElse) {
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

// test_eliminate_dead_code4: an always-false if without an else is removed; the loop body left
// empty keeps a `pass`.
TEST(ExoExprsPort, EliminateDeadCode4AlwaysFalseWithoutElse) {
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

// test_eliminate_dead_code5: `i < 4` holds for some iterations only. Exo: "If condition isn't
// always True or always False".
TEST(ExoExprsPort, EliminateDeadCode5RefusesAConditionThatVaries) {
  Proc foo = parse_proc(R"(def foo():
    x: f32 @ DRAM
    for i in seq(0, 8):
        if i < 4:
            x = 0.0
)");
  expect_refused([&] { eliminate_dead_code(foo, "if _:_ #0"); }, "eliminate_dead_code",
                 "may be true or false, so neither branch is dead");
}

// test_eliminate_dead_code6: the loop may run. Exo: "Loop condition isn't always False".
TEST(ExoExprsPort, EliminateDeadCode6RefusesALoopThatRuns) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0, n):
        pass
)");
  expect_refused([&] { eliminate_dead_code(foo, foo.find_loop("i")); }, "eliminate_dead_code",
                 "the loop over 'i' never runs");
}

// test_eliminate_dead_code7: the copy of the loop in the else-branch of `if 0 < n` never runs
// and is removed, leaving `pass`.
TEST(ExoExprsPort, EliminateDeadCode7RemovesTheLoopInTheDeadBranch) {
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

// test_eliminate_dead_code8: a loop from e to e never runs.
TEST(ExoExprsPort, EliminateDeadCode8RemovesAnEmptyLoop) {
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

// test_eliminate_dead_code9: ((7 + n) / 8 * 8 + 7) / 8 * 8 equals (7 + n) / 8 * 8, so the loop
// never runs.
TEST(ExoExprsPort, EliminateDeadCode9RemovesALoopWithEqualBounds) {
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

// test_fold_into_reduce_1.
TEST(ExoExprsPort, FoldIntoReduce1) {
  Proc bar = parse_proc(R"(def bar(result: f32):
    result = result + 1.0
)");
  Proc q = fold_into_reduce(bar, bar.find("result = _"));
  EXPECT_EQ(to_string(q), R"(def bar(result: f32 @ DRAM):
    result += 1.0
)");
  expect_equivalent(bar, q);
}

// test_fold_into_reduce_2.
TEST(ExoExprsPort, FoldIntoReduce2) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j] + (x * x)
)");
  Proc q = fold_into_reduce(bar, bar.find("a[_] = _"));
  EXPECT_EQ(to_string(q), R"(def bar(m: size, n: size, a: f32[m, n] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] += x * x
)");
  expect_equivalent(bar, q, {{"m", 2}, {"n", 3}});
  expect_equivalent(bar, q, {{"m", 1}, {"n", 1}});
}

// test_fold_into_reduce_fail_1 (first of Exo's two cases of that name): a product, not a sum.
// Exo: "The rhs of the assignment must be an add."
TEST(ExoExprsPort, FoldIntoReduceFail1RefusesAProduct) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j] * x
)");
  expect_refused([&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
                 "is not an addition");
}

// test_fold_into_reduce_fail_1 (second of Exo's two cases of that name): a plain read.
TEST(ExoExprsPort, FoldIntoReduceFail1RefusesAPlainRead) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j]
)");
  expect_refused([&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
                 "is not an addition");
}

// test_fold_into_reduce_fail_3: the addition reads another element. Exo: "The lhs of the
// addition is not a read to the lhs of the assignment."
TEST(ExoExprsPort, FoldIntoReduceFail3RefusesAnotherElement) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n + 1], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j + 1] + x
)");
  expect_refused(
      [&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
      "requires that the addition reads the location 'a[i, j] = a[i, j + 1] + x' writes");
}

// test_fold_into_reduce_fail_4: the read is not the left operand of the outer addition.
TEST(ExoExprsPort, FoldIntoReduceFail4RefusesANestedRead) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = (x + a[i, j]) + x
)");
  expect_refused([&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
                 "is not a read of 'a'");
}

// test_inline_assign: x[1] = 1.0 is inlined into the reads of x[1] after it.
TEST(ExoExprsPort, InlineAssign) {
  Proc foo = parse_proc(R"(def foo(n: size, y: i8[n]):
    for i in seq(0, n):
        x: i8[5]
        x[1] = 1.0
        y[i] = x[1] + x[2]
        a: i8
        a = x[1]
)");
  Proc q = inline_assign(foo, foo.find("x = _"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, y: i8[n] @ DRAM):
    for i in seq(0, n):
        x: i8[5] @ DRAM
        y[i] = 1.0 + x[2]
        a: i8 @ DRAM
        a = 1.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 4}});
}

// test_inline_assign_fail: x[2] is written after x[1]. Exo refuses ("Cannot inline assign",
// its check not reasoning about indices); so do we, as x is written again in the block.
TEST(ExoExprsPort, InlineAssignFail) {
  Proc foo = parse_proc(R"(def foo(n: size, y: i8[n]):
    for i in seq(0, n):
        x: i8[5]
        x[1] = 1.0
        x[2] = 2.0
        y[i] = x[1] + x[2]
)");
  expect_refused([&] { inline_assign(foo, foo.find("x = _")); }, "inline_assign",
                 "'x' is written again later in the block");
}

// test_inline_assign_scalar.
TEST(ExoExprsPort, InlineAssignScalar) {
  Proc foo = parse_proc(R"(def foo(b: f32):
    a: f32
    a = 1.0
    b = a
)");
  Proc q = inline_assign(foo, foo.find("a = _"));
  EXPECT_EQ(to_string(q), R"(def foo(b: f32 @ DRAM):
    a: f32 @ DRAM
    b = 1.0
)");
  expect_equivalent(foo, q);
}

// Exo's x86 `prefetch` (exo/platforms/x86.py), a no-op instruction.
const char* kPrefetch = R"(@instr("_mm_prefetch(&{A_data}, {locality_hint});")
def prefetch(A: [R][1] @ DRAM, locality_hint: size):
    assert 0 <= locality_hint
    assert locality_hint < 8
    pass
)";

// test_insert_noop_call_bad_args: too few arguments (Exo: "Function argument count mismatch"),
// then a size where a window is expected (Exo: "Function argument type mismatch").
TEST(ExoExprsPort, InsertNoopCallBadArgs) {
  Module m = parse_module(std::string(kPrefetch) + R"(
def foo(n: size, x: i8[n], locality_hint: size):
    pass
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { insert_noop_call(foo, foo.find("pass").before(), m.proc("prefetch"), {}); },
                 "insert_noop_call", "'prefetch' takes 2 arguments, but 0 were given");
  expect_refused(
      [&] {
        insert_noop_call(foo, foo.find("pass").before(), m.proc("prefetch"),
                         {"n", "locality_hint"});
      },
      "insert_noop_call", "the call to 'prefetch' does not fit its signature");
}

// test_left_reassociate_expr_fail_2: the right operand is a subtraction. Exo: "same binary
// operation as the expression".
TEST(ExoExprsPort, LeftReassociateExprFail2) {
  Proc foo = parse_proc(R"(def foo(a: f32, b: f32, c: f32):
    b = a + (b - c)
)");
  expect_refused([&] { left_reassociate_expr(foo, "_ + _"); }, "left_reassociate_expr",
                 "is not also an addition");
}

// test_lift_reduce_constant_1: the left factor 3.0 is lifted.
TEST(ExoExprsPort, LiftReduceConstant1) {
  Proc foo = parse_proc(R"(def foo():
    x: R @ DRAM
    x = 0.0
    for i in seq(0, 8):
        x += 3.0 * 2.0
)");
  Proc q = lift_reduce_constant(foo, "x = 0.0; _");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: R @ DRAM
    x = 0.0
    for i in seq(0, 8):
        x += 2.0
    x = 3.0 * x
)");
  expect_equivalent(foo, q);
}

// test_lift_reduce_constant_2: two reductions scaled by 3.0, one in an inner loop.
TEST(ExoExprsPort, LiftReduceConstant2) {
  Proc foo = parse_proc(R"(def foo():
    x: R[2] @ DRAM
    y: R[8] @ DRAM
    x[0] = 0.0
    for i in seq(0, 8):
        for j in seq(0, 8):
            y[i] += y[i] * 2.0
        for k in seq(0, 8):
            x[0] += 3.0 * y[i]
        x[0] += 3.0 * y[i]
)");
  Proc q = lift_reduce_constant(foo, "x[0] = 0.0; _");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: R[2] @ DRAM
    y: R[8] @ DRAM
    x[0] = 0.0
    for i in seq(0, 8):
        for j in seq(0, 8):
            y[i] += y[i] * 2.0
        for k in seq(0, 8):
            x[0] += y[i]
        x[0] += y[i]
    x[0] = 3.0 * x[0]
)");
  expect_equivalent(foo, q);
}

// test_lift_reduce_constant_3: the factor y[j] does not change in the inner loop.
TEST(ExoExprsPort, LiftReduceConstant3) {
  Proc foo = parse_proc(R"(def foo():
    x: R @ DRAM
    y: R[8] @ DRAM
    for j in seq(0, 8):
        x = 0.0
        for i in seq(0, 8):
            x += y[j] * 2.0
)");
  Proc q = lift_reduce_constant(foo, "x = 0.0; _");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: R @ DRAM
    y: R[8] @ DRAM
    for j in seq(0, 8):
        x = 0.0
        for i in seq(0, 8):
            x += 2.0
        x = y[j] * x
)");
  expect_equivalent(foo, q);
}

// test_lift_reduce_constant_bad_1: x[1] is also reduced in the loop. Exo: "there are other
// operations on the same buffer that may interfere".
TEST(ExoExprsPort, LiftReduceConstantBad1) {
  Proc foo = parse_proc(R"(def foo():
    x: R[2] @ DRAM
    y: R[8] @ DRAM
    x[0] = 0.0
    for i in seq(0, 8):
        x[0] += 3.0 * y[i]
        x[1] += 2.0 * y[i]
)");
  expect_refused([&] { lift_reduce_constant(foo, "x[0] = 0.0; _"); }, "lift_reduce_constant",
                 "a reduction into 'x' has other indices than the assignment");
}

// test_lift_reduce_constant_bad_2: two accumulators of one buffer.
TEST(ExoExprsPort, LiftReduceConstantBad2) {
  Proc foo = parse_proc(R"(def foo():
    x: R[4] @ DRAM
    y: R[8] @ DRAM
    for j in seq(0, 2):
        x[2 * j + 1] = 0.0
        x[j + 2] = 0.0
        for i in seq(0, 8):
            x[2 * j + 1] += 3.0 * y[i]
            x[j + 2] += 2.0 * y[i]
)");
  expect_refused([&] { lift_reduce_constant(foo, "x[j+2] = 0.0; _"); }, "lift_reduce_constant",
                 "a reduction into 'x' has other indices than the assignment");
}

// test_lift_reduce_constant_bad_3: the reductions are scaled by different constants. Exo:
// "cannot lift constant because the reduces to buffer x ...".
TEST(ExoExprsPort, LiftReduceConstantBad3) {
  Proc foo = parse_proc(R"(def foo():
    x: R[2] @ DRAM
    y: R[8] @ DRAM
    x[0] = 0.0
    for i in seq(0, 8):
        x[0] += 3.0 * y[i]
        x[0] += 2.0 * y[i]
)");
  expect_refused([&] { lift_reduce_constant(foo, "x[0] = 0.0; _"); }, "lift_reduce_constant",
                 "the reductions into 'x' are scaled by different factors");
}

// test_lift_reduce_constant_bad_4: the accumulator is read in the loop. Exo: "the buffer is
// read in the loop body".
TEST(ExoExprsPort, LiftReduceConstantBad4) {
  Proc foo = parse_proc(R"(def foo():
    x: R[2] @ DRAM
    y: R[8] @ DRAM
    x[0] = 0.0
    for i in seq(0, 8):
        y[i] = x[0]
        x[0] += 2.0 * y[i]
)");
  expect_refused([&] { lift_reduce_constant(foo, "x[0] = 0.0; _"); }, "lift_reduce_constant",
                 "the loop reads or assigns 'x' other than by reductions into it");
}

// test_lift_reduce_constant_bad_5: no reduction into x. Exo: "did not find a reduce".
TEST(ExoExprsPort, LiftReduceConstantBad5) {
  Proc foo = parse_proc(R"(def foo():
    x: R[2] @ DRAM
    y: R[8] @ DRAM
    x[0] = 0.0
    for i in seq(0, 8):
        y[i] = 2.0 * y[i]
)");
  expect_refused([&] { lift_reduce_constant(foo, "x[0] = 0.0; _"); }, "lift_reduce_constant",
                 "the loop does not reduce into 'x'");
}

// test_lift_reduce_constant_bad_6: the reductions' factors y[1] and y[2] differ.
TEST(ExoExprsPort, LiftReduceConstantBad6) {
  Proc foo = parse_proc(R"(def foo():
    x: R[2] @ DRAM
    y: R[8] @ DRAM
    x[0] = 0.0
    for i in seq(0, 8):
        x[0] += y[1] * 2.0
        x[0] += y[2] * 2.0
)");
  expect_refused([&] { lift_reduce_constant(foo, "x[0] = 0.0; _"); }, "lift_reduce_constant",
                 "the reductions into 'x' are scaled by different factors");
}

// test_lift_reduce_constant_bad_7: the factor's buffer is written in the loop. Exo: "it is a
// buffer that is written". Exo's pattern "x[0] = 0.0; _" finds the scalar `x = 0.0` there; ours
// does not match an indexed pattern to a scalar, so the block is named "x = 0.0; _" (Exo's
// pattern is refused as well, for want of a match).
TEST(ExoExprsPort, LiftReduceConstantBad7) {
  Proc foo = parse_proc(R"(def foo():
    x: R @ DRAM
    y: R[8] @ DRAM
    for j in seq(0, 8):
        x = 0.0
        for i in seq(0, 8):
            y[1] = 0.0
            x += y[j] * 2.0
)");
  expect_refused([&] { lift_reduce_constant(foo, "x = 0.0; _"); }, "lift_reduce_constant",
                 "the factor reads 'y', which the loop writes");
  expect_refused([&] { lift_reduce_constant(foo, "x[0] = 0.0; _"); }, "lift_reduce_constant",
                 "no match for pattern 'x[0] = 0.0; _'");
}

// test_lift_reduce_constant_bad_9: the factor y[i] depends on the loop variable. Exo: "y[i]
// depends on the variable i which is defined within the loop".
TEST(ExoExprsPort, LiftReduceConstantBad9) {
  Proc dot = parse_proc(R"(def dot(n: size, x: f32[n], y: f32[n]):
    dot: R
    dot = 0.0
    for i in seq(0, n):
        dot += y[i] * x[i]
)");
  expect_refused([&] { lift_reduce_constant(dot, dot.find_loop("i").expand(1, 0)); },
                 "lift_reduce_constant", "the factor mentions 'i', which changes inside the loop");
}

// test_lift_reduce_constant_bad_10: the factor y[j] depends on an inner loop variable.
TEST(ExoExprsPort, LiftReduceConstantBad10) {
  Proc dot = parse_proc(R"(def dot(n: size, x: f32[n], y: f32[n]):
    dot: R
    dot = 0.0
    for i in seq(0, n):
        for j in seq(0, n):
            dot += y[j] * x[i]
)");
  expect_refused([&] { lift_reduce_constant(dot, dot.find_loop("i").expand(1, 0)); },
                 "lift_reduce_constant", "the factor mentions 'j', which changes inside the loop");
}

// test_lift_reduce_constant_bad_11: the factor a is allocated in the loop.
TEST(ExoExprsPort, LiftReduceConstantBad11) {
  Proc dot = parse_proc(R"(def dot(n: size, x: f32[n], y: f32[n]):
    dot: R
    dot = 0.0
    for i in seq(0, n):
        a: f32
        dot += a * (y[i] * x[i])
)");
  expect_refused([&] { lift_reduce_constant(dot, dot.find_loop("i").expand(1, 0)); },
                 "lift_reduce_constant", "the factor mentions 'a', which changes inside the loop");
}

// test_merge_writes_all_4_cases.
TEST(ExoExprsPort, MergeWritesAll4Cases) {
  Proc bar = parse_proc(R"(def bar(x: R[4], y: R[4]):
    for i in seq(0, 10):
        if i < 5:
            tmp: R[4]
            tmp[0] = x[0]
            tmp[0] = y[0]
            tmp[1] = x[1]
            tmp[1] += y[1]
            tmp[2] += x[2]
            tmp[2] = y[2]
            tmp[3] += x[3]
            tmp[3] += y[3]
)");
  Proc q = merge_writes(bar, "tmp[0] = x[0]; tmp[0] = y[0]");
  q = merge_writes(q, "tmp[1] = x[1]; tmp[1] += y[1]");
  q = merge_writes(q, "tmp[2] += x[2]; tmp[2] = y[2]");
  q = merge_writes(q, "tmp[3] += x[3]; tmp[3] += y[3]");
  EXPECT_EQ(to_string(q), R"(def bar(x: R[4] @ DRAM, y: R[4] @ DRAM):
    for i in seq(0, 10):
        if i < 5:
            tmp: R[4] @ DRAM
            tmp[0] = y[0]
            tmp[1] = x[1] + y[1]
            tmp[2] = y[2]
            tmp[3] += x[3] + y[3]
)");
  expect_equivalent(bar, q);
}

// test_merge_writes_consecutively: the merged statement is merged again.
TEST(ExoExprsPort, MergeWritesConsecutively) {
  Proc bar = parse_proc(R"(def bar(w: R, x: R, y: R, z: R):
    z = w
    z += x
    z += y
    w = x
)");
  Proc q = merge_writes(bar, "z = w; z += x");
  q = merge_writes(q, "z = w + x; z += y");
  EXPECT_EQ(to_string(q), R"(def bar(w: R @ DRAM, x: R @ DRAM, y: R @ DRAM, z: R @ DRAM):
    z = w + x + y
    w = x
)");
  expect_equivalent(bar, q);
}

// test_merge_writes_array_indexing.
TEST(ExoExprsPort, MergeWritesArrayIndexing) {
  Proc bar = parse_proc(R"(def bar(x: R[3], y: R[3], z: R):
    for i in seq(0, 3):
        for j in seq(0, 3):
            if i < 2:
                tmp: R[4, 4]
                tmp[i + j, j] = x[i]
                tmp[i + j, j] += y[j]
)");
  Proc q = merge_writes(bar, "tmp[i+j, j] = x[i]; tmp[i+j, j] += y[j]");
  EXPECT_EQ(to_string(q), R"(def bar(x: R[3] @ DRAM, y: R[3] @ DRAM, z: R @ DRAM):
    for i in seq(0, 3):
        for j in seq(0, 3):
            if i < 2:
                tmp: R[4, 4] @ DRAM
                tmp[i + j, j] = x[i] + y[j]
)");
  expect_equivalent(bar, q);
}

// test_merge_writes_type_check.
TEST(ExoExprsPort, MergeWritesTypeCheck) {
  Proc bar = parse_proc(R"(def bar(y: f32):
    x: f32 @ DRAM
    x = 0.0
    x += y
)");
  Proc q = merge_writes(bar, "x = 0.0; x += y");
  EXPECT_EQ(to_string(q), R"(def bar(y: f32 @ DRAM):
    x: f32 @ DRAM
    x = 0.0 + y
)");
  expect_equivalent(bar, q);
}

// test_merge_writes_second_rhs_depends_on_first_lhs. Exo: "expected the right hand side of the
// second statement to not depend on the left hand side of the first statement".
TEST(ExoExprsPort, MergeWritesSecondRhsDependsOnFirstLhs) {
  Proc bar = parse_proc(R"(def bar(x: R[5], y: R[3]):
    for i in seq(0, 3):
        if i > 0:
            x[2 * i - 1] = x[i] + y[i]
            x[2 * i - 1] += x[i]
)");
  expect_refused(
      [&] { merge_writes(bar, "x[2*i-1] = x[i] + y[i]; x[2*i-1] += x[i]"); }, "merge_writes",
      "the second statement's right-hand side reads 'x', which the first statement writes");
}

// test_merge_writes_wrong_type_error: the second statement is an if. Exo: "expected two
// consecutive assign/reduce statements".
TEST(ExoExprsPort, MergeWritesWrongTypeError) {
  Proc bar = parse_proc(R"(def bar(x: R, y: R):
    for i in seq(0, 10):
        y = x
        if i > 5:
            y = x
)");
  expect_refused([&] { merge_writes(bar, "y = x; _"); }, "merge_writes",
                 "both statements must be assignments or reductions ('if i > 5: ...' is not)");
}

// test_merge_writes_different_lhs_error. Exo: "expected the two statements' left hand sides to
// have the same name & type".
TEST(ExoExprsPort, MergeWritesDifferentLhsError) {
  Proc bar = parse_proc(R"(def bar(x: R, y: R):
    x = y
    y += x
)");
  expect_refused([&] { merge_writes(bar, "x = y; y += x"); }, "merge_writes",
                 "the statements write different buffers ('x' and 'y')");
}

// test_merge_writes_different_lhs_arrays_error (first of Exo's two cases of that name). Exo:
// "expected the left hand side's indices to be the same."
TEST(ExoExprsPort, MergeWritesDifferentLhsArraysError) {
  Proc bar = parse_proc(R"(def bar(x: R[3], y: R):
    x[0] = y
    x[1] += y
)");
  expect_refused([&] { merge_writes(bar, "x[0] = y; x[1] += y"); }, "merge_writes",
                 "requires that the two statements write the same location, but `0 == 1` does not "
                 "always hold");
}

// test_merge_writes_different_lhs_arrays_error (second of Exo's two cases of that name): the
// indices of a window differ.
TEST(ExoExprsPort, MergeWritesDifferentLhsArraysErrorThroughAWindow) {
  Proc bar = parse_proc(R"(def bar(x: R[3, 3], y: R):
    z = x[0:2, 0:2]
    for i in seq(0, 2):
        z[i, 1] = y
        z[i + 1, 1] += y
)");
  expect_refused([&] { merge_writes(bar, "z[i, 1] = y; z[i+1, 1] += y"); }, "merge_writes",
                 "requires that the two statements write the same location, but `i == i + 1` does "
                 "not always hold");
}

// test_split_write.
TEST(ExoExprsPort, SplitWrite) {
  Proc bar = parse_proc(R"(def bar(x: i8):
    x = 1 + 2
    x += 3 + 4
)");
  Proc q = split_write(bar, bar.body_cursor()[0]);
  q = split_write(q, q.body_cursor()[2]);
  EXPECT_EQ(to_string(q), R"(def bar(x: i8 @ DRAM):
    x = 1
    x += 2
    x += 3
    x += 4
)");
  expect_equivalent(bar, q);
}

// test_split_write_fail: neither a product nor a plain constant is an addition. Exo: "Expected
// the rhs of the statement to be an addition."
TEST(ExoExprsPort, SplitWriteFail) {
  Proc bar = parse_proc(R"(def bar(x: i8):
    x = 1 * 2
    x += 4
)");
  for (const Cursor& s : {bar.body_cursor()[0], bar.body_cursor()[1]})
    expect_refused([&] { split_write(bar, s); }, "split_write", "is not an addition");
}

// test_split_write_then_merge: splitting both writes and merging them back gives the start.
TEST(ExoExprsPort, SplitWriteThenMerge) {
  Proc bar = parse_proc(R"(def bar(x: i8):
    x = 1 + 2
    x += 3 + 4
)");
  Cursor assign = bar.body_cursor()[0];
  Cursor reduce = bar.body_cursor()[1];
  Proc q = split_write(bar, assign);
  q = split_write(q, reduce);
  q = merge_writes(q, assign.as_block());
  q = merge_writes(q, reduce.as_block());
  EXPECT_EQ(to_string(q), to_string(bar));
  expect_equivalent(bar, q);
}

}  // namespace
