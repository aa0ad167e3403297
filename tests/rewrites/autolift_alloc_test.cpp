// autolift_alloc (rewrites/autolift_alloc.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kAuto = R"(def f(N: size, A: f32[N, 4] @ DRAM, B: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        t: f32[4] @ DRAM
        for k in seq(0, 4):
            t[k] = A[i, k] * 2.0
        for k in seq(0, 4):
            B[i, k] = t[k]
)";

// Exo tests/test_schedules.py::test_lift: autolift_alloc in column mode, the new dimension
// sized 20.
TEST(AutoliftAlloc, Lift) {
  Proc bar = parse_proc(R"(def bar(A: i8[16, 10]):
    for i in seq(0, 10):
        a: i8[16]
        for k in seq(0, 16):
            a[k] = A[k, i]
)");
  Proc q =
      autolift_alloc(bar, "a: i8[_]", {.n_lifts = 1, .mode = "col", .size = 20, .keep_dims = true});
  EXPECT_EQ(to_string(q), R"(def bar(A: i8[16, 10] @ DRAM):
    a: i8[16, 20] @ DRAM
    for i in seq(0, 10):
        for k in seq(0, 16):
            a[k, i] = A[k, i]
)");
  expect_equivalent(bar, q);
}

TEST(AutoliftAlloc, LiftsWithoutANewDimensionWhenOneBufferServes) {
  Proc p = parse_proc(kAuto);
  Proc q = autolift_alloc(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(AutoliftAlloc, KeepDimsAddsAColumnDimension) {
  Proc p = parse_proc(kAuto);
  Proc q = autolift_alloc(p, p.body_cursor()[0].body()[0], {.mode = "col", .keep_dims = true});
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(AutoliftAlloc, ExpandsWhenValuesFlowBetweenIterations) {
  // The checker cannot prove one buffer serves every iteration here (t[k] is read after the
  // write of an earlier k, which it does not follow), so a dimension per iteration of i is
  // added.
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM, B: f32[N, 4] @ DRAM):
    for i in seq(1, N):
        t: f32[5] @ DRAM
        t[0] = A[i, 0]
        for k in seq(0, 4):
            t[k + 1] = t[k] * 2.0
            B[i, k] = t[k + 1]
)");
  Proc q = autolift_alloc(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(AutoliftAlloc, RefusesABadMode) {
  Proc p = parse_proc(kAuto);
  expect_refused([&] { autolift_alloc(p, p.body_cursor()[0].body()[0], {.mode = "diag"}); },
                 "autolift_alloc", ErrorCode::BadArgument, "arg.invalid", "mode must be");
}

TEST(AutoliftAlloc, RefusesTooSmallASize) {
  Proc p = parse_proc(kAuto);
  expect_refused(
      [&] { autolift_alloc(p, p.body_cursor()[0].body()[0], {.size = 2, .keep_dims = true}); },
      "autolift_alloc", ErrorCode::NotProved, "checker.refuted", "is in [0, 2)");
}

TEST(AutoliftAlloc, ForwardsTheAllocationToItsLiftedPlace) {
  Proc p = parse_proc(kAuto);
  Cursor t = p.body_cursor()[0].body()[0];
  Cursor store = p.body_cursor()[0].body()[2];
  Proc q = autolift_alloc(p, t, {.keep_dims = true});
  EXPECT_EQ(q.forward(t).loc(), q.body_cursor()[0].loc());
  EXPECT_EQ(q.forward(store).loc(), q.body_cursor()[1].body()[1].loc());
}

}  // namespace
