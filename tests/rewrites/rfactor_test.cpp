// rfactor: a loop's sums split into lanes and added back after the loop (regrouped as reals).
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(Rfactor, SplitsASumIntoLanes) {
  Proc p = parse_proc(R"(def dot(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, n):
        s += x[i] * y[i]
)");
  Proc q = rfactor(p, "for i in _: _", 4);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(Rfactor, SplitsSumsUnderDataConditionsAndKeepsTemporariesInOrder) {
  // nrm2's shape: a per-iteration temporary and three sums chosen by data comparisons.
  Proc p =
      parse_proc(R"(def f(n: size, x: f64[n] @ DRAM, a: f64 @ DRAM, b: f64 @ DRAM, c: f64 @ DRAM):
    for i in seq(0, n):
        t: f64 @ DRAM
        t = abs(x[i])
        if t > 4.0:
            a += t * 0.25 * (t * 0.25)
        else:
            if t < 0.5:
                b += t * 4.0 * (t * 4.0)
            else:
                c += t * t
)");
  Proc q = rfactor(p, "for i in _: _", 3, {.outer = "q", .lane = "k"});
  // The lanes' copy of the body (with its own temporary t) reduces into a's lane.
  EXPECT_TRUE(has(q, "a_lanes[k] += t * 0.25 * (t * 0.25)")) << q;
  EXPECT_TRUE(has(q, "for q in seq(0, n / 3):")) << q;
  expect_equivalent(p, q);
}

TEST(Rfactor, LeavesAPerIterationReductionAlone) {
  Proc p = parse_proc(R"(def f(n: size, x: i32[n] @ DRAM, y: i32[n] @ DRAM, s: i32 @ DRAM):
    for i in seq(0, n):
        y[i] += x[i]
        s += x[i] * 3
)");
  Proc q = rfactor(p, "for i in _: _", 2);
  EXPECT_TRUE(has(q, "s_lanes: i32[2] @ DRAM")) << q;
  EXPECT_FALSE(has(q, "y_lanes")) << q;
  expect_equivalent(p, q);
}

TEST(Rfactor, NamesTheLaneBuffersWithTheSuffixAsked) {
  // A second rfactor of the first one's fold loop (a lane-wise merge) needs a name of its own:
  // `s_lanes` is taken.
  Proc p = parse_proc(R"(def dot(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, n):
        s += x[i] * y[i]
)");
  Proc q = rfactor(p, "for i in _: _", 8);
  Proc r = rfactor(q, q.find("s += s_lanes[_]").parent(), 4,
                   {.outer = "g", .lane = "m", .suffix = "_merged"});
  EXPECT_TRUE(has(r, "s_merged: f32[4] @ DRAM")) << r;
  EXPECT_TRUE(has(r, "s_merged[m] += s_lanes[4 * g + m]")) << r;
  expect_equivalent(p, r);
}

TEST(Rfactor, RefusesAnAccumulatorTheLoopReads) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, n):
        s += x[i] * s
)");
  expect_refused([&] { rfactor(p, "for i in _: _", 4); }, "rfactor", ErrorCode::NotProved,
                 "stmt.form", "would see a partial sum");
}

TEST(Rfactor, RefusesAFloatTermIntoAnIntegerAccumulator) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, s: i32 @ DRAM):
    for i in seq(0, n):
        s += x[i]
)");
  expect_refused([&] { rfactor(p, "for i in _: _", 4); }, "rfactor", ErrorCode::NotProved,
                 "precision.regroup", "truncates each sum on its own");
}

TEST(Rfactor, RefusesALoopWithoutAnAccumulator) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] += x[i]
)");
  expect_refused([&] { rfactor(p, "for i in _: _", 4); }, "rfactor", ErrorCode::NotProved,
                 "stmt.form", "reduces into nothing that stays in place");
}

TEST(Rfactor, RefusesAnAccumulatorReducedIntoAtTwoPlaces) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, s: f32[2] @ DRAM):
    for i in seq(0, n):
        s[0] += x[i]
        s[1] += x[i]
)");
  expect_refused([&] { rfactor(p, "for i in _: _", 4); }, "rfactor", ErrorCode::NotProved,
                 "stmt.form", "at two places");
}

}  // namespace
