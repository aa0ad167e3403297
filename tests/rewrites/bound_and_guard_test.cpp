// bound_and_guard: golden result, interpreter equivalence, refusal, forwarding.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

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
  expect_golden(to_string(q));
  for (int64_t n : {1, 15, 16, 37}) expect_equivalent(p, q, {{"N", n}});
}

TEST(BoundAndGuard, RefusesABoundThatMayBeTooSmall) {
  Proc p = parse_proc(kTail);
  expect_refused([&] { bound_and_guard(p, "i", "8"); }, "bound_and_guard", ErrorCode::NotProved,
                 "checker.refuted", "is at most '8'");
}

TEST(BoundAndGuard, RefusesABoundThatDoesNotParse) {
  Proc p = parse_proc(kTail);
  expect_refused([&] { bound_and_guard(p, "i", "16 +"); }, "bound_and_guard",
                 ErrorCode::BadArgument, "arg.parse_or_type", "");
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

namespace {

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(BoundAndGuard, BoundAndGuardKeepsAnEmptyRangeEmpty) {
  Proc p = parse_proc(R"(
def f(N: size, A: f32[N + 8] @ DRAM):
    assert N <= 8
    for i in seq(4, N):
        A[i] = 1.0
)");
  Proc q = bound_and_guard(p, "i", "8");
  for (int64_t n : {1, 4, 5, 8}) expect_equivalent(p, q, {{"N", n}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(BoundAndGuard, BoundAndGuardRefusesABoundTheBodyWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 2
        A[i] = 1.0
)");
  expect_refused([&] { bound_and_guard(p, "i", "16"); }, "bound_and_guard", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

}  // namespace
