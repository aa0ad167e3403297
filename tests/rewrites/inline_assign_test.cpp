// inline_assign: x = e ; s -> s[x -> e].
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i] * 2.0
        A[i] = t + t
)";

Cursor assign(const Proc& p) { return p.body_cursor()[0].body()[1]; }

TEST(InlineAssign, SubstitutesTheScalar) {
  Proc p = parse_proc(kSrc);
  Proc q = inline_assign(p, assign(p));
  expect_golden("InlineAssign_SubstitutesTheScalar", to_string(q));
  expect_equivalent(p, q);
}

TEST(InlineAssign, RefusesALaterWriteOfTheScalar) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i]
        t += 1.0
        A[i] = t
)");
  expect_refused([&] { inline_assign(p, assign(p)); }, "inline_assign", "written again");
}

TEST(InlineAssign, RefusesALaterWriteOfWhatTheRhsReads) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i]
        B[i] = 0.0
        A[i] = t
)");
  expect_refused([&] { inline_assign(p, assign(p)); }, "inline_assign", "reads 'B'");
}

TEST(InlineAssign, RefusesAnArgument) {
  Proc p = parse_proc(R"(def f(N: size, t: f32 @ DRAM, A: f32[N] @ DRAM):
    t = 2.0
    A[0] = t
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[0]); }, "inline_assign",
                 "not allocated earlier");
}

TEST(InlineAssign, RefusesATensorElement) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32[2] @ DRAM
    t[0] = 2.0
    A[0] = t[0]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[1]); }, "inline_assign", "not a scalar");
}

TEST(InlineAssign, ForwardsTheFollowingStatement) {
  Proc p = parse_proc(kSrc);
  Cursor use = p.body_cursor()[0].body()[2];
  Proc q = inline_assign(p, assign(p));
  EXPECT_EQ(q.forward(use).to_string(), "A[i] = B[i] * 2.0 + B[i] * 2.0");
  EXPECT_FALSE(q.forward(assign(p)).is_valid());
}

TEST(InlineAssign, AcceptsAnAssignmentPattern) {
  Proc p = parse_proc(kSrc);
  EXPECT_EQ(to_string(inline_assign(p, "t = _")), to_string(inline_assign(p, assign(p))));
}

}  // namespace
