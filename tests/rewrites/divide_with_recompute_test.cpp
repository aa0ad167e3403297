// Tests of divide_with_recompute: golden + equivalence, refusals (chunks past the bound, a
// reduction recomputed, iterations that do not commute, bad stride) and forwarding.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rewrite_test_util.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kBlur = R"(def f(N: size, A: f32[N + 2] @ DRAM, B: f32[N] @ DRAM):
    assert N >= 8
    for i in seq(0, N):
        B[i] = A[i] + A[i + 1] + A[i + 2]
)";

TEST(DivideWithRecompute, OverlappingChunks) {
  Proc p = parse_proc(kBlur);
  Proc q = divide_with_recompute(p, p.body_cursor()[0], "N / 4", 4, {"io", "ii"});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideWithRecompute, RefusesChunksPastTheBound) {
  Proc p = parse_proc(kBlur);
  expect_refused(
      [&] {
        divide_with_recompute(p, p.body_cursor()[0], "N / 4 + 1", 4, {"io", "ii"});
      },
      "divide_with_recompute", ErrorCode::NotProved, "checker.refuted",
      "is at most the loop's bound 'N', but");
}

TEST(DivideWithRecompute, RefusesRecomputingAReduction) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    assert N >= 8
    for i in seq(0, N):
        x += A[i]
)");
  expect_refused(
      [&] {
        divide_with_recompute(p, p.body_cursor()[0], "N / 4", 4, {"io", "ii"});
      },
      "divide_with_recompute", ErrorCode::NotProved, "checker.refuted",
      "twice is the same as running it once, but");
}

TEST(DivideWithRecompute, RefusesIterationsThatDoNotCommute) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM):
    assert N >= 8
    for i in seq(0, N):
        A[i + 1] = A[i]
)");
  expect_refused(
      [&] {
        divide_with_recompute(p, p.body_cursor()[0], "N / 4", 4, {"io", "ii"});
      },
      "divide_with_recompute", ErrorCode::NotProved, "checker.refuted", "commute, but");
}

TEST(DivideWithRecompute, RefusesANonPositiveStride) {
  Proc p = parse_proc(kBlur);
  expect_refused(
      [&] {
        divide_with_recompute(p, p.body_cursor()[0], "N / 4", 0, {"io", "ii"});
      },
      "divide_with_recompute", ErrorCode::BadArgument, "arg.range", "stride must be positive");
}

TEST(DivideWithRecompute, ForwardsTheBodyIntoTheInnerLoop) {
  Proc p = parse_proc(kBlur);
  Cursor body = p.body_cursor()[0].body()[0];
  Proc q = divide_with_recompute(p, p.body_cursor()[0], "N / 4", 4, {"io", "ii"});
  EXPECT_EQ(q.forward(body).loc(), q.body_cursor()[0].body()[0].body()[0].loc());
}

}  // namespace

// Exo's test_divide_with_recompute: the inner bound holds `n % 4` (the part of the loop the
// chunks' starts do not reach), which rewrite_expr then replaces under the assert.
TEST(DivideWithRecompute, ExoInnerBoundHoldsTheRemainderAsAModulo) {
  Proc p = parse_proc(R"(def foo(n: size, A: i8[n + 3]):
    assert n % 4 == 0
    for i in seq(0, n + 3):
        A[i] = 1.0
)");
  Proc q = divide_with_recompute(p, p.find_loop("i"), "n/4", 4, {"io", "ii"});
  Proc r = simplify(rewrite_expr(q, "n % 4", "0"));
  EXPECT_EQ(to_string(r), R"(def foo(n: size, A: i8[n + 3] @ DRAM):
    assert n % 4 == 0
    for io in seq(0, n / 4):
        for ii in seq(0, 7):
            A[ii + 4 * io] = 1.0
)");
  expect_equivalent(p, r);
}

namespace {

// Exo tests/test_schedules.py::test_divide_with_recompute_fail_not_idempotent. Exo: "The statement
// at ... is not idempotent". exocpp first proves the outer bound n / 4 positive, which fails for n
// < 4 (the divided loop would run no iteration), so Exo's proc is refused for that reason; with
// `assert n >= 4` added the reduction's repeat is what is refused.
TEST(DivideWithRecompute, DivideWithRecomputeFailNotIdempotent) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n + 3]):
    for i in seq(0, n + 3):
        A[i] += 1.0
)");
  expect_refused(
      [&] {
        divide_with_recompute(foo, foo.find_loop("i"), "n/4", 4, {"io", "ii"});
      },
      "divide_with_recompute", ErrorCode::NotProved, "checker.refuted",
      "the outer bound 'n/4' is positive");
  Proc foo4 = parse_proc(R"(def foo(n: size, A: i8[n + 3]):
    assert n >= 4
    for i in seq(0, n + 3):
        A[i] += 1.0
)");
  expect_refused(
      [&] {
        divide_with_recompute(foo4, foo4.find_loop("i"), "n/4", 4, {"io", "ii"});
      },
      "divide_with_recompute", ErrorCode::NotProved, "checker.refuted",
      "running one iteration of loop i twice is the same as running it once");
}

// Exo tests/test_schedules.py::test_divide_with_recompute_fail_outer_hi_too_big. Exo: "outer_hi *
// outer_stride exceeds loop's hi n + 3".
TEST(DivideWithRecompute, DivideWithRecomputeFailOuterHiTooBig) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n + 3]):
    for i in seq(0, n + 3):
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_with_recompute(foo, foo.find_loop("i"), "(n + 4) / 4", 4, {"io", "ii"});
      },
      "divide_with_recompute", ErrorCode::NotProved, "checker.refuted",
      "outer_hi * outer_stride is at most the loop's bound 'n + 3'");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(DivideWithRecompute, DivideWithRecomputeRefusesBadNames) {
  Proc p = parse_proc(kNamesTwoLoops);
  expect_all_refused("divide_with_recompute", [&](const std::string& n) {
    divide_with_recompute(p, "j", "2", 4, {n, "ji"});
  });
}

}  // namespace
