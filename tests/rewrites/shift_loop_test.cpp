// Tests of shift_loop: golden + equivalence, refusal of a possibly negative bound, and
// forwarding.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N + 2] @ DRAM):
    for i in seq(2, N + 2):
        A[i] = 1.0
)";

TEST(ShiftLoop, ToZero) {
  Proc p = parse_proc(kSrc);
  Proc q = shift_loop(p, p.body_cursor()[0], "0");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(ShiftLoop, ToASize) {
  Proc p = parse_proc(kSrc);
  Proc q = shift_loop(p, p.body_cursor()[0], "N");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(ShiftLoop, RefusesAPossiblyNegativeBound) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { shift_loop(p, p.body_cursor()[0], "1 - N"); }, "shift_loop",
                 ErrorCode::NotProved, "checker.refuted", "is non-negative, but");
}

TEST(ShiftLoop, RefusesACondition) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { shift_loop(p, p.body_cursor()[0], "N == 1"); }, "shift_loop",
                 ErrorCode::BadArgument, "arg.expression",
                 "must be an integer (index) expression, but it has type bool");
}

TEST(ShiftLoop, ForwardsInPlace) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0];
  Proc q = shift_loop(p, p.body_cursor()[0], "0");
  EXPECT_EQ(q.forward(body).to_string(), "A[i + 2] = 1.0");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_cut_then_shift_loop: the cursor to the original loop forwards
// to the first half; its next statement is the second half.
TEST(ShiftLoop, CutThenShiftLoop) {
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

// Exo tests/test_schedules.py::test_shift_loop
TEST(ShiftLoop, ShiftLoop) {
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

// Exo tests/test_schedules.py::test_shift_loop_by_expr
TEST(ShiftLoop, ShiftLoopByExpr) {
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

// Exo tests/test_schedules.py::test_shift_loop_nonzero_lo
TEST(ShiftLoop, ShiftLoopNonzeroLo) {
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

// Exo tests/test_schedules.py::test_shift_loop_to_negative_lo: -3 is negative, and n - 3 may be.
// Exo: "Expected 0 <= `new_lo`".
TEST(ShiftLoop, ShiftLoopToNegativeLoIsRefused) {
  Proc foo = parse_proc(R"(def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  expect_refused([&] { shift_loop(foo, foo.find_loop("i"), "-3"); }, "shift_loop",
                 ErrorCode::NotProved, "checker.refuted",
                 "the new lower bound '-3' is non-negative");
  expect_refused([&] { shift_loop(foo, foo.find_loop("i"), "n-3"); }, "shift_loop",
                 ErrorCode::NotProved, "checker.refuted",
                 "the new lower bound 'n-3' is non-negative");
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(ShiftLoop, ShiftLoopKeepsAnEmptyRangeEmpty) {
  Proc p = parse_proc(kMaybeNegativeRange);
  Proc q = shift_loop(p, "i", "3");
  for (int64_t n : {1, 7, 8, 11}) expect_equivalent(p, q, {{"N", n}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(ShiftLoop, ShiftLoopRefusesALowerBoundTheBodyWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.k = 2
    for i in seq(C.k, 8):
        C.k = 0
        A[i] = 1.0
)");
  expect_refused([&] { shift_loop(p, "i", "0"); }, "shift_loop", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.k");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(ShiftLoop, ShiftLoopAcceptsALowerBoundNobodyWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.k = 2
    for i in seq(C.k, 8):
        A[i] = 1.0
)");
  Proc q = shift_loop(p, "i", "0");
  expect_equivalent(p, q);
}

}  // namespace
