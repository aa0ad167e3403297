// Tests of cut_loop: golden + equivalence, refusals (cut outside the range, not an integer,
// unknown name) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N + 8] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N + 8):
        A[i] = 1.0
    x = 2.0
)";

TEST(CutLoop, AtAnExpression) {
  Proc p = parse_proc(kSrc);
  Proc q = cut_loop(p, p.body_cursor()[0], "8");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(CutLoop, AtAnExpressionOfSizes) {
  Proc p = parse_proc(kSrc);
  Proc q = cut_loop(p, p.body_cursor()[0], "N");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(CutLoop, RefusesACutPastTheEnd) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "N + 9"); }, "cut_loop",
                 ErrorCode::NotProved, "checker.refuted", "is at most the upper bound");
}

TEST(CutLoop, RefusesACutBeforeTheStart) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "N - 4"); }, "cut_loop",
                 ErrorCode::NotProved, "checker.refuted", "is at least the lower bound");
}

TEST(CutLoop, RefusesACondition) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "N < 3"); }, "cut_loop",
                 ErrorCode::BadArgument, "arg.expression",
                 "must be an integer (index) expression, but it has type bool");
}

TEST(CutLoop, RefusesTheLoopsOwnVariable) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "i"); }, "cut_loop", ErrorCode::BadArgument,
                 "arg.parse_or_type", "i");
}

TEST(CutLoop, ForwardsTheLoopToTheFirstHalf) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0], after = p.body_cursor()[1];
  Proc q = cut_loop(p, p.body_cursor()[0], "8");
  EXPECT_EQ(q.forward(body).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(after).loc(), q.body_cursor()[2].loc());
}

}  // namespace

namespace {

const char* kCutLoopN = R"(def foo(n: size):
    for i in seq(0, n):
        x: R
        x = 0.0
)";

const char* kCutLoop35 = R"(def foo():
    for i in seq(3, 5):
        x: f32
)";

// Exo tests/test_schedules.py::test_cut_loop1: 3 may exceed n. Exo: "Expected `cut_point` <= `hi`".
TEST(CutLoop, CutLoop1RefusesACutPastHi) {
  Proc foo = parse_proc(kCutLoopN);
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "3"); }, "cut_loop", ErrorCode::NotProved,
                 "checker.refuted", "the cut point '3' is at most the upper bound 'n'");
}

// Exo tests/test_schedules.py::test_cut_loop2
TEST(CutLoop, CutLoop2) {
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

// Exo tests/test_schedules.py::test_cut_loop3: a cut below the lower bound. Exo: "Expected `lo` <=
// `cut_point`".
TEST(CutLoop, CutLoop3RefusesACutBelowLo) {
  Proc foo = parse_proc(kCutLoopN);
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "-3"); }, "cut_loop", ErrorCode::NotProved,
                 "checker.refuted", "the cut point '-3' is at least the lower bound '0'");
}

// Exo tests/test_schedules.py::test_cut_loop_at_hi: the second loop is empty.
TEST(CutLoop, CutLoopAtHi) {
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

// Exo tests/test_schedules.py::test_cut_loop_at_lo: the first loop is empty.
TEST(CutLoop, CutLoopAtLo) {
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

// Exo tests/test_schedules.py::test_cut_loop_by_expr
TEST(CutLoop, CutLoopByExpr) {
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

// Exo tests/test_schedules.py::test_cut_loop_nonzero_lo: 2 is below the lower bound 3; 5 is a legal
// cut.
TEST(CutLoop, CutLoopNonzeroLo) {
  Proc foo = parse_proc(R"(def foo(n: size):
    assert n >= 5
    x: R[n]
    for i in seq(3, n):
        x[i] = 0.0
)");
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "2"); }, "cut_loop", ErrorCode::NotProved,
                 "checker.refuted", "the cut point '2' is at least the lower bound '3'");
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

// Exo tests/test_schedules.py::test_cut_loop_nonzero_lo2: 6 may be below m (m can be 7 or 8); 9 is
// a legal cut. simplify writes the last assert `n > 1 + m`, as Exo's golden does.
TEST(CutLoop, CutLoopNonzeroLo2) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    assert m >= 5
    assert m <= 8
    assert n >= 9
    assert n > m + 1
    x: R[n]
    for i in seq(m, n):
        x[i] = 0.0
)");
  expect_refused([&] { cut_loop(foo, foo.find_loop("i"), "6"); }, "cut_loop", ErrorCode::NotProved,
                 "checker.refuted", "the cut point '6' is at least the lower bound 'm'");
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

// Exo tests/test_schedules.py::test_cut_loop_syrk: cut the triangular loop after its first
// iteration, then shift the rest to start at 0.
TEST(CutLoop, CutLoopSyrk) {
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

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(CutLoop, CutLoopRefusesACutOfANegativeRange) {
  Proc p = parse_proc(kMaybeNegativeRange);
  expect_refused([&] { cut_loop(p, "i", "0"); }, "cut_loop", ErrorCode::NotProved,
                 "checker.refuted", "at most the upper bound");
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(CutLoop, CutLoopAcceptsACutInsideTheRange) {
  Proc p = parse_proc(kNonNegativeRange);
  Proc q = cut_loop(p, "i", "(N - 8) / 2");
  for (int64_t n : {8, 9, 12}) expect_equivalent(p, q, {{"N", n}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(CutLoop, CutLoopRefusesAnUpperBoundTheFirstHalfWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 12
        A[i] = 1.0
)");
  expect_refused([&] { cut_loop(p, "i", "0"); }, "cut_loop", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

}  // namespace
