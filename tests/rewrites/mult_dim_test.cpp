// mult_dim (rewrites/mult_dim.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <regex>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// Exo tests/test_schedules.py::test_mult_dim_1: dimension 2 (4) folded into dimension 0.
TEST(MultDim, MultDim1) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, A: f32[n + m + 12] @ DRAM):
    x: f32[n, m, 4] @ DRAM
    for i in seq(0, n):
        for j in seq(0, m):
            for k in seq(0, 4):
                x[i, j, k] = A[i + j + k]
)");
  Proc q = mult_dim(foo, "x : _", 0, 2);
  EXPECT_TRUE(has(q, "x: f32[n * 4, m]") || has(q, "x: f32[4 * n, m]")) << q;
  EXPECT_TRUE(has(q, "x[4 * i + k, j]")) << q;
  expect_equivalent(foo, q, {{"n", 2}, {"m", 3}});
}

// Exo tests/test_schedules.py::test_mult_dim_fail_1: out-of-range dimension, a dimension with
// itself, a non-literal one.
TEST(MultDim, MultDimFail) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, A: f32[n + m + 12] @ DRAM):
    x: f32[n, m, 4] @ DRAM
    for i in seq(0, n):
        for j in seq(0, m):
            for k in seq(0, 4):
                x[i, j, k] = A[i + j + k]
)");
  EXPECT_ANY_THROW(mult_dim(foo, "x : _", 3, 4));
  EXPECT_ANY_THROW(mult_dim(foo, "x : _", 2, 2));
  EXPECT_THROW(mult_dim(foo, "x : _", 0, 1), SchedulingError);
}

TEST(MultDim, RefusesChangingTheStrideOfAWindowAcrossTheOtherDimension) {
  Proc p = parse_proc(R"(def f(B: f32[2, 3, 4] @ DRAM):
    x: f32[2, 3, 4] @ DRAM
    for i in seq(0, 2):
        for k in seq(0, 4):
            w = x[i, 0:3, k]
            for j in seq(0, 3):
                w[j] = 1.0
                if stride(w, 0) == 4:
                    w[j] = 2.0
    for i in seq(0, 2):
        for j in seq(0, 3):
            for k in seq(0, 4):
                B[i, j, k] = x[i, j, k]
)");
  expect_refused([&] { mult_dim(p, "x : _", 0, 2); }, "mult_dim", ErrorCode::NotProved,
                 "layout.stride_changed");
}

TEST(MultDim, MergesAConstantDimensionIntoAnother) {
  Proc p = parse_proc(kMatTmp);
  Proc q = mult_dim(p, p.body_cursor()[0], 0, 2);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(MultDim, RefusesANonConstantLowDimension) {
  Proc p = parse_proc(kMatTmp);
  expect_refused([&] { mult_dim(p, p.body_cursor()[0], 2, 0); }, "mult_dim", ErrorCode::NotProved,
                 "buffer.not_constant", "must be a constant");
}

TEST(MultDim, RefusesTheSameDimensionTwice) {
  Proc p = parse_proc(kMatTmp);
  expect_refused([&] { mult_dim(p, p.body_cursor()[0], 1, 1); }, "mult_dim", ErrorCode::BadArgument,
                 "arg.invalid", "must differ");
}

}  // namespace
