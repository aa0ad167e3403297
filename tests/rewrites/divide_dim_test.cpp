// divide_dim, mult_dim, unroll_buffer, reuse_buffer and autolift_alloc: golden results,
// refusals with their messages, forwarding and interpreter equivalence.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kRow = R"(def f(A: f32[12] @ DRAM):
    t: f32[12] @ DRAM
    for j in seq(0, 12):
        t[j] = A[j] * 2.0
    for j in seq(0, 12):
        A[j] = t[j] + 1.0
)";

const char* kMat = R"(def g(N: size, A: f32[N, 4] @ DRAM):
    t: f32[N, 3, 4] @ DRAM
    for i in seq(0, N):
        for k in seq(0, 4):
            t[i, 1, k] = A[i, k]
    for i in seq(0, N):
        for k in seq(0, 4):
            A[i, k] = t[i, 1, k] * 3.0
)";

TEST(DivideDim, SplitsADimensionIntoQuotientAndRemainder) {
  Proc p = parse_proc(kRow);
  Proc q = divide_dim(p, p.body_cursor()[0], 0, 4);
  expect_golden("DivideDim_By4", to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideDim, RefusesAnIndivisibleDimension) {
  Proc p = parse_proc(kRow);
  expect_refused([&] { divide_dim(p, p.body_cursor()[0], 0, 5); }, "divide_dim", "divisible by 5");
}

TEST(DivideDim, RefusesABadDimensionOrQuotient) {
  Proc p = parse_proc(kRow);
  expect_refused([&] { divide_dim(p, p.body_cursor()[0], 1, 4); }, "divide_dim", "does not exist");
  expect_refused([&] { divide_dim(p, p.body_cursor()[0], 0, 0); }, "divide_dim",
                 "must be positive");
}

TEST(MultDim, MergesAConstantDimensionIntoAnother) {
  Proc p = parse_proc(kMat);
  Proc q = mult_dim(p, p.body_cursor()[0], 0, 2);
  expect_golden("MultDim_0_2", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(MultDim, RefusesANonConstantLowDimension) {
  Proc p = parse_proc(kMat);
  expect_refused([&] { mult_dim(p, p.body_cursor()[0], 2, 0); }, "mult_dim", "must be a constant");
}

TEST(MultDim, RefusesTheSameDimensionTwice) {
  Proc p = parse_proc(kMat);
  expect_refused([&] { mult_dim(p, p.body_cursor()[0], 1, 1); }, "mult_dim", "must differ");
}

TEST(UnrollBuffer, SplitsAConstantDimensionIntoBuffers) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32[2, 4] @ DRAM
    for k in seq(0, 4):
        t[0, k] = A[k]
        t[1, k] = A[k] * 2.0
    for k in seq(0, 4):
        A[k] = t[0, k] + t[1, k]
)");
  Cursor loop = p.body_cursor()[1];
  Proc q = unroll_buffer(p, p.body_cursor()[0], 0);
  expect_golden("UnrollBuffer_Dim0", to_string(q));
  expect_equivalent(p, q);
  EXPECT_EQ(q.forward(loop).loc(), q.body_cursor()[2].loc());
}

TEST(UnrollBuffer, RefusesANonConstantIndex) {
  Proc p = parse_proc(kMat);
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 2); }, "unroll_buffer",
                 "expected a constant");
}

TEST(UnrollBuffer, RefusesANonConstantDimension) {
  Proc p = parse_proc(kMat);
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 0); }, "unroll_buffer",
                 "must be a constant");
}

TEST(UnrollBuffer, RefusesAScalar) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32 @ DRAM
    t = A[0]
    A[1] = t
)");
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 0); }, "unroll_buffer", "scalar");
}

const char* kTwoTmp = R"(def f(A: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for k in seq(0, 4):
        x[k] = A[k] * 2.0
    for k in seq(0, 4):
        A[k] = x[k]
    y: f32[4] @ DRAM
    for k in seq(0, 4):
        y[k] = A[k] + 1.0
    for k in seq(0, 4):
        A[k] = y[k] * y[k]
)";

TEST(ReuseBuffer, ReplacesALaterAllocationOfTheSameType) {
  Proc p = parse_proc(kTwoTmp);
  Cursor last = p.body_cursor()[5];
  Proc q = reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[3]);
  expect_golden("ReuseBuffer_Dead", to_string(q));
  expect_equivalent(p, q);
  EXPECT_EQ(q.forward(last).loc(), q.body_cursor()[4].loc());
}

TEST(ReuseBuffer, RefusesALiveBuffer) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for k in seq(0, 4):
        x[k] = A[k] * 2.0
    y: f32[4] @ DRAM
    for k in seq(0, 4):
        y[k] = A[k] + 1.0
    for k in seq(0, 4):
        A[k] = y[k] * x[k]
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[2]); }, "reuse_buffer",
                 "still live");
}

// The first write of y may read x (it is read before the write) ...
TEST(ReuseBuffer, FirstAssignmentMayReadTheReusedBuffer) {
  Proc p = parse_proc(R"(def f(a: f32 @ DRAM, b: f32 @ DRAM):
    x: f32 @ DRAM
    x = a * 2.0
    y: f32 @ DRAM
    y = x + b
    b = y
)");
  Proc q = reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[2]);
  EXPECT_NE(to_string(q).find("    x = x + b\n    b = x\n"), std::string::npos) << q;
  expect_equivalent(p, q);
}

// ... but no later statement may: after the first write, x holds y's value.
TEST(ReuseBuffer, RefusesAReadOfTheReusedBufferAfterTheFirstWrite) {
  Proc p = parse_proc(R"(def f(a: f32 @ DRAM, b: f32 @ DRAM):
    x: f32 @ DRAM
    x = a * 2.0
    y: f32 @ DRAM
    y = 0.0
    y += x
    b = y
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[2]); }, "reuse_buffer",
                 "still live");
}

TEST(ReuseBuffer, RefusesDifferentTypes) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    y: f32[2] @ DRAM
    y[0] = A[0]
    A[1] = y[0]
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[1]); }, "reuse_buffer",
                 "differ in type or memory");
}

TEST(ReuseBuffer, RefusesAnEarlierAllocation) {
  Proc p = parse_proc(kTwoTmp);
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[3], p.body_cursor()[0]); }, "reuse_buffer",
                 "is not allocated after");
}

const char* kAuto = R"(def f(N: size, A: f32[N, 4] @ DRAM, B: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        t: f32[4] @ DRAM
        for k in seq(0, 4):
            t[k] = A[i, k] * 2.0
        for k in seq(0, 4):
            B[i, k] = t[k]
)";

TEST(AutoliftAlloc, LiftsWithoutANewDimensionWhenOneBufferServes) {
  Proc p = parse_proc(kAuto);
  Proc q = autolift_alloc(p, p.body_cursor()[0].body()[0]);
  expect_golden("AutoliftAlloc_Plain", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(AutoliftAlloc, KeepDimsAddsAColumnDimension) {
  Proc p = parse_proc(kAuto);
  Proc q = autolift_alloc(p, p.body_cursor()[0].body()[0], {.mode = "col", .keep_dims = true});
  expect_golden("AutoliftAlloc_Col", to_string(q));
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
  expect_golden("AutoliftAlloc_Expand", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(AutoliftAlloc, RefusesABadMode) {
  Proc p = parse_proc(kAuto);
  expect_refused([&] { autolift_alloc(p, p.body_cursor()[0].body()[0], {.mode = "diag"}); },
                 "autolift_alloc", "mode must be");
}

TEST(AutoliftAlloc, RefusesTooSmallASize) {
  Proc p = parse_proc(kAuto);
  expect_refused(
      [&] { autolift_alloc(p, p.body_cursor()[0].body()[0], {.size = 2, .keep_dims = true}); },
      "autolift_alloc", "is in [0, 2)");
}

// An index unroll_buffer needs constant is not: NotProved buffer.not_constant.
TEST(UnrollBuffer, ANonConstantIndexIsNotProvedBufferNotConstant) {
  Proc p = parse_proc(kMat);
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 2); }, "unroll_buffer",
                 ErrorCode::NotProved, "buffer.not_constant");
}

}  // namespace

namespace {

TEST(ReuseBuffer, ReusesABufferInsideALaterLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    x: f32 @ DRAM
    x = A[0]
    A[0] = x * 2.0
    for i in seq(0, N):
        y: f32 @ DRAM
        y = A[i]
        A[i] = y + 1.0
)");
  Proc q = reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[3].body()[0]);
  expect_golden("ReuseBuffer_InLoop", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(ReuseBuffer, RefusesAnAllocationInAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    x: f32 @ DRAM
    x = A[0]
    A[0] = x * 2.0
    for i in par(0, N):
        y: f32 @ DRAM
        y = A[i]
        A[i] = y + 1.0
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[3].body()[0]); },
                 "reuse_buffer", "par loop 'i'");
}

}  // namespace

namespace {

TEST(AutoliftAlloc, ForwardsTheAllocationToItsLiftedPlace) {
  Proc p = parse_proc(kAuto);
  Cursor t = p.body_cursor()[0].body()[0];
  Cursor store = p.body_cursor()[0].body()[2];
  Proc q = autolift_alloc(p, t, {.keep_dims = true});
  EXPECT_EQ(q.forward(t).loc(), q.body_cursor()[0].loc());
  EXPECT_EQ(q.forward(store).loc(), q.body_cursor()[1].body()[1].loc());
}

TEST(DivideDim, KeepsCursorsInPlace) {
  Proc p = parse_proc(kRow);
  Cursor loop = p.body_cursor()[2];
  Proc q = divide_dim(p, p.body_cursor()[0], 0, 4);
  EXPECT_EQ(q.forward(loop).loc(), loop.loc());
  EXPECT_EQ(q.forward(loop.body()[0]).to_string(), "A[j] = t[j / 4, j % 4] + 1.0");
}

}  // namespace
