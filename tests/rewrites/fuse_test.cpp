// Tests of fuse: loops and ifs (golden + equivalence), refusals (different bounds, a reversed
// dependence, not adjacent, mixed kinds, different conditions) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kLoops = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    for j in seq(0, N):
        B[j] = A[j] * 2.0
)";

TEST(Fuse, TwoLoops) {
  Proc p = parse_proc(kLoops);
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  expect_golden("Fuse.TwoLoops", to_string(q));
  expect_equivalent(p, q);
}

TEST(Fuse, TwoIfs) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    if N > 2:
        x = 1.0
    else:
        x = 2.0
    if N > 2:
        y = 3.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  expect_golden("Fuse.TwoIfs", to_string(q));
  expect_equivalent(p, q);
}

TEST(Fuse, RefusesDifferentBounds) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    for j in seq(0, N - 1):
        B[j] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 "different bounds");
}

TEST(Fuse, RefusesAReversedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    for j in seq(0, N):
        B[j] = A[j + 1]
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 "can be fused, but");
}

TEST(Fuse, RefusesStatementsThatAreNotAdjacent) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    x = 1.0
    for j in seq(0, N):
        A[j] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[2]); }, "fuse",
                 ErrorCode::BadArgument, "target.not_adjacent");
}

TEST(Fuse, RefusesALoopAndAnIf) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    if N > 1:
        x = 1.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 "expected two loops or two ifs");
}

TEST(Fuse, RefusesDifferentConditions) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM):
    if N > 1:
        x = 1.0
    if N > 2:
        x = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 "requires that the conditions 'N > 1' and 'N > 2' are equal");
}

// Written differently, equal everywhere: proved, then fused (Exo's solver decides it too).
TEST(Fuse, IfsWhoseConditionsAreProvedEqualAreFused) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    if N > 1:
        x = 1.0
    if 1 < N:
        y = 2.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.body().size(), 1u) << q;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 3}});
}

// Equal only under the proc's assert: the checker uses it.
TEST(Fuse, IfsWhoseConditionsAreEqualUnderAnAssertAreFused) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    assert N % 4 == 0
    if N > 2:
        x = 1.0
    if N >= 4:
        y = 2.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.body().size(), 1u) << q;
  expect_equivalent(p, q);
}

TEST(Fuse, ForwardsTheSecondBodyIntoTheFusedLoop) {
  Proc p = parse_proc(kLoops);
  Cursor second_body = p.body_cursor()[1].body()[0];
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.forward(second_body).loc(), q.body_cursor()[0].body()[1].loc());
  EXPECT_EQ(q.forward(second_body).to_string(), "B[i] = A[i] * 2.0");
  EXPECT_FALSE(q.forward(p.body_cursor()[1]).is_valid());
}

}  // namespace

// Exo's test_fuse_loop_commute_config: both loops store the same constant into a config field,
// so the reordered stores leave the same value; the fused loop prints as Exo's golden.
TEST(Fuse, LoopsStoringTheSameConstantIntoAConfigAreFused) {
  Module m = parse_module(R"(config CFG:
    j: index

def foo(n: size, x: R[n]):
    y: R[n]
    for i in seq(0, n):
        CFG.j = 0
    for j in seq(0, n):
        CFG.j = 0
)");
  Proc p = m.proc("foo");
  Proc q = fuse(p, "for i in _:_", "for j in _:_");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    y: R[n] @ DRAM
    for i in seq(0, n):
        CFG.j = 0
        CFG.j = 0
)");
  expect_equivalent(p, q);
}

TEST(Fuse, RefusesLoopsStoringDifferentConstantsIntoOneElement) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[0] = 1.0
    for j in seq(0, N):
        A[0] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 "can be fused, but");
}

// 0.0 and -0.0 compare equal as numbers but are different stored values.
TEST(Fuse, RefusesLoopsStoringZeroAndNegativeZeroIntoOneElement) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[0] = 0.0
    for j in seq(0, N):
        A[0] = -0.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 "can be fused, but");
}

// The equal stores commute, but a store of another value to the same element between them
// does not.
TEST(Fuse, RefusesEqualStoresWhenTheSecondLoopAlsoStoresAnotherValue) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[0] = 1.0
    for j in seq(0, N):
        A[0] = 1.0
        A[j] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 "can be fused, but");
}
