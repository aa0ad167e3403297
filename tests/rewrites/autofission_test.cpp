// Tests of autofission: a loop made unnecessary is removed, a needed one stays (golden +
// equivalence), refusals keep fission's reasons under autofission's name.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(Autofission, RemovesALoopTheFirstHalfNoLongerNeeds) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        x = 2.0
        A[i] = 1.0
)");
  Proc q = autofission(p, p.body_cursor()[0].body()[0].after());
  expect_golden("Autofission.RemovesALoop", to_string(q));
  expect_equivalent(p, q);
}

TEST(Autofission, KeepsLoopsThatAreNeeded) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = 2.0
)");
  Proc q = autofission(p, p.body_cursor()[0].body()[0].after());
  EXPECT_EQ(to_string(q), to_string(fission(p, p.body_cursor()[0].body()[0].after())));
  expect_equivalent(p, q);
}

TEST(Autofission, RefusesWhatFissionRefuses) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = 2.0
)");
  expect_refused([&] { autofission(p, p.body_cursor()[0].body()[0].after(), {.n_lifts = 2}); },
                 "autofission", "n_lifts is too large");
}

}  // namespace

namespace {

TEST(Autofission, ForwardsCursorsIntoTheSecondLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        x = 2.0
        A[i] = 1.0
)");
  Cursor second = p.body_cursor()[0].body()[1];
  Proc q = autofission(p, p.body_cursor()[0].body()[0].after());
  Cursor fwd = q.forward(second);
  ASSERT_TRUE(fwd.is_valid());
  EXPECT_EQ(fwd.to_string(), "A[i] = 1.0");
  EXPECT_EQ(fwd.parent().stmt().kind(), StmtKind::For);
}

}  // namespace
