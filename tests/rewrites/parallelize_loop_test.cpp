// parallelize_loop: seq -> par when no two iterations conflict.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(ParallelizeLoop, MakesAnIndependentLoopParallel) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = B[i] + 1.0
)");
  Proc q = parallelize_loop(p, p.body_cursor()[0]);
  expect_golden("ParallelizeLoop_MakesAnIndependentLoopParallel", to_string(q));
  expect_equivalent(p, q);
}

TEST(ParallelizeLoop, RefusesACarriedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM):
    for i in seq(0, N):
        A[i + 1] = A[i]
)");
  expect_refused([&] { parallelize_loop(p, p.body_cursor()[0]); }, "parallelize_loop",
                 "independent");
}

TEST(ParallelizeLoop, RefusesAReductionRace) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, N):
        s += A[i]
)");
  expect_refused([&] { parallelize_loop(p, p.body_cursor()[0]); }, "parallelize_loop",
                 "independent");
}

TEST(ParallelizeLoop, RefusesANonLoop) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    A[0] = 1.0
)");
  expect_refused([&] { parallelize_loop(p, p.body_cursor()[0]); }, "parallelize_loop",
                 "expected a loop");
}

TEST(ParallelizeLoop, ForwardsTheBody) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  Cursor s = p.body_cursor()[0].body()[0];
  Proc q = parallelize_loop(p, p.body_cursor()[0]);
  EXPECT_EQ(q.forward(s).to_string(), "A[i] = 1.0");
  EXPECT_EQ(q.forward(s).stmt().get(), q.body()[0].as<ForNode>()->body[0].get());
}

TEST(ParallelizeLoop, AcceptsALoopName) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  Proc q = parallelize_loop(p, "i");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

}  // namespace
