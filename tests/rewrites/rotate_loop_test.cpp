// Tests of rotate_loop: golden + equivalence (sizes 0 and 1 included: the guards), refusals
// (nothing moved or nothing left, a non-seq loop, a moved declaration, a bound the loop
// changes) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// A stage-then-use loop: each iteration copies a row into t, then accumulates from it.
const char* kSrc = R"(def f(N: size, A: f32[N, 4] @ DRAM, x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, N):
        for j in seq(0, 4):
            t[j] = A[i, j]
        for j in seq(0, 4):
            x[j] += t[j] * t[3 - j]
)";

TEST(RotateLoop, MovesTheFirstStatementToTheIterationBefore) {
  Proc p = parse_proc(kSrc);
  Proc q = rotate_loop(p, "i", 1);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(RotateLoop, RunsNothingForAnEmptyRangeAndPrologueThenBodyForOneIteration) {
  // The range [1, N) is empty for N = 1 and one iteration for N = 2 (sizes are positive).
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM, x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for j in seq(0, 4):
        t[j] = 0.0
    for i in seq(1, N):
        for j in seq(0, 4):
            t[j] = A[i, j]
        for j in seq(0, 4):
            x[j] += t[j] * t[3 - j]
)");
  Proc q = rotate_loop(p, "i", 1);
  for (int64_t n : {1, 2, 3}) expect_equivalent(p, q, {{"N", n}});
}

TEST(RotateLoop, KeepsALowerBoundThatIsNotZero) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 3] @ DRAM, x: f32 @ DRAM):
    for i in seq(3, N + 3):
        x = A[i - 1]
        A[i] += x
)");
  Proc q = rotate_loop(p, "i", 1);
  expect_equivalent(p, q);
}

TEST(RotateLoop, RefusesToMoveNothingOrEverything) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rotate_loop(p, "i", 0); }, "rotate_loop", ErrorCode::BadArgument,
                 "arg.invalid", "at least one");
  expect_refused([&] { rotate_loop(p, "i", 2); }, "rotate_loop", ErrorCode::BadArgument,
                 "arg.invalid", "leave at least one");
}

TEST(RotateLoop, RefusesAParallelLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in par(0, N):
        A[i] = 1.0
        B[i] = 2.0
)");
  expect_refused([&] { rotate_loop(p, "i", 1); }, "rotate_loop", ErrorCode::NotProved, "loop.mode",
                 "rotates seq loops");
}

TEST(RotateLoop, RefusesToMoveADeclarationTheRestUses) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = A[i]
        A[i] = t * 2.0
)");
  expect_refused([&] { rotate_loop(p, "i", 1); }, "rotate_loop", ErrorCode::NotProved,
                 "scope.escapes", "declare 't'");
}

TEST(RotateLoop, RefusesWhenTheLoopChangesItsUpperBound) {
  Proc p = parse_proc(R"(config C:
    n: size

def f(A: f32[8] @ DRAM):
    assert C.n <= 8
    for i in seq(0, C.n):
        A[i] = 1.0
        C.n = 2
)");
  expect_refused([&] { rotate_loop(p, "i", 1); }, "rotate_loop", ErrorCode::NotProved,
                 "checker.value_changed", "upper bound");
}

TEST(RotateLoop, ForwardsTheLoopAndTheMovedStatements) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.find_loop("i");
  Cursor first = loop.body()[0], second = loop.body()[1];
  Proc q = rotate_loop(p, loop, 1);
  Cursor guard = q.body_cursor()[1];
  Cursor new_loop = guard.body()[1];
  EXPECT_EQ(q.forward(loop).loc(), new_loop.loc());
  EXPECT_EQ(q.forward(second).loc(), new_loop.body()[0].loc());
  EXPECT_EQ(q.forward(first).loc(), new_loop.body()[1].body()[0].loc());
}

// rotate_loop takes seq loops only: NotProved loop.mode.
TEST(RotateLoop, AParallelLoopIsNotProvedLoopMode) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in par(0, N):
        A[i] = 1.0
        B[i] = 2.0
)");
  expect_refused([&] { rotate_loop(p, "i", 1); }, "rotate_loop", ErrorCode::NotProved, "loop.mode");
}

}  // namespace
