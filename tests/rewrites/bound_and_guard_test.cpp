// bound_and_guard: golden result, interpreter equivalence, refusal, forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kTail = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N % 16):
        B[16 * (N / 16) + i] = A[16 * (N / 16) + i] * 2.0
)";

TEST(BoundAndGuard, BoundsATailLoopAndGuardsItsBody) {
  Proc p = parse_proc(kTail);
  Proc q = bound_and_guard(p, "i", "16");
  expect_golden("BoundAndGuard_Tail", to_string(q));
  for (int64_t n : {1, 15, 16, 37}) expect_equivalent(p, q, {{"N", n}});
}

TEST(BoundAndGuard, RefusesABoundThatMayBeTooSmall) {
  Proc p = parse_proc(kTail);
  expect_refused([&] { bound_and_guard(p, "i", "8"); }, "bound_and_guard", "is at most '8'");
}

TEST(BoundAndGuard, RefusesABoundThatDoesNotParse) {
  Proc p = parse_proc(kTail);
  expect_refused([&] { bound_and_guard(p, "i", "16 +"); }, "bound_and_guard", "");
}

TEST(BoundAndGuard, ForwardsTheLoopAndItsBody) {
  Proc p = parse_proc(kTail);
  Cursor loop = p.body_cursor()[0];
  Cursor body_stmt = loop.body()[0];
  Proc q = bound_and_guard(p, loop, "16");
  EXPECT_EQ(q.forward(loop).stmt().kind(), StmtKind::For);
  Cursor moved = q.forward(body_stmt);
  EXPECT_EQ(moved.stmt().kind(), StmtKind::Assign);
  EXPECT_EQ(moved.parent().stmt().kind(), StmtKind::If);
}

}  // namespace
