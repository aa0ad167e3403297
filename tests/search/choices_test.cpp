// Choice points and traces (search/choices.h): drawing, recording, replaying and guiding.
#include "search/choices.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

const char* kLoop = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        B[i] = A[i] * 2.0
)";

// A small space: a tile size, whether to unroll the inner loop, and (only when unrolling) a
// second decision that exists only on that branch.
Proc space(const Proc& p, Choices& c) {
  int64_t t = c.pick_int("tile", {2, 4, 8});
  Proc q = divide_loop(p, "i", t, {"io", "ii"}, {.tail = Tail::Guard});
  if (c.flip("unroll") && c.flip("unroll_outer_too")) return q;
  return q;
}

TEST(Choices, TheSameSeedDrawsTheSameDecisions) {
  Proc p = parse_proc(kLoop);
  for (uint64_t seed : {1, 2, 3}) {
    Choices a = Choices::random(seed), b = Choices::random(seed);
    space(p, a);
    space(p, b);
    EXPECT_EQ(a.trace().to_string(), b.trace().to_string());
  }
}

TEST(Choices, AReplayedTraceGivesTheSameProc) {
  Proc p = parse_proc(kLoop);
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    Choices c = Choices::random(seed);
    Proc q = space(p, c);
    Choices r = Choices::replay(c.trace());
    EXPECT_EQ(to_string(space(p, r)), to_string(q)) << c.trace().to_string();
    EXPECT_EQ(r.trace(), c.trace());
  }
}

TEST(Choices, ATraceRoundTripsThroughItsText) {
  Choices c = Choices::random(7);
  c.pick_int("tile", {2, 4, 8});
  c.order("order", 3);
  c.pick("mem", {"DRAM", "DRAM_STACK"});
  std::string text = c.trace().to_string();
  Choices r = Choices::replay(parse_trace(text));
  r.pick_int("tile", {2, 4, 8});
  r.order("order", 3);
  r.pick("mem", {"DRAM", "DRAM_STACK"});
  EXPECT_EQ(r.trace().to_string(), text);
}

TEST(Choices, ReplayingAValueNoLongerOfferedIsAnError) {
  Choices r = Choices::replay(parse_trace("tile=16"));
  EXPECT_THROW(r.pick_int("tile", {2, 4, 8}), SearchError);
}

TEST(Choices, ReplayingATraceWithoutTheDecisionIsAnError) {
  Choices r = Choices::replay(parse_trace("tile=4"));
  r.pick_int("tile", {2, 4, 8});
  EXPECT_THROW(r.flip("unroll"), SearchError);
}

TEST(Choices, AskingTwiceForOneNameIsAnError) {
  Choices c = Choices::random(1);
  c.flip("unroll");
  EXPECT_THROW(c.flip("unroll"), SearchError);
}

TEST(Choices, GuidedKeepsTheNamedValuesAndDrawsTheRest) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Choices g = Choices::guided(parse_trace("tile=8 gone=1"), seed);
    EXPECT_EQ(g.pick_int("tile", {2, 4, 8}), 8);
    g.flip("unroll");  // not named: drawn
    EXPECT_EQ(g.trace().decisions.size(), 2u);
  }
  // A named value the space no longer offers is drawn instead of failing.
  Choices g = Choices::guided(parse_trace("tile=16"), 1);
  int64_t t = g.pick_int("tile", {2, 4, 8});
  EXPECT_TRUE(t == 2 || t == 4 || t == 8);
}

TEST(Choices, FactorOffersTheDivisorsInTheRange) {
  Choices c = Choices::random(1);
  c.factor("t", 12, 2, 6);
  EXPECT_EQ(c.trace().decisions[0].options, (std::vector<std::string>{"2", "3", "4", "6"}));
  EXPECT_THROW(c.factor("u", 7, 2, 6), SearchError);
}

TEST(Choices, OrderIsAPermutation) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Choices c = Choices::random(seed);
    std::vector<int> o = c.order("o", 4);
    std::vector<int> sorted = o;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(c.trace().decisions[0].options.size(), 24u);
  }
}

TEST(Choices, MalformedTracesAreRefused) {
  EXPECT_THROW(parse_trace("tile"), SearchError);
  EXPECT_THROW(parse_trace("=4"), SearchError);
  EXPECT_THROW(parse_trace("tile=4 tile=8"), SearchError);
  EXPECT_THROW(parse_trace("a=b=c"), SearchError);
  EXPECT_TRUE(parse_trace("").empty());
}

}  // namespace
