// Tests of join_loops: golden + equivalence, refusals (bodies differ, ranges not consecutive,
// not adjacent) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N + 4] @ DRAM):
    for i in seq(0, 4):
        A[i] = 1.0
    for j in seq(4, N + 4):
        A[j] = 1.0
)";

TEST(JoinLoops, ConsecutiveRanges) {
  Proc p = parse_proc(kSrc);
  Proc q = join_loops(p, p.body_cursor()[0], p.body_cursor()[1]);
  expect_golden("JoinLoops.ConsecutiveRanges", to_string(q));
  expect_equivalent(p, q);
}

TEST(JoinLoops, RefusesDifferentBodies) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 4] @ DRAM):
    for i in seq(0, 4):
        A[i] = 1.0
    for j in seq(4, N + 4):
        A[j] = 2.0
)");
  expect_refused([&] { join_loops(p, p.body_cursor()[0], p.body_cursor()[1]); }, "join_loops",
                 "differ");
}

TEST(JoinLoops, RefusesAGapBetweenTheRanges) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 4] @ DRAM):
    for i in seq(0, 3):
        A[i] = 1.0
    for j in seq(4, N + 4):
        A[j] = 1.0
)");
  expect_refused([&] { join_loops(p, p.body_cursor()[0], p.body_cursor()[1]); }, "join_loops",
                 "where the second begins ('4'), but");
}

TEST(JoinLoops, RefusesLoopsThatAreNotAdjacent) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { join_loops(p, p.body_cursor()[1], p.body_cursor()[0]); }, "join_loops",
                 ErrorCode::BadArgument, "target.not_adjacent");
}

TEST(JoinLoops, ForwardsTheFirstLoopAndInvalidatesTheSecond) {
  Proc p = parse_proc(kSrc);
  Proc q = join_loops(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.forward(p.body_cursor()[0].body()[0]).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_FALSE(q.forward(p.body_cursor()[1]).is_valid());
}

}  // namespace
