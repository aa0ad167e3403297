// Tests of remove_loop: golden + equivalence, the refusals (body uses the variable, reduces),
// the guard kept when the loop may run zero times, and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kIdem = R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N):
        x = y * 2.0
        y = 3.0
)";

TEST(RemoveLoop, IdempotentBody) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N):
        x = y * 2.0
)");
  Proc q = remove_loop(p, p.body_cursor()[0]);
  expect_golden("RemoveLoop.IdempotentBody", to_string(q));
  expect_equivalent(p, q);
}

TEST(RemoveLoop, RefusesABodyThatReadsWhatItWrites) {
  Proc p = parse_proc(kIdem);
  expect_refused([&] { remove_loop(p, p.body_cursor()[0]); }, "remove_loop", "is idempotent");
}

TEST(RemoveLoop, RefusesABodyUsingTheLoopVariable) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { remove_loop(p, p.body_cursor()[0]); }, "remove_loop", "depends on i");
}

TEST(RemoveLoop, RefusesAReduction) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM):
    for i in seq(0, N):
        x += 1.0
)");
  expect_refused([&] { remove_loop(p, p.body_cursor()[0]); }, "remove_loop", "adds twice");
}

// The checker cannot prove the loop runs (N = 1 runs it zero times), so the body keeps Exo's
// guard `if hi > lo`.
TEST(RemoveLoop, GuardsALoopThatMayNotRun) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM):
    for i in seq(0, N - 1):
        x = 1.0
)");
  Proc q = remove_loop(p, p.body_cursor()[0]);
  EXPECT_EQ(to_string(q), R"(def f(N: size, x: f32 @ DRAM):
    if N - 1 > 0:
        x = 1.0
)");
  for (int64_t n : {1, 2, 5}) expect_equivalent(p, q, {{"N", n}});
}

TEST(RemoveLoop, ForwardsTheBodyIntoTheGuard) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N - 1):
        x = 1.0
        y = 2.0
)");
  Cursor second = p.body_cursor()[0].body()[1];
  Proc q = remove_loop(p, p.body_cursor()[0]);
  EXPECT_EQ(q.forward(second).loc(), q.body_cursor()[0].body()[1].loc());
  EXPECT_FALSE(q.forward(p.body_cursor()[0]).is_valid());
}

TEST(RemoveLoop, ForwardsTheBodyUpOneLevel) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N):
        x = 1.0
        y = 2.0
)");
  Cursor second = p.body_cursor()[0].body()[1];
  Proc q = remove_loop(p, p.body_cursor()[0]);
  EXPECT_EQ(q.forward(second).loc(), q.body_cursor()[1].loc());
  EXPECT_FALSE(q.forward(p.body_cursor()[0]).is_valid());
}

}  // namespace
