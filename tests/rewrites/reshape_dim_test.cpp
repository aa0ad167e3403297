// expand_dim, resize_dim, rearrange_dim and delete_buffer: golden results, refusals with their
// messages, forwarding and interpreter equivalence.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kTmp = R"(def f(N: size, A: f32[N, 4] @ DRAM, B: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        t: f32[4] @ DRAM
        for k in seq(0, 4):
            t[k] = A[i, k] * 2.0
        for k in seq(0, 4):
            B[i, k] = t[k]
)";

const char* kGrid = R"(def g(A: f32[2, 3, 4] @ DRAM):
    t: f32[2, 3, 4] @ DRAM
    for a in seq(0, 2):
        for b in seq(0, 3):
            for c in seq(0, 4):
                t[a, b, c] = A[a, b, c]
    for a in seq(0, 2):
        for b in seq(0, 3):
            for c in seq(0, 4):
                A[a, b, c] = t[a, b, c] + 1.0
)";

Cursor tmp_alloc(const Proc& p) { return p.body_cursor()[0].body()[0]; }

TEST(ExpandDim, AddsALeadingDimensionIndexedByTheLoop) {
  Proc p = parse_proc(kTmp);
  Proc q = expand_dim(p, tmp_alloc(p), "N", "i");
  expect_golden("ExpandDim_Loop", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(ExpandDim, RefusesAnIndexOutOfRange) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "N", "i + 1"); }, "expand_dim", "is in [0, N)");
}

TEST(ExpandDim, RefusesANonPositiveSize) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "N - N", "0"); }, "expand_dim", "is positive");
}

TEST(ExpandDim, RefusesASizeDependingOnALoopVariable) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "i + 1", "0"); }, "expand_dim",
                 "must be built from size arguments and constants, but it uses 'i'");
}

TEST(ExpandDim, RefusesAnArgument) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { expand_dim(p, p.arg_cursors()[1], "4", "0"); }, "expand_dim",
                 "is an argument");
}

TEST(ExpandDim, RefusesANameOutOfScope) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "4", "k"); }, "expand_dim", "k");
}

TEST(ExpandDim, KeepsCursorsInPlace) {
  Proc p = parse_proc(kTmp);
  Cursor loop = p.body_cursor()[0].body()[2];
  Proc q = expand_dim(p, tmp_alloc(p), "N", "i");
  EXPECT_EQ(q.forward(loop).loc(), loop.loc());
  EXPECT_EQ(q.forward(loop.body()[0]).to_string(), "B[i, k] = t[i, k]");
}

TEST(ResizeDim, ShrinksAndShiftsADimension) {
  Proc p = parse_proc(R"(def f(A: f32[8] @ DRAM):
    t: f32[8] @ DRAM
    for k in seq(2, 6):
        t[k] = A[k]
    for k in seq(2, 6):
        A[k] = t[k] * 2.0
)");
  Proc q = resize_dim(p, p.body_cursor()[0], 0, "4", "2");
  expect_golden("ResizeDim_Shift", to_string(q));
  expect_equivalent(p, q);
}

TEST(ResizeDim, RefusesAnAccessOutsideTheNewRange) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 0, "3", "0"); }, "resize_dim", "lies in [0, 3)");
}

TEST(ResizeDim, RefusesABadDimension) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 1, "3", "0"); }, "resize_dim", "does not exist");
}

// t is filled whole (t[3] written) before t[0] is read: 2 entries are too few, 4 enough.
TEST(ResizeDim, FoldKeepsEveryLiveEntry) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 0, "2", "0", {.fold = true}); }, "resize_dim",
                 "2 or more below one an earlier access touched");
  Proc q = resize_dim(p, tmp_alloc(p), 0, "4", "0", {.fold = true});
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(ResizeDim, RefusesANonPositiveSize) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 0, "0", "0"); }, "resize_dim", "is positive");
}

TEST(RearrangeDim, PermutesDimensionsAndIndices) {
  Proc p = parse_proc(kGrid);
  Proc q = rearrange_dim(p, p.body_cursor()[0], {2, 0, 1});
  expect_golden("RearrangeDim_201", to_string(q));
  expect_equivalent(p, q);
}

TEST(RearrangeDim, RefusesANonPermutation) {
  Proc p = parse_proc(kGrid);
  expect_refused(
      [&] {
        rearrange_dim(p, p.body_cursor()[0], {0, 0, 1});
      },
      "rearrange_dim", "not a permutation");
  expect_refused(
      [&] {
        rearrange_dim(p, p.body_cursor()[0], {1, 0});
      },
      "rearrange_dim", "not a permutation");
}

TEST(RearrangeDim, RefusesTransposingAWindow) {
  Proc p = parse_proc(R"(def f(A: f32[4, 4] @ DRAM):
    t: f32[4, 4] @ DRAM
    w = t[0:4, 0:4]
    for a in seq(0, 4):
        for b in seq(0, 4):
            w[a, b] = A[a, b]
)");
  expect_refused(
      [&] {
        rearrange_dim(p, p.body_cursor()[0], {1, 0});
      },
      "rearrange_dim", "transposed");
}

TEST(DeleteBuffer, DeletesAnUnusedAllocation) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, N):
        A[i] = 1.0
)");
  Cursor loop = p.body_cursor()[1];
  Proc q = delete_buffer(p, p.body_cursor()[0]);
  expect_golden("DeleteBuffer_Unused", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
  EXPECT_EQ(q.forward(loop).loc(), q.body_cursor()[0].loc());
}

TEST(DeleteBuffer, RefusesAUsedAllocation) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { delete_buffer(p, tmp_alloc(p)); }, "delete_buffer", "is still used");
}

}  // namespace

namespace {

TEST(ResizeDim, ForwardsCursorsToTheRewrittenAccesses) {
  Proc p = parse_proc(R"(def f(A: f32[8] @ DRAM):
    t: f32[8] @ DRAM
    for k in seq(2, 6):
        t[k] = A[k]
    for k in seq(2, 6):
        A[k] = t[k] * 2.0
)");
  Cursor use = p.body_cursor()[2].body()[0];
  Proc q = resize_dim(p, p.body_cursor()[0], 0, "4", "2");
  EXPECT_EQ(q.forward(use).to_string(), "A[k] = t[k - 2] * 2.0");
  EXPECT_EQ(q.forward(p.body_cursor()[0]).to_string(), "t: f32[4] @ DRAM");
}

TEST(RearrangeDim, ForwardsCursorsToTheRewrittenAccesses) {
  Proc p = parse_proc(kGrid);
  Cursor use = p.body_cursor()[2].body()[0].body()[0].body()[0];
  Proc q = rearrange_dim(p, p.body_cursor()[0], {2, 0, 1});
  EXPECT_EQ(q.forward(use).to_string(), "A[a, b, c] = t[c, a, b] + 1.0");
}

}  // namespace

// A buffer name with an underscore is a name, not a pattern with a `_` wildcard.
TEST(ResolveAlloc, NameWithUnderscoreIsABufferName) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        t_reg: f32[4] @ DRAM
        for k in seq(0, 4):
            t_reg[k] = A[i, k]
        for k in seq(0, 4):
            A[i, k] = t_reg[k] + 1.0
)");
  Proc q = expand_dim(p, "t_reg", "N", "i");
  EXPECT_NE(to_string(q).find("t_reg: f32[N, 4] @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 3}});
}

// resize_dim with fold = true: circular buffers.
namespace {

ResizeDimOptions fold_option() {
  ResizeDimOptions o;
  o.fold = true;
  return o;
}

// A buffer filled whole before it is read cannot fold: the last write (t[N]) lands on the slot
// of t[0] before t[0] is read.
TEST(FoldDim, AProducerThatFillsTheWholeBufferFirstIsRefused) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 1] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N + 1] @ DRAM
    for i in seq(0, N + 1):
        t[i] = x[i]
    for i in seq(0, N):
        y[i] = t[i] + t[i + 1]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "2", "0", fold_option()); }, "resize_dim",
                 "counterexample");
}

// The same pair computed in one loop, the producer one step ahead: two entries are live at
// once, and the second write of an iteration lands on the slot read last.
TEST(FoldDim, ASlidingPairFoldsToTwoEntries) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 1] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N + 1] @ DRAM
    t[0] = x[0]
    for i in seq(0, N):
        t[i + 1] = x[i + 1]
        y[i] = t[i] + t[i + 1]
)");
  Proc q = resize_dim(p, "t : _", 0, "2", "0", fold_option());
  EXPECT_NE(to_string(q).find("t: f32[2]"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 9}});
  expect_refused([&] { resize_dim(p, "t : _", 0, "1", "0", fold_option()); }, "resize_dim",
                 "can fold to 1 entries");
}

// A read of the older value after the newer one was written in the same iteration needs one
// more entry than the values read together.
TEST(FoldDim, AWriteBeforeTheReadOfTheOldestValueNeedsAnotherEntry) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 2] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N + 2] @ DRAM
    t[0] = x[0]
    t[1] = x[1]
    for i in seq(0, N):
        t[i + 2] = x[i + 2]
        y[i] = t[i]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "2", "0", fold_option()); }, "resize_dim",
                 "writes t[");
  Proc q = resize_dim(p, "t : _", 0, "3", "0", fold_option());
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(FoldDim, TheSizeMustBeAPositiveConstant) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i]
        x[i] = t[i]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "N", "0", fold_option()); }, "resize_dim",
                 "positive integer constant");
}

TEST(FoldDim, TheOffsetMustBeZero) {
  Proc p = parse_proc(R"(def f(x: f32[8] @ DRAM):
    t: f32[8] @ DRAM
    for i in seq(0, 8):
        t[i] = x[i]
        x[i] = t[i]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "2", "1", fold_option()); }, "resize_dim",
                 "the offset must be 0");
}

TEST(FoldDim, AWindowedBufferIsRefused) {
  Module m = parse_module(R"(def g(v: [f32][2] @ DRAM):
    v[0] = 1.0

def f(x: f32[8] @ DRAM):
    t: f32[8] @ DRAM
    for i in seq(0, 4):
        g(t[2 * i:2 * i + 2])
        x[i] = t[2 * i]
)");
  expect_refused([&] { resize_dim(m.proc("f"), "t : _", 0, "4", "0", fold_option()); },
                 "resize_dim", "a window of 't' is taken");
}

TEST(FoldDim, FoldingTheSecondDimensionKeepsTheFirst) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[3, N] @ DRAM, y: f32[3, N] @ DRAM):
    t: f32[3, N] @ DRAM
    for j in seq(0, N):
        for c in seq(0, 3):
            t[c, j] = x[c, j]
        for c in seq(0, 3):
            y[c, j] = t[c, j] * 2.0
)");
  Proc q = resize_dim(p, "t : _", 1, "1", "0", fold_option());
  EXPECT_NE(to_string(q).find("t: f32[3, 1]"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 6}});
}

// ---- strides a layout change must keep (rw::require_layout_observations_kept) -----------------

// A callee that asserts a unit stride, and one that only writes its window.
const char* kUnitCallee = R"(def g(dst: [f32][8] @ DRAM):
    assert stride(dst, 0) == 1
    for k in seq(0, 8):
        dst[k] = 1.0
)";
const char* kPlainCallee = R"(def g(dst: [f32][8] @ DRAM):
    for k in seq(0, 8):
        dst[k] = 2.0
)";

Proc with_callee(const char* callee, const std::string& f) {
  return parse_module(std::string(callee) + "\n" + f).proc("f");
}

const char* kWindowToCallee = R"(def f(B: f32[4, 8] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        g(x[i, 0:8])
    for i in seq(0, 4):
        for j in seq(0, 8):
            B[i, j] = x[i, j]
)";

const char* kStrideInCondition = R"(def f(B: f32[4] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        w = x[i, 0:8]
        if stride(w, 0) == 1:
            B[i] = 1.0
        else:
            B[i] = 2.0
)";

TEST(RearrangeDim, RefusesAWindowWhoseCalleeAssertsItsStride) {
  Proc p = with_callee(kUnitCallee, kWindowToCallee);
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, RefusesChangingAWindowStrideReadInACondition) {
  Proc p = parse_proc(kStrideInCondition);
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, TheRefusalNamesTheStrideAndItsValues) {
  Proc p = parse_proc(kStrideInCondition);
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim",
      "stride(w, 0) (at 'if stride(w, 0) == 1:') keeps its value (1 before the "
      "change, 4 after)");
}

TEST(RearrangeDim, RefusesChangingTheStrideOfAWindowOfAWindow) {
  Proc p = parse_proc(R"(def f(B: f32[4] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        w = x[i, 0:8]
        v = w[2:6]
        B[i] = 0.0
        if stride(v, 0) == 1:
            B[i] = 1.0
)");
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, RefusesAStrideHandedToACalleeAsAValue) {
  Proc p = parse_module(R"(def h(s: stride, y: f32[1] @ DRAM):
    if s == 1:
        y[0] = 1.0

def f(B: f32[4, 1] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        w = x[i, 0:8]
        h(stride(w, 0), B[i, 0:1])
)")
               .proc("f");
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, KeepsAWindowWhoseStrideNobodyObserves) {
  Proc p = with_callee(kPlainCallee, kWindowToCallee);
  Proc q = rearrange_dim(p, "x : _", {1, 0});
  EXPECT_TRUE(has(q, "g(x[0:8, i])")) << q;
  expect_equivalent(p, q);
}

TEST(ResizeDim, RefusesChangingTheStrideOfAWindowACalleeReads) {
  Proc p = parse_module(R"(def g(dst: [f32][4] @ DRAM):
    for k in seq(0, 4):
        dst[k] = 1.0
    if stride(dst, 0) == 8:
        dst[0] = 2.0

def f(B: f32[4, 8] @ DRAM):
    x: f32[4, 8] @ DRAM
    for j in seq(0, 8):
        g(x[0:4, j])
    for i in seq(0, 4):
        for j in seq(0, 8):
            B[i, j] = x[i, j]
)")
               .proc("f");
  expect_refused([&] { resize_dim(p, "x : _", 1, "10", "0"); }, "resize_dim", ErrorCode::NotProved,
                 "layout.stride_changed");
}

TEST(ResizeDim, ResizingTheFirstDimensionKeepsAnObservedStride) {
  Proc p = parse_proc(R"(def f(B: f32[4] @ DRAM):
    x: f32[6, 8] @ DRAM
    for i in seq(0, 4):
        w = x[i + 1, 0:8]
        if stride(w, 0) == 1:
            B[i] = 1.0
        else:
            B[i] = 2.0
)");
  Proc q = resize_dim(p, "x : _", 0, "4", "1");
  EXPECT_TRUE(has(q, "w = x[i, 0:8]")) << q;
  expect_equivalent(p, q);
}

TEST(ResizeDim, RefusesAStrideTheCalleeTakesAsADenseTensor) {
  Proc p = parse_module(R"(def g(dst: f32[4] @ DRAM):
    for k in seq(0, 4):
        dst[k] = 1.0

def f(B: f32[4, 1] @ DRAM):
    x: f32[4, 1] @ DRAM
    g(x[0:4, 0])
    for i in seq(0, 4):
        B[i, 0] = x[i, 0]
)")
               .proc("f");
  expect_refused([&] { resize_dim(p, "x : _", 1, "2", "0"); }, "resize_dim", ErrorCode::NotProved,
                 "layout.stride_changed");
}

TEST(MultDim, RefusesChangingTheStrideOfAWindowAcrossTheOtherDimension) {
  Proc p = parse_proc(R"(def f(B: f32[2, 3, 4] @ DRAM):
    x: f32[2, 3, 4] @ DRAM
    for i in seq(0, 2):
        for k in seq(0, 4):
            w = x[i, 0:3, k]
            for j in seq(0, 3):
                w[j] = 1.0
                if stride(w, 0) == 4:
                    w[j] = 2.0
    for i in seq(0, 2):
        for j in seq(0, 3):
            for k in seq(0, 4):
                B[i, j, k] = x[i, j, k]
)");
  expect_refused([&] { mult_dim(p, "x : _", 0, 2); }, "mult_dim", ErrorCode::NotProved,
                 "layout.stride_changed");
}

TEST(DivideDim, KeepsTheStrideOfAWindowAcrossAnotherDimension) {
  Proc p = parse_proc(R"(def f(B: f32[4, 8] @ DRAM):
    x: f32[4, 8] @ DRAM
    for j in seq(0, 8):
        w = x[0:4, j]
        for i in seq(0, 4):
            w[i] = 1.0
            if stride(w, 0) == 8:
                w[i] = 2.0
    for i in seq(0, 4):
        for j in seq(0, 8):
            B[i, j] = x[i, j]
)");
  Proc q = divide_dim(p, "x : _", 1, 4);
  EXPECT_TRUE(has(q, "w = x[0:4, j / 4, j % 4]")) << q;
  expect_equivalent(p, q);
}

TEST(ExpandDim, AStrideOfTheBufferKeepsItsValue) {
  Proc p = parse_proc(R"(def f(B: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for i in seq(0, 4):
        x[i] = 1.0
        if stride(x, 0) == 1:
            x[i] = 2.0
    for i in seq(0, 4):
        B[i] = x[i]
)");
  Proc q = expand_dim(p, "x : _", "3", "1");
  EXPECT_TRUE(has(q, "stride(x, 1) == 1")) << q;
  expect_equivalent(p, q);
}

TEST(UnrollBuffer, RefusesChangingTheStrideOfAWindowAcrossEarlierDimensions) {
  Proc p = parse_proc(R"(def f(B: f32[4, 8] @ DRAM):
    x: f32[4, 2, 8] @ DRAM
    for j in seq(0, 8):
        w = x[0:4, 0, j]
        for i in seq(0, 4):
            w[i] = 1.0
            if stride(w, 0) == 16:
                w[i] = 2.0
    for i in seq(0, 4):
        for j in seq(0, 8):
            B[i, j] = x[i, 0, j]
)");
  expect_refused([&] { unroll_buffer(p, "x : _", 1); }, "unroll_buffer", ErrorCode::NotProved,
                 "layout.stride_changed");
}

}  // namespace
