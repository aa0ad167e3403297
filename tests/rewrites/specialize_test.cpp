// Tests of specialize: one and two conditions (golden + equivalence), refusals (no condition,
// a non-boolean condition) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)";

TEST(Specialize, TwoConditions) {
  Proc p = parse_proc(kSrc);
  Proc q = specialize(p, p.body_cursor()[0], {"N == 4", "N > 8"});
  expect_golden("Specialize.TwoConditions", to_string(q));
  expect_equivalent(p, q);
}

TEST(Specialize, InsideALoopUsingItsVariable) {
  Proc p = parse_proc(kSrc);
  Proc q = specialize(p, p.body_cursor()[0].body()[0], {"i < 2"});
  expect_golden("Specialize.InsideALoop", to_string(q));
  expect_equivalent(p, q);
}

TEST(Specialize, RefusesNoConditions) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { specialize(p, p.body_cursor()[0], {}); }, "specialize",
                 "at least one condition");
}

TEST(Specialize, RefusesANonBooleanCondition) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { specialize(p, p.body_cursor()[0], {"N + 1"}); }, "specialize",
                 "must be a condition, but it has type size");
}

TEST(Specialize, ForwardsTheBlockToTheFirstCopy) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0];
  Proc q = specialize(p, p.body_cursor()[0], {"N == 4"});
  EXPECT_EQ(q.forward(body).loc(), q.body_cursor()[0].body()[0].body()[0].loc());
}

}  // namespace
