// Tests of shift_loop: golden + equivalence, refusal of a possibly negative bound, and
// forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N + 2] @ DRAM):
    for i in seq(2, N + 2):
        A[i] = 1.0
)";

TEST(ShiftLoop, ToZero) {
  Proc p = parse_proc(kSrc);
  Proc q = shift_loop(p, p.body_cursor()[0], "0");
  expect_golden("ShiftLoop.ToZero", to_string(q));
  expect_equivalent(p, q);
}

TEST(ShiftLoop, ToASize) {
  Proc p = parse_proc(kSrc);
  Proc q = shift_loop(p, p.body_cursor()[0], "N");
  expect_golden("ShiftLoop.ToASize", to_string(q));
  expect_equivalent(p, q);
}

TEST(ShiftLoop, RefusesAPossiblyNegativeBound) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { shift_loop(p, p.body_cursor()[0], "1 - N"); }, "shift_loop",
                 "is non-negative, but");
}

TEST(ShiftLoop, RefusesACondition) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { shift_loop(p, p.body_cursor()[0], "N == 1"); }, "shift_loop",
                 "must be an integer (index) expression, but it has type bool");
}

TEST(ShiftLoop, ForwardsInPlace) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0];
  Proc q = shift_loop(p, p.body_cursor()[0], "0");
  EXPECT_EQ(q.forward(body).to_string(), "A[i + 2] = 1.0");
}

}  // namespace
