// Tests of cut_loop: golden + equivalence, refusals (cut outside the range, not an integer,
// unknown name) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N + 8] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N + 8):
        A[i] = 1.0
    x = 2.0
)";

TEST(CutLoop, AtAnExpression) {
  Proc p = parse_proc(kSrc);
  Proc q = cut_loop(p, p.body_cursor()[0], "8");
  expect_golden("CutLoop.AtAnExpression", to_string(q));
  expect_equivalent(p, q);
}

TEST(CutLoop, AtAnExpressionOfSizes) {
  Proc p = parse_proc(kSrc);
  Proc q = cut_loop(p, p.body_cursor()[0], "N");
  expect_golden("CutLoop.AtASize", to_string(q));
  expect_equivalent(p, q);
}

TEST(CutLoop, RefusesACutPastTheEnd) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "N + 9"); }, "cut_loop",
                 "is at most the upper bound");
}

TEST(CutLoop, RefusesACutBeforeTheStart) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "N - 4"); }, "cut_loop",
                 "is at least the lower bound");
}

TEST(CutLoop, RefusesACondition) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "N < 3"); }, "cut_loop",
                 "must be an integer (index) expression, but it has type bool");
}

TEST(CutLoop, RefusesTheLoopsOwnVariable) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { cut_loop(p, p.body_cursor()[0], "i"); }, "cut_loop", "i");
}

TEST(CutLoop, ForwardsTheLoopToTheFirstHalf) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0], after = p.body_cursor()[1];
  Proc q = cut_loop(p, p.body_cursor()[0], "8");
  EXPECT_EQ(q.forward(body).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(after).loc(), q.body_cursor()[2].loc());
}

}  // namespace
