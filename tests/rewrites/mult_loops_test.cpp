// Tests of mult_loops: golden + equivalence, refusals (non-constant inner bound, not a single
// nested loop, nonzero start, name in use) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 4):
            A[i, j] = 1.0
)";

TEST(MultLoops, ConstantInnerBound) {
  Proc p = parse_proc(kSrc);
  Proc q = mult_loops(p, p.body_cursor()[0], "k");
  expect_golden("MultLoops.ConstantInnerBound", to_string(q));
  expect_equivalent(p, q);
}

TEST(MultLoops, RefusesANonConstantInnerBound) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            A[i, j] = 1.0
)");
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "k"); }, "mult_loops",
                 "positive integer constant");
}

TEST(MultLoops, RefusesALoopHoldingMore) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        A[i, 0] = 0.0
        for j in seq(0, 4):
            A[i, j] = 1.0
)");
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "k"); }, "mult_loops",
                 "is not one loop: it holds 2 statements");
}

TEST(MultLoops, RefusesANonZeroStart) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        for j in seq(1, 4):
            A[i, j] = 1.0
)");
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "k"); }, "mult_loops",
                 ErrorCode::NotProved, "loop.lower_bound_not_zero");
}

TEST(MultLoops, RefusesANameInUse) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "j"); }, "mult_loops",
                 "'j' is already used");
}

TEST(MultLoops, ForwardsTheBodyUpOneLevel) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0].body()[0];
  Proc q = mult_loops(p, p.body_cursor()[0], "k");
  EXPECT_EQ(q.forward(body).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(body).to_string(), "A[k / 4, k % 4] = 1.0");
}

}  // namespace
