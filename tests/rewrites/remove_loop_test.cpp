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
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(RemoveLoop, RefusesABodyThatReadsWhatItWrites) {
  Proc p = parse_proc(kIdem);
  expect_refused([&] { remove_loop(p, p.body_cursor()[0]); }, "remove_loop", ErrorCode::NotProved,
                 "checker.refuted", "is idempotent");
}

TEST(RemoveLoop, RefusesABodyUsingTheLoopVariable) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { remove_loop(p, p.body_cursor()[0]); }, "remove_loop", ErrorCode::NotProved,
                 "checker.refuted", "depends on i");
}

TEST(RemoveLoop, RefusesAReduction) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM):
    for i in seq(0, N):
        x += 1.0
)");
  expect_refused([&] { remove_loop(p, p.body_cursor()[0]); }, "remove_loop", ErrorCode::NotProved,
                 "checker.refuted", "adds twice");
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

namespace {

// Exo tests/test_schedules.py::test_remove_loop. Exo's golden guards the body with `if n > 0:`;
// sizes are positive in exocpp, so the checker proves the loop runs and no guard is added
// (docs/exo-differences.md).
TEST(RemoveLoop, RemoveLoop) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8):
    a: i8
    for i in seq(0, n):
        for j in seq(0, m):
            x = a
)");
  Proc q = remove_loop(foo, "for i in _:_");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: i8 @ DRAM):
    a: i8 @ DRAM
    for j in seq(0, m):
        x = a
)");
}

// Exo tests/test_schedules.py::test_remove_loop, second proc: the first `for i` matches; the empty
// nest after it stays.
TEST(RemoveLoop, RemoveLoopTheFirstMatch) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size, x: i8):
    a: i8
    for i in seq(0, n):
        for j in seq(0, m):
            x = a
    for i in seq(0, n):
        for j in seq(0, m):
            pass
)");
  Proc q = remove_loop(bar, "for i in _:_");
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size, x: i8 @ DRAM):
    a: i8 @ DRAM
    for j in seq(0, m):
        x = a
    for i in seq(0, n):
        for j in seq(0, m):
            pass
)");
}

// Exo tests/test_schedules.py::test_remove_loop_fail: a reduction is not idempotent. Exo: "The
// statement at ... is not idempotent".
TEST(RemoveLoop, RemoveLoopFailsOnAReduction) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8):
    a: i8
    for i in seq(0, n):
        for j in seq(0, m):
            x += a
)");
  expect_refused([&] { remove_loop(foo, "for i in _:_"); }, "remove_loop", ErrorCode::NotProved,
                 "checker.refuted", "so running it twice adds twice");
}

// Exo tests/test_schedules.py::test_remove_loop_deterministic: K / 4 may be 0, so the body keeps
// Exo's guard; the answer is the same on every run.
TEST(RemoveLoop, RemoveLoopDeterministic) {
  Proc foo = parse_proc(R"(def foo(M: size, N: size, K: size, A: f32[M, N]):
    for k in seq(0, K / 4):
        for i in seq(0, M):
            for j in seq(0, N):
                A[i, j] = 1.0
)");
  const char* golden = R"(def foo(M: size, N: size, K: size, A: f32[M, N] @ DRAM):
    if K / 4 > 0:
        for i in seq(0, M):
            for j in seq(0, N):
                A[i, j] = 1.0
)";
  for (int run = 0; run < 10; ++run) EXPECT_EQ(to_string(remove_loop(foo, "k")), golden) << run;
  Proc q = remove_loop(foo, "k");
  for (int64_t k : {1, 3, 4, 9}) expect_equivalent(foo, q, {{"M", 2}, {"N", 3}, {"K", k}});
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
// A loop that may run zero times is not simply unwrapped: its body stays behind a guard.
TEST(RemoveLoop, RemoveLoopKeepsALoopThatMayNotRunFromRunning) {
  Proc p = parse_proc(R"(
def f(N: size, x: f32 @ DRAM):
    for i in seq(0, N - 1):
        x = 1.0
)");
  Proc q = remove_loop(p, "i");
  for (int64_t n : {1, 2}) expect_equivalent(p, q, {{"N", n}});
}

}  // namespace
