// compute_at (rewrites/compute_at.cpp): its results, its refusals and the interpreter equivalence
// of what it accepts. A test ported from Exo names the Exo case in its comment.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kPipeline =
    R"(def blur(N: size, A: f32[N] @ DRAM, T: f32[N] @ DRAM, B: f32[N] @ DRAM, C: f32[N] @ DRAM):
    for i in seq(0, N):
        T[i] = A[i] * 2.0
    for k in seq(0, N):
        C[k] = 0.0
    for j in seq(0, N):
        B[j] = T[j] + 1.0
)";

// Par loops: a par result's iterations must be proved independent.
TEST(ComputeAt, ComputeAtRefusesASeqStencilIntoAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, U: i32[N] @ DRAM, Z: i32[N + 2] @ DRAM):
    for i in par(0, N):
        U[i] = 3 * U[i]
    for j in seq(0, N):
        Z[j] += Z[j + 2]
)");
  expect_refused([&] { compute_at(p, "i", "j"); }, "fuse", ErrorCode::NotProved,
                 "checker.par_conflict", kParLoopNeedle);
}

TEST(ComputeAt, FusesTheProducerIntoTheConsumer) {
  Proc p = parse_proc(kPipeline);
  Proc q = compute_at(p, p.body_cursor()[0], p.body_cursor()[2]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(ComputeAt, RefusesAConsumerNeedingALaterProducerIteration) {
  Proc p =
      parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM, T: f32[N + 1] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        T[i] = A[i]
    for j in seq(0, N):
        B[j] = T[j + 1]
)");
  expect_refused([&] { compute_at(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.refuted", "");
}

TEST(ComputeAt, RefusesAConsumerBeforeTheProducer) {
  Proc p = parse_proc(kPipeline);
  expect_refused([&] { compute_at(p, p.body_cursor()[2], p.body_cursor()[0]); }, "compute_at",
                 ErrorCode::NotProved, "stmt.order", "must come before");
}

}  // namespace
