// Ports of the fission, autofission and remove_loop cases of Exo's tests/test_schedules.py. Each
// test names the Exo case it ports; the expected text is Exo's golden in our printer's layout,
// or, where we deliberately differ, our result with the reason.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kFooTwoLoops = R"(def foo(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
)";

// test_fission_after_simple, first case: each statement pair gets its own nest.
TEST(ExoLoopsPort, FissionAfterSimple) {
  Proc foo = parse_proc(kFooTwoLoops);
  Proc q = fission(foo, foo.find("x = _").after(), {.n_lifts = 2});
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32 @ DRAM
            x = 0.0
    for i in seq(0, n):
        for j in seq(0, m):
            y: f32 @ DRAM
            y = 1.1
)");
  expect_equivalent(foo, q, {{"n", 2}, {"m", 3}});
}

// test_fission_after_simple, second case: the first match is split; the later nest stays.
TEST(ExoLoopsPort, FissionAfterSimpleSplitsTheFirstMatchOnly) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
    for k in seq(0, 30):
        for l in seq(0, 100):
            x: i8
            x = 4.0
            y: f32
            y = 1.1
)");
  Proc q = fission(bar, bar.find("x = _").after(), {.n_lifts = 2});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32 @ DRAM
            x = 0.0
    for i in seq(0, n):
        for j in seq(0, m):
            y: f32 @ DRAM
            y = 1.1
    for k in seq(0, 30):
        for l in seq(0, 100):
            x: i8 @ DRAM
            x = 4.0
            y: f32 @ DRAM
            y = 1.1
)");
}

// test_fission_after_simple_fail: one loop, two lifts asked for. Exo says "Can only lift past a
// for loop"; ours names the missing scope.
TEST(ExoLoopsPort, FissionAfterSimpleFailsPastTheProc) {
  Proc foo = parse_proc(R"(def foo():
    for i in seq(0, 4):
        x: i8
        x = 0.0
        y: i8
        y = 1.0
)");
  expect_refused([&] { fission(foo, foo.find("x = 0.0").after(), {.n_lifts = 2}); }, "fission",
                 "there is no enclosing loop or if to split (n_lifts is too large)");
}

// test_simple_fission: autofission of two reductions; neither copy can be removed.
TEST(ExoLoopsPort, SimpleFission) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n], B: i8[n], C: i8[n]):
    for i in seq(0, n):
        C[i] += A[i]
        C[i] += B[i]
)");
  Proc q = autofission(bar, bar.find("C[_] += A[_]").after());
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM, B: i8[n] @ DRAM, C: i8[n] @ DRAM):
    for i in seq(0, n):
        C[i] += A[i]
    for i in seq(0, n):
        C[i] += B[i]
)");
  expect_equivalent(bar, q, {{"n", 5}});
}

// test_fission: autofission through two loops whose copies use neither iterator, so all four
// copies are removed (sizes are positive, so every loop runs and no guard is needed).
TEST(ExoLoopsPort, FissionRemovesEveryLoopCopy) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
)");
  Proc q = autofission(bar, bar.find("x = _").after(), {.n_lifts = 2});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size):
    x: f32 @ DRAM
    x = 0.0
    y: f32 @ DRAM
    y = 1.1
)");
}

// test_fission2: x is allocated before the gap and read after it. Exo: "Will not fission here".
TEST(ExoLoopsPort, Fission2RefusesAnAllocationUsedAcrossTheGap) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size):
    for i in seq(0, n):
        for j in seq(0, m):
            x: f32
            x = 0.0
            y: f32
            y = 1.1
            y = x
)");
  expect_refused([&] { autofission(bar, bar.find("x = _").after(), {.n_lifts = 2}); },
                 "autofission", "'x' is defined before the gap and used after it");
}

// test_remove_loop. Exo's golden guards the body with `if n > 0:`; sizes are positive in
// exocpp, so the checker proves the loop runs and no guard is added (docs/exo-differences.md).
TEST(ExoLoopsPort, RemoveLoop) {
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

// test_remove_loop, second proc: the first `for i` matches; the empty nest after it stays.
TEST(ExoLoopsPort, RemoveLoopTheFirstMatch) {
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

// test_remove_loop_fail: a reduction is not idempotent. Exo: "The statement at ... is not
// idempotent".
TEST(ExoLoopsPort, RemoveLoopFailsOnAReduction) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8):
    a: i8
    for i in seq(0, n):
        for j in seq(0, m):
            x += a
)");
  expect_refused([&] { remove_loop(foo, "for i in _:_"); }, "remove_loop",
                 "so running it twice adds twice");
}

// test_remove_loop_deterministic: K / 4 may be 0, so the body keeps Exo's guard; the answer is
// the same on every run.
TEST(ExoLoopsPort, RemoveLoopDeterministic) {
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

}  // namespace
