// Ports of the add_loop, cut_loop, shift_loop, divide_loop, mult_loops, join_loops, unroll,
// reorder, fuse and parallelize cases of Exo's tests/test_schedules.py. Each test names the Exo
// case it ports; the expected text is Exo's golden in our printer's layout, or, where we
// deliberately differ, our result with the reason.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kThreeWrites = R"(def foo(x: R):
    x = 1.0
    x = 2.0
    x = 3.0
)";

const char* kOneScalar = R"(def foo():
    x: R
    x = 0.0
)";

// test_add_loop: an idempotent write gets a loop of 5 iterations.
TEST(ExoLoops2Port, AddLoop) {
  Proc foo = parse_proc(kThreeWrites);
  Proc q = add_loop(foo, "x = 2.0", "i", "5");
  EXPECT_EQ(to_string(q), R"(def foo(x: R @ DRAM):
    x = 1.0
    for i in seq(0, 5):
        x = 2.0
    x = 3.0
)");
  expect_equivalent(foo, q);
}

// test_add_loop1
TEST(ExoLoops2Port, AddLoop1) {
  Proc foo = parse_proc(kOneScalar);
  Proc q = add_loop(foo, "x = _", "i", "10");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: R @ DRAM
    for i in seq(0, 10):
        x = 0.0
)");
  expect_equivalent(foo, q);
}

// test_add_loop2: guard=True wraps the block in `if i == 0:`.
TEST(ExoLoops2Port, AddLoop2Guard) {
  Proc foo = parse_proc(kOneScalar);
  Proc q = add_loop(foo, "x = _", "i", "10", {.guard = true});
  EXPECT_EQ(to_string(q), R"(def foo():
    x: R @ DRAM
    for i in seq(0, 10):
        if i == 0:
            x = 0.0
)");
  expect_equivalent(foo, q);
}

// test_add_loop3: a bound written as an expression of sizes.
TEST(ExoLoops2Port, AddLoop3GuardWithExpressionBound) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    x: R
    x = 0.0
)");
  Proc q = add_loop(foo, "x = _", "i", "n+m", {.guard = true});
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size):
    x: R @ DRAM
    for i in seq(0, n + m):
        if i == 0:
            x = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}, {"m", 1}});
  expect_equivalent(foo, q, {{"n", 3}, {"m", 2}});
}

// test_add_loop4_fail checks Python's argument type check (guard=100 is not a bool); in C++
// `guard` is a bool member of AddLoopOptions, so the case has no counterpart to port.

// test_add_loop5: n - m may be zero or negative. Exo: "bound expression should be positive".
TEST(ExoLoops2Port, AddLoop5RefusesABoundThatMayNotBePositive) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    x: R
    x = 0.0
)");
  expect_refused([&] { add_loop(foo, "x = _", "i", "n-m", {.guard = true}); }, "add_loop",
                 "the new loop's bound 'n-m' is positive");
}

// test_add_loop5_fail: a reduction is not idempotent. Exo: "The statement at ... is not
// idempotent".
TEST(ExoLoops2Port, AddLoop5FailRefusesAReduction) {
  Proc foo = parse_proc(R"(def foo(x: R):
    x += 1.0
    x += 2.0
    x += 3.0
)");
  expect_refused([&] { add_loop(foo, "x += 2.0", "i", "5"); }, "add_loop",
                 "running the block more than once is the same as running it once");
}

// test_add_loop6_runs_fail: a loop of 0 iterations would drop the write. Exo: "The expression
// 0 is not guaranteed to be greater than 0".
TEST(ExoLoops2Port, AddLoop6RefusesAZeroBound) {
  Proc foo = parse_proc(kThreeWrites);
  expect_refused([&] { add_loop(foo, "x = 2.0", "i", "0"); }, "add_loop",
                 "the new loop's bound '0' is positive");
}

const char* kCutLoopN = R"(def foo(n: size):
    for i in seq(0, n):
        x: R
        x = 0.0
)";

// test_cut_loop1: 3 may exceed n. Exo: "Expected `cut_point` <= `hi`".
TEST(ExoLoops2Port, CutLoop1RefusesACutPastHi) {
  Proc foo = parse_proc(kCutLoopN);
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "3"); }, "cut_loop",
                 "the cut point '3' is at most the upper bound 'n'");
}

// test_cut_loop2
TEST(ExoLoops2Port, CutLoop2) {
  Proc foo = parse_proc(R"(def foo(n: size):
    assert n > 3
    for i in seq(0, n):
        x: R
        x = 0.0
)");
  Proc q = simplify(cut_loop(foo, foo.find_loop("i"), "3"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    assert n > 3
    for i in seq(0, 3):
        x: R @ DRAM
        x = 0.0
    for i in seq(3, n):
        x: R @ DRAM
        x = 0.0
)");
  expect_equivalent(foo, q, {{"n", 4}});
  expect_equivalent(foo, q, {{"n", 9}});
}

// test_cut_loop3: a cut below the lower bound. Exo: "Expected `lo` <= `cut_point`".
TEST(ExoLoops2Port, CutLoop3RefusesACutBelowLo) {
  Proc foo = parse_proc(kCutLoopN);
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "-3"); }, "cut_loop",
                 "the cut point '-3' is at least the lower bound '0'");
}

const char* kCutLoop35 = R"(def foo():
    for i in seq(3, 5):
        x: f32
)";

// test_cut_loop_at_hi: the second loop is empty.
TEST(ExoLoops2Port, CutLoopAtHi) {
  Proc foo = parse_proc(kCutLoop35);
  Proc q = cut_loop(foo, foo.find_loop("i"), "5");
  EXPECT_EQ(to_string(q), R"(def foo():
    for i in seq(3, 5):
        x: f32 @ DRAM
    for i in seq(5, 5):
        x: f32 @ DRAM
)");
  expect_equivalent(foo, q);
}

// test_cut_loop_at_lo: the first loop is empty.
TEST(ExoLoops2Port, CutLoopAtLo) {
  Proc foo = parse_proc(kCutLoop35);
  Proc q = cut_loop(foo, foo.find_loop("i"), "3");
  EXPECT_EQ(to_string(q), R"(def foo():
    for i in seq(3, 3):
        x: f32 @ DRAM
    for i in seq(3, 5):
        x: f32 @ DRAM
)");
  expect_equivalent(foo, q);
}

// test_cut_loop_by_expr
TEST(ExoLoops2Port, CutLoopByExpr) {
  Proc foo = parse_proc(R"(def foo(n: size, x: f32[n]):
    assert n >= 1
    for i in seq(0, n):
        x[i] = 0.0
)");
  Proc q = cut_loop(foo, foo.find_loop("i"), "n / 2");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: f32[n] @ DRAM):
    assert n >= 1
    for i in seq(0, n / 2):
        x[i] = 0.0
    for i in seq(n / 2, n):
        x[i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 7}});
}

// test_cut_loop_nonzero_lo: 2 is below the lower bound 3; 5 is a legal cut.
TEST(ExoLoops2Port, CutLoopNonzeroLo) {
  Proc foo = parse_proc(R"(def foo(n: size):
    assert n >= 5
    x: R[n]
    for i in seq(3, n):
        x[i] = 0.0
)");
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "2"); }, "cut_loop",
                 "the cut point '2' is at least the lower bound '3'");
  Proc q = simplify(cut_loop(foo, foo.find_loop("i"), "5"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    assert n >= 5
    x: R[n] @ DRAM
    for i in seq(3, 5):
        x[i] = 0.0
    for i in seq(5, n):
        x[i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 5}});
  expect_equivalent(foo, q, {{"n", 8}});
}

// test_cut_loop_nonzero_lo2: 6 may be below m (m can be 7 or 8); 9 is a legal cut. simplify
// writes the last assert `n > 1 + m`, as Exo's golden does.
TEST(ExoLoops2Port, CutLoopNonzeroLo2) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    assert m >= 5
    assert m <= 8
    assert n >= 9
    assert n > m + 1
    x: R[n]
    for i in seq(m, n):
        x[i] = 0.0
)");
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "6"); }, "cut_loop",
                 "the cut point '6' is at least the lower bound 'm'");
  Proc q = simplify(cut_loop(foo, foo.find_loop("i"), "9"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size):
    assert m >= 5
    assert m <= 8
    assert n >= 9
    assert n > 1 + m
    x: R[n] @ DRAM
    for i in seq(m, 9):
        x[i] = 0.0
    for i in seq(9, n):
        x[i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 9}, {"m", 5}});
  expect_equivalent(foo, q, {{"n", 12}, {"m", 8}});
}

// test_cut_loop_syrk: cut the triangular loop after its first iteration, then shift the rest
// to start at 0.
TEST(ExoLoops2Port, CutLoopSyrk) {
  Proc syrk = parse_proc(
      R"(def SYRK(M: size, K: size, A: [f32][M, K] @ DRAM, A_t: [f32][M, K] @ DRAM, C: [f32][M, M] @ DRAM):
    assert M >= 1
    assert K >= 1
    assert stride(A, 1) == 1
    assert stride(A_t, 1) == 1
    assert stride(C, 1) == 1
    for io in seq(0, M / 4):
        for ii in seq(0, 4):
            for j in seq(0, 4 * io + ii + 1):
                for k in seq(0, K):
                    C[4 * io + ii, j] += A[4 * io + ii, k] * A_t[j, k]
)");
  Proc q = cut_loop(syrk, syrk.find_loop("j"), "1");
  q = shift_loop(q, q.find_loop("j #1"), "0");
  q = simplify(q);
  EXPECT_EQ(to_string(q),
            R"(def SYRK(M: size, K: size, A: [f32][M, K] @ DRAM, A_t: [f32][M, K] @ DRAM,
         C: [f32][M, M] @ DRAM):
    assert M >= 1
    assert K >= 1
    assert stride(A, 1) == 1
    assert stride(A_t, 1) == 1
    assert stride(C, 1) == 1
    for io in seq(0, M / 4):
        for ii in seq(0, 4):
            for j in seq(0, 1):
                for k in seq(0, K):
                    C[ii + 4 * io, j] += A[ii + 4 * io, k] * A_t[j, k]
            for j in seq(0, ii + 4 * io):
                for k in seq(0, K):
                    C[ii + 4 * io, 1 + j] += A[ii + 4 * io, k] * A_t[1 + j, k]
)");
  expect_equivalent(syrk, q, {{"M", 4}, {"K", 1}});
  expect_equivalent(syrk, q, {{"M", 9}, {"K", 2}});
}

// test_cut_then_shift_loop: the cursor to the original loop forwards to the first half; its
// next statement is the second half.
TEST(ExoLoops2Port, CutThenShiftLoop) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: f32[20] @ DRAM):
    assert n >= m
    for i in seq(2, 20):
        x[i] = 0.0
)");
  Cursor loop = foo.find_loop("i");
  Proc q = cut_loop(foo, loop, "10");
  q = shift_loop(q, q.find_loop("i"), "5");
  q = shift_loop(q, q.forward(loop).next(), "0");
  q = simplify(q);
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: f32[20] @ DRAM):
    assert n >= m
    for i in seq(5, 13):
        x[-3 + i] = 0.0
    for i in seq(0, 10):
        x[10 + i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}, {"m", 1}});
  expect_equivalent(foo, q, {{"n", 3}, {"m", 2}});
}

// test_shift_loop
TEST(ExoLoops2Port, ShiftLoop) {
  Proc foo = parse_proc(R"(def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  Proc q = simplify(shift_loop(foo, foo.find_loop("i"), "1"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(1, 1 + n):
        x[-1 + i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// test_shift_loop_by_expr
TEST(ExoLoops2Port, ShiftLoopByExpr) {
  Proc foo = parse_proc(R"(def foo(n: size, x: f32[n + 1] @ DRAM):
    for i in seq(0, n):
        x[i + 1] = 0.0
)");
  Proc q = simplify(shift_loop(foo, foo.find_loop("i"), "n + 2"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: f32[n + 1] @ DRAM):
    for i in seq(2 + n, 2 + 2 * n):
        x[-1 - n + i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// test_shift_loop_nonzero_lo
TEST(ExoLoops2Port, ShiftLoopNonzeroLo) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: f32[n + 1] @ DRAM):
    assert n >= m
    for i in seq(m, n):
        x[i] = 0.0
)");
  Proc q = simplify(shift_loop(foo, foo.find_loop("i"), "4"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: f32[n + 1] @ DRAM):
    assert n >= m
    for i in seq(4, 4 - m + n):
        x[-4 + i + m] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}, {"m", 1}});
  expect_equivalent(foo, q, {{"n", 7}, {"m", 3}});
}

// test_shift_loop_to_negative_lo: -3 is negative, and n - 3 may be. Exo: "Expected 0 <=
// `new_lo`".
TEST(ExoLoops2Port, ShiftLoopToNegativeLoIsRefused) {
  Proc foo = parse_proc(R"(def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  expect_refused([&] { shift_loop(foo, foo.find_loop("i"), "-3"); }, "shift_loop",
                 "the new lower bound '-3' is non-negative");
  expect_refused([&] { shift_loop(foo, foo.find_loop("i"), "n-3"); }, "shift_loop",
                 "the new lower bound 'n-3' is non-negative");
}

// test_divide_loop_by_1_cut: dividing by 1 is accepted (docs/exo-differences.md). Exo's
// unsimplified result reads `seq(0, n / 1)` and a tail `seq(0, n % 1)`; exocpp's operations
// simplify the expressions they build (docs/exo-differences.md, "Printing").
TEST(ExoLoops2Port, DivideLoopBy1Cut) {
  Proc bar = parse_proc(R"(def bar(n: size):
    for i in seq(0, n):
        pass
)");
  Proc bar1 = divide_loop(bar, bar.find_loop("i"), 1, {"io", "ii"}, {.tail = Tail::Cut});
  Proc bar2 = simplify(bar1);
  EXPECT_EQ(to_string(bar1), R"(def bar(n: size):
    for io in seq(0, n):
        for ii in seq(0, 1):
            pass
    for ii in seq(0, 0):
        pass
)");
  EXPECT_EQ(to_string(bar2), R"(def bar(n: size):
    for io in seq(0, n):
        for ii in seq(0, 1):
            pass
)");
  expect_equivalent(bar, bar1, {{"n", 1}});
  expect_equivalent(bar, bar2, {{"n", 5}});
}

// test_divide_loop_fail_nonzero_lo. Exo: "expected the lower bound of the loop to be zero".
TEST(ExoLoops2Port, DivideLoopFailsOnANonzeroLo) {
  Proc bar = parse_proc(R"(def bar():
    for i in seq(1, 8):
        pass
)");
  expect_refused(
      [&] {
        divide_loop(bar, "i", 4, {"io", "ii"}, {.tail = Tail::Guard});
      },
      "divide_loop", "expected the lower bound of loop i to be 0, got '1'");
}

// test_divide_loop_perfect
TEST(ExoLoops2Port, DivideLoopPerfect) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n]):
    assert n % 4 == 0
    for i in seq(0, n):
        A[i] = 1.0
)");
  Proc q = divide_loop(foo, "i", 4, {"io", "ii"}, {.perfect = true});
  EXPECT_EQ(to_string(q), R"(def foo(n: size, A: i8[n] @ DRAM):
    assert n % 4 == 0
    for io in seq(0, n / 4):
        for ii in seq(0, 4):
            A[4 * io + ii] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}});
  expect_equivalent(foo, q, {{"n", 12}});
}

// test_divide_loop_perfect3
TEST(ExoLoops2Port, DivideLoopPerfect3) {
  Proc foo = parse_proc(R"(def foo(m: size, n: size, A: R[m, n]):
    assert n % 4 == 0 and m % 8 == 0
    for i in seq(0, m):
        for j in seq(0, n):
            A[i, j] = 0.2
)");
  Proc q = divide_loop(foo, "i", 8, {"io", "ii"}, {.perfect = true});
  q = divide_loop(q, "j", 4, {"jo", "ji"}, {.perfect = true});
  q = simplify(q);
  EXPECT_EQ(to_string(q), R"(def foo(m: size, n: size, A: R[m, n] @ DRAM):
    assert n % 4 == 0 and m % 8 == 0
    for io in seq(0, m / 8):
        for ii in seq(0, 8):
            for jo in seq(0, n / 4):
                for ji in seq(0, 4):
                    A[ii + 8 * io, ji + 4 * jo] = 0.2
)");
  expect_equivalent(foo, q, {{"m", 8}, {"n", 4}});
  expect_equivalent(foo, q, {{"m", 16}, {"n", 12}});
}

// test_divide_loop_perfect_fail: n % 6 == 0 does not make n divisible by 4. Exo: "cannot
// perfectly divide".
TEST(ExoLoops2Port, DivideLoopPerfectFail) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n]):
    assert n % 6 == 0
    for i in seq(0, n):
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_loop(foo, "i", 4, {"io", "ii"}, {.perfect = true});
      },
      "divide_loop", "the bound 'n' is divisible by 4");
}

// test_simple_divide_loop: the guard tail.
TEST(ExoLoops2Port, SimpleDivideLoop) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n]):
    tmp: i8[n]
    for i in seq(0, n):
        tmp[i] = A[i]
)");
  Proc q = divide_loop(bar, "i", 4, {"io", "ii"}, {.tail = Tail::Guard});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM):
    tmp: i8[n] @ DRAM
    for io in seq(0, (n + 3) / 4):
        for ii in seq(0, 4):
            if 4 * io + ii < n:
                tmp[4 * io + ii] = A[4 * io + ii]
)");
  expect_equivalent(bar, q, {{"n", 1}});
  expect_equivalent(bar, q, {{"n", 7}});
}

// test_product_loop
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(ExoLoops2Port, ProductLoop) {
  Proc foo = parse_proc(R"(def foo(n: size):
    x: R[n, 30]
    for i in seq(0, n):
        for j in seq(0, 30):
            x[i, j] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    x: R[n, 30] @ DRAM
    for ij in seq(0, 30 * n):
        x[ij / 30, ij % 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 3}});
}

// test_product_loop2
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(ExoLoops2Port, ProductLoop2) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n, 30]):
    for i in seq(0, n):
        for j in seq(0, 30):
            x[i, j] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n, 30] @ DRAM):
    for ij in seq(0, 30 * n):
        x[ij / 30, ij % 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 3}});
}

// test_product_loop3: the inner bound m is not a constant. Exo: "expected the inner loop to
// have a constant bound".
TEST(ExoLoops2Port, ProductLoop3RefusesANonConstantInnerBound) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    x: R[n, m]
    for i in seq(0, n):
        for j in seq(0, m):
            x[i, j] = 0.0
)");
  expect_refused([&] { mult_loops(foo, "i j", "ij"); }, "mult_loops",
                 "expected the bound of loop j to be a positive integer constant, got 'm'");
}

// test_product_loop4
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(ExoLoops2Port, ProductLoop4) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    for i in seq(0, n):
        for j in seq(0, 30):
            x[i] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    for ij in seq(0, 30 * n):
        x[ij / 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 3}});
}

// test_product_loop5: the loops write through a window.
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(ExoLoops2Port, ProductLoop5) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: R[n, 100]):
    assert m < n
    x2 = x[0:m, 0:30]
    for i in seq(0, m):
        for j in seq(0, 30):
            x2[i, j] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: R[n, 100] @ DRAM):
    assert m < n
    x2 = x[0:m, 0:30]
    for ij in seq(0, 30 * m):
        x2[ij / 30, ij % 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 2}, {"m", 1}});
  expect_equivalent(foo, q, {{"n", 5}, {"m", 3}});
}

// test_product_loop_nonzero_lo. Exo: "expected the inner and outer loops to have a constant
// lower bound of 0".
TEST(ExoLoops2Port, ProductLoopNonzeroLoIsRefused) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n, 30]):
    for i in seq(1, n):
        for j in seq(0, 30):
            x[i, j] = 0.0
)");
  expect_refused([&] { mult_loops(foo, "i j", "ij"); }, "mult_loops",
                 "expected both loops i and j to start at 0");
}

// test_join_loops_equiv_but_diff_bounds: `n % 4` equals 2 under the assert.
TEST(ExoLoops2Port, JoinLoopsEquivButDiffBounds) {
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

// test_join_loops_fail_equal_bounds. Exo: "expected the first loop upper bound n to be the same
// as the second loop lower bound n + 1".
TEST(ExoLoops2Port, JoinLoopsFailEqualBounds) {
  Proc foo = parse_proc(R"(def foo(n: size, x: i8[n + 2]):
    for i in seq(0, n):
        x[i] = 0.0
    for i in seq(n + 1, n + 2):
        x[i] = 0.0
)");
  expect_refused([&] { join_loops(foo, foo.find_loop("i"), foo.find_loop("i #1")); }, "join_loops",
                 "the first loop ends ('n') where the second begins ('n + 1')");
}

// test_join_loops_fail_type_match: the bodies allocate x with different precisions.
TEST(ExoLoops2Port, JoinLoopsFailTypeMatch) {
  Proc foo = parse_proc(R"(def foo():
    for i in seq(0, 2):
        x: i8[4]
        x[i] = 0.0
    for i in seq(2, 4):
        x: f32[4]
        x[i] = 0.0
)");
  expect_refused([&] { join_loops(foo, foo.find_loop("i"), foo.find_loop("i #1")); }, "join_loops",
                 "the bodies of loops i and i differ");
}

// test_simple_unroll
TEST(ExoLoops2Port, SimpleUnroll) {
  Proc bar = parse_proc(R"(def bar(A: i8[10]):
    tmp: i8[10]
    for i in seq(0, 10):
        tmp[i] = A[i]
)");
  Proc q = unroll_loop(bar, "i");
  EXPECT_EQ(to_string(q), R"(def bar(A: i8[10] @ DRAM):
    tmp: i8[10] @ DRAM
    tmp[0] = A[0]
    tmp[1] = A[1]
    tmp[2] = A[2]
    tmp[3] = A[3]
    tmp[4] = A[4]
    tmp[5] = A[5]
    tmp[6] = A[6]
    tmp[7] = A[7]
    tmp[8] = A[8]
    tmp[9] = A[9]
)");
  expect_equivalent(bar, q);
}

// test_simple_unroll2: a nonzero lower bound.
TEST(ExoLoops2Port, SimpleUnroll2) {
  Proc bar = parse_proc(R"(def bar(A: i8[10]):
    tmp: i8[10]
    for i in seq(3, 10):
        tmp[i] = A[i]
)");
  Proc q = unroll_loop(bar, "i");
  EXPECT_EQ(to_string(q), R"(def bar(A: i8[10] @ DRAM):
    tmp: i8[10] @ DRAM
    tmp[3] = A[3]
    tmp[4] = A[4]
    tmp[5] = A[5]
    tmp[6] = A[6]
    tmp[7] = A[7]
    tmp[8] = A[8]
    tmp[9] = A[9]
)");
  expect_equivalent(bar, q);
}

// test_simple_unroll3: the lower bound m is not a constant. Exo: "expected loop 'i' to have
// constant bounds".
TEST(ExoLoops2Port, SimpleUnroll3RefusesNonConstantBounds) {
  Proc bar = parse_proc(R"(def bar(m: size, A: i8[10]):
    assert m < 10
    tmp: i8[10]
    for i in seq(m, 10):
        tmp[i] = A[i]
)");
  expect_refused([&] { unroll_loop(bar, "i"); }, "unroll_loop",
                 "expected loop i to have constant bounds, got seq(m, 10)");
}

// test_reorder_loops: the inner bound depends on i. Exo: "inner loop's lo or hi depends on
// outer loop's iteration variable".
TEST(ExoLoops2Port, ReorderLoopsRefusesADependentInnerBound) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n, n]):
    for i in seq(0, n):
        for j in seq(0, (-1 - i + n)):
            A[i, j] = 0.0
)");
  expect_refused([&] { reorder_loops(bar, bar.find("for i in _:_")); }, "reorder_loops",
                 "the bounds of loop j depend on i, so the loops cannot be interchanged");
}

// test_simple_reorder
TEST(ExoLoops2Port, SimpleReorder) {
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

// test_simple_reorder2: nonzero lower bounds.
TEST(ExoLoops2Port, SimpleReorder2) {
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

// test_fuse_loop
TEST(ExoLoops2Port, FuseLoop) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    y: R[n]
    for i in seq(0, n):
        y[i] = x[i]
    for j in seq(0, n):
        x[j] = y[j] + 1.0
)");
  Proc q = fuse(foo, "for i in _:_", "for j in _:_");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    y: R[n] @ DRAM
    for i in seq(0, n):
        y[i] = x[i]
        x[i] = y[i] + 1.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 5}});
}

// test_fuse_loop2: nonzero lower bounds.
TEST(ExoLoops2Port, FuseLoop2) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    assert n > 3
    y: R[n]
    for i in seq(3, n):
        y[i] = x[i]
    for j in seq(3, n):
        x[j] = y[j] + 1.0
)");
  Proc q = fuse(foo, "for i in _:_", "for j in _:_");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    assert n > 3
    y: R[n] @ DRAM
    for i in seq(3, n):
        y[i] = x[i]
        x[i] = y[i] + 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}});
  expect_equivalent(foo, q, {{"n", 8}});
}

// test_fuse_loop_fail: iteration j reads y[j + 1], which the first loop writes in iteration
// j + 1 (later, once fused). Exo: "Cannot fission loop".
TEST(ExoLoops2Port, FuseLoopFail) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n + 1]):
    y: R[n + 1]
    y[0] = x[0]
    for i in seq(0, n):
        y[i + 1] = x[i]
    for j in seq(0, n):
        x[j + 1] = y[j + 1] + 1.0
)");
  expect_refused([&] { fuse(foo, "for i in _:_", "for j in _:_"); }, "fuse",
                 "loops i and j can be fused");
}

// test_fuse_if: `a == b` and `a - b == 0` are proved equal.
TEST(ExoLoops2Port, FuseIf) {
  Proc foo = parse_proc(R"(def foo(x: R, a: index, b: index):
    if a == b:
        x += 1.0
    if a - b == 0:
        x += 2.0
    else:
        x += 3.0
)");
  Proc q = fuse(foo, "if a==b:_", "if _==0: _");
  EXPECT_EQ(to_string(q), R"(def foo(x: R @ DRAM, a: index, b: index):
    if a == b:
        x += 1.0
        x += 2.0
    else:
        x += 3.0
)");
  expect_equivalent(foo, q);
}

// test_fuse_if_fail: `a == b` and `a + b == 0` differ. Exo: "Expressions are not equivalent".
TEST(ExoLoops2Port, FuseIfFail) {
  Proc foo = parse_proc(R"(def foo(x: R, a: index, b: index):
    if a == b:
        x += 1.0
    if a + b == 0:
        x += 2.0
)");
  expect_refused([&] { fuse(foo, "if a==b:_", "if _==0: _"); }, "fuse",
                 "the conditions 'a == b' and 'a + b == 0' are equal");
}

// test_divide_with_recompute_fail_not_idempotent. Exo: "The statement at ... is not
// idempotent". exocpp first proves the outer bound n / 4 positive, which fails for n < 4 (the
// divided loop would run no iteration), so Exo's proc is refused for that reason; with
// `assert n >= 4` added the reduction's repeat is what is refused.
TEST(ExoLoops2Port, DivideWithRecomputeFailNotIdempotent) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n + 3]):
    for i in seq(0, n + 3):
        A[i] += 1.0
)");
  expect_refused(
      [&] {
        divide_with_recompute(foo, foo.find_loop("i"), "n/4", 4, {"io", "ii"});
      },
      "divide_with_recompute", "the outer bound 'n/4' is positive");
  Proc foo4 = parse_proc(R"(def foo(n: size, A: i8[n + 3]):
    assert n >= 4
    for i in seq(0, n + 3):
        A[i] += 1.0
)");
  expect_refused(
      [&] {
        divide_with_recompute(foo4, foo4.find_loop("i"), "n/4", 4, {"io", "ii"});
      },
      "divide_with_recompute",
      "running one iteration of loop i twice is the same as running it once");
}

// test_divide_with_recompute_fail_outer_hi_too_big. Exo: "outer_hi * outer_stride exceeds
// loop's hi n + 3".
TEST(ExoLoops2Port, DivideWithRecomputeFailOuterHiTooBig) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n + 3]):
    for i in seq(0, n + 3):
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_with_recompute(foo, foo.find_loop("i"), "(n + 4) / 4", 4, {"io", "ii"});
      },
      "divide_with_recompute", "outer_hi * outer_stride is at most the loop's bound 'n + 3'");
}

// test_parallelize_loop
TEST(ExoLoops2Port, ParallelizeLoop) {
  Proc foo = parse_proc(R"(def foo(A: i8[10]):
    for i in seq(0, 10):
        A[i] = 1.0
)");
  Proc q = parallelize_loop(foo, foo.find_loop("i"));
  EXPECT_EQ(to_string(q), R"(def foo(A: i8[10] @ DRAM):
    for i in par(0, 10):
        A[i] = 1.0
)");
  expect_equivalent(foo, q);
}

}  // namespace
