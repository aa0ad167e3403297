// set_loop_mode (rewrites/set_loop_mode.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. The CUDA modes' kernel rules are tested in tests/cuda.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kIndependent = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = B[i] + 1.0
)";

TEST(SetLoopMode, MakesAnIndependentLoopPar) {
  Proc p = parse_proc(kIndependent);
  Proc q = set_loop_mode(p, "for i in _: _", "par");
  EXPECT_TRUE(has(q, "for i in par(0, N):")) << q;
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(SetLoopMode, GoingBackToSeqIsAlwaysAccepted) {
  Proc p = set_loop_mode(parse_proc(kIndependent), "for i in _: _", "par");
  Proc q = set_loop_mode(p, "for i in _: _", "seq");
  EXPECT_TRUE(has(q, "for i in seq(0, N):")) << q;
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(SetLoopMode, TheSameModeChangesNothing) {
  Proc p = parse_proc(kIndependent);
  Proc q = set_loop_mode(p, "for i in _: _", "seq");
  EXPECT_EQ(to_string(q), to_string(p));
}

TEST(SetLoopMode, RefusesParForACarriedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM):
    for i in seq(0, N):
        A[i + 1] = A[i]
)");
  expect_refused([&] { set_loop_mode(p, "for i in _: _", "par"); }, "set_loop_mode",
                 ErrorCode::NotProved, "checker.par_conflict");
}

TEST(SetLoopMode, RefusesParForAReductionIntoOneLocation) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, N):
        s += A[i]
)");
  expect_refused([&] { set_loop_mode(p, "for i in _: _", "par"); }, "set_loop_mode",
                 ErrorCode::NotProved, "checker.par_conflict");
}

TEST(SetLoopMode, RefusesParForALoopAllocatingStaticStorage) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        t: f32[4] @ DRAM_STATIC
        for k in seq(0, 4):
            t[k] = A[i, k]
        for k in seq(0, 4):
            A[i, k] = t[k] + 1.0
)");
  expect_refused([&] { set_loop_mode(p, "for i in _: _", "par"); }, "set_loop_mode",
                 ErrorCode::NotProved, "alloc.shared_by_parallel");
}

TEST(SetLoopMode, RefusesAnUnknownModeName) {
  Proc p = parse_proc(kIndependent);
  expect_refused([&] { set_loop_mode(p, "for i in _: _", "parallel"); }, "set_loop_mode",
                 ErrorCode::BadArgument, "arg.invalid");
}

}  // namespace
