// Tests of unroll_loop: golden + equivalence, fresh names in the copies, a zero-trip loop,
// refusals (non-constant bounds, too many copies) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(UnrollLoop, ConstantBounds) {
  Proc p = parse_proc(R"(def f(A: f32[8] @ DRAM):
    for i in seq(2, 5):
        A[i] = A[i + 1]
)");
  Proc q = unroll_loop(p, p.body_cursor()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(UnrollLoop, CopiesWithAllocationsAndInnerLoops) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[2, N] @ DRAM):
    for i in seq(0, 2):
        t: f32 @ DRAM
        t = 1.0
        for j in seq(0, N):
            A[i, j] = t
)");
  Proc q = unroll_loop(p, p.body_cursor()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(UnrollLoop, ZeroTripLoopLeavesPass) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for k in seq(0, N):
        for i in seq(0, 0):
            A[k] = 1.0
)");
  Proc q = unroll_loop(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(UnrollLoop, RefusesANonConstantBound) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { unroll_loop(p, p.body_cursor()[0]); }, "unroll_loop", ErrorCode::NotProved,
                 "loop.bound_not_constant");
}

TEST(UnrollLoop, RefusesAnEnormousUnroll) {
  Proc p = parse_proc(R"(def f(x: f32 @ DRAM):
    for i in seq(0, 100000):
        x = 1.0
)");
  expect_refused([&] { unroll_loop(p, p.body_cursor()[0]); }, "unroll_loop", ErrorCode::Unsupported,
                 "loop.too_many_copies", "more than the limit");
}

TEST(UnrollLoop, ForwardsLaterStatementsAndInvalidatesTheLoop) {
  Proc p = parse_proc(R"(def f(A: f32[3] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, 3):
        A[i] = 1.0
    x = 2.0
)");
  Cursor loop = p.body_cursor()[0], after = p.body_cursor()[1];
  Proc q = unroll_loop(p, loop);
  EXPECT_EQ(q.forward(after).loc(), q.body_cursor()[3].loc());
  EXPECT_FALSE(q.forward(loop).is_valid());
}

// An unroll past exocpp's limit is legal but not implemented: Unsupported.
TEST(UnrollLoop, AnEnormousUnrollIsUnsupportedLoopTooManyCopies) {
  Proc p = parse_proc(R"(def f(x: f32 @ DRAM):
    for i in seq(0, 100000):
        x = 1.0
)");
  expect_refused([&] { unroll_loop(p, p.body_cursor()[0]); }, "unroll_loop", ErrorCode::Unsupported,
                 "loop.too_many_copies");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_simple_unroll
TEST(UnrollLoop, SimpleUnroll) {
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

// Exo tests/test_schedules.py::test_simple_unroll2: a nonzero lower bound.
TEST(UnrollLoop, SimpleUnroll2) {
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

// Exo tests/test_schedules.py::test_simple_unroll3: the lower bound m is not a constant. Exo:
// "expected loop 'i' to have constant bounds".
TEST(UnrollLoop, SimpleUnroll3RefusesNonConstantBounds) {
  Proc bar = parse_proc(R"(def bar(m: size, A: i8[10]):
    assert m < 10
    tmp: i8[10]
    for i in seq(m, 10):
        tmp[i] = A[i]
)");
  expect_refused([&] { unroll_loop(bar, "i"); }, "unroll_loop", ErrorCode::NotProved,
                 "loop.bound_not_constant",
                 "expected loop i to have constant bounds, got seq(m, 10)");
}

}  // namespace
