// Tests of unroll_loop: golden + equivalence, fresh names in the copies, a zero-trip loop,
// refusals (non-constant bounds, too many copies) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(UnrollLoop, ConstantBounds) {
  Proc p = parse_proc(R"(def f(A: f32[8] @ DRAM):
    for i in seq(2, 5):
        A[i] = A[i + 1]
)");
  Proc q = unroll_loop(p, p.body_cursor()[0]);
  expect_golden("UnrollLoop.ConstantBounds", to_string(q));
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
  expect_golden("UnrollLoop.WithAllocations", to_string(q));
  expect_equivalent(p, q);
}

TEST(UnrollLoop, ZeroTripLoopLeavesPass) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for k in seq(0, N):
        for i in seq(0, 0):
            A[k] = 1.0
)");
  Proc q = unroll_loop(p, p.body_cursor()[0].body()[0]);
  expect_golden("UnrollLoop.ZeroTrip", to_string(q));
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
  expect_refused([&] { unroll_loop(p, p.body_cursor()[0]); }, "unroll_loop", "more than the limit");
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
