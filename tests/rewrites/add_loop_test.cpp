// Tests of add_loop: plain and guarded (golden + equivalence), refusals (not idempotent, bound
// not positive, bad bound text, name in use) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    x = y * 2.0
    y += 1.0
)";

TEST(AddLoop, AroundAnIdempotentStatement) {
  Proc p = parse_proc(kSrc);
  Proc q = add_loop(p, p.body_cursor()[0], "i", "N");
  expect_golden("AddLoop.Idempotent", to_string(q));
  expect_equivalent(p, q);
}

TEST(AddLoop, GuardedAroundAReduction) {
  Proc p = parse_proc(kSrc);
  Proc q = add_loop(p, p.body_cursor()[1], "i", "N + 2", {.guard = true});
  expect_golden("AddLoop.Guarded", to_string(q));
  expect_equivalent(p, q);
}

TEST(AddLoop, RefusesANonIdempotentBlock) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[1], "i", "N"); }, "add_loop", "adds twice");
}

TEST(AddLoop, RefusesABoundThatMayNotBePositive) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "i", "N - 1"); }, "add_loop",
                 "is positive, but");
}

TEST(AddLoop, RefusesABoundThatIsNotAnInteger) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "i", "N > 1"); }, "add_loop",
                 "must be an integer (index) expression, but it has type bool");
}

TEST(AddLoop, RefusesAnUnknownName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "i", "K"); }, "add_loop", "K");
}

TEST(AddLoop, RefusesANameInUse) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "x", "N"); }, "add_loop",
                 "'x' is already used");
}

TEST(AddLoop, ForwardsTheBlockIntoTheLoop) {
  Proc p = parse_proc(kSrc);
  Cursor s = p.body_cursor()[0], t = p.body_cursor()[1];
  Proc q = add_loop(p, s, "i", "N");
  EXPECT_EQ(q.forward(s).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(t).loc(), q.body_cursor()[1].loc());
}

}  // namespace
