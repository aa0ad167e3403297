// resize_dim (rewrites/resize_dim.cpp): its results, its refusals and the interpreter equivalence
// of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <regex>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

// resize_dim with fold=True (Exo's test_fold_buffer_*): a dimension becomes a circular buffer.
ResizeDimOptions folded() {
  ResizeDimOptions o;
  o.fold = true;
  return o;
}

// test_fold_buffer_blur: the horizontal blur's rows as a line buffer of 3 rows.
const char* kFoldBlur =
    R"(def blur(H: size, W: size, inp: i32[H + 2, W] @ DRAM, out: i32[H, W] @ DRAM):
    assert H % 32 == 0
    assert W > 32
    for io in seq(0, H / 32):
        blur_x: i32[34, W] @ DRAM
        for ii in seq(0, 2):
            for j in seq(0, W - 2):
                blur_x[ii, j] = inp[io * 32 + ii, j] + inp[io * 32 + ii, j + 1] + inp[io * 32 + ii, j + 2]
        for ii in seq(0, 32):
            for j in seq(0, W - 2):
                blur_x[ii + 2, j] = inp[io * 32 + ii + 2, j] + inp[io * 32 + ii + 2, j + 1] + inp[io * 32 + ii + 2, j + 2]
            for j in seq(0, W - 2):
                out[32 * io + ii, j] = blur_x[ii, j] + blur_x[ii + 1, j] + blur_x[ii + 2, j]
)";

ResizeDimOptions fold_option() {
  ResizeDimOptions o;
  o.fold = true;
  return o;
}

// Exo tests/test_schedules.py::test_resize_dim_3: x shrinks to the two entries the loop writes.
// Exo's golden indexes x[i - (n + 1)]; our operation builds the simplified i - n - 1
// (docs/exo-differences.md, "Printing", operations outside simplify).
TEST(ResizeDim, ResizeDim3) {
  Proc foo = parse_proc(R"(def foo(n: size):
    x: i8[n + 4]
    for i in seq(n + 1, n + 3):
        x[i] = 1.0
)");
  Proc q = resize_dim(foo, "x", 0, "2", "n + 1");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    x: i8[2] @ DRAM
    for i in seq(n + 1, n + 3):
        x[i - n - 1] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 4}});
}

// Exo tests/test_schedules.py::test_resize_dim: x[10] used on 1..8 shrinks to 19 with offset 1
// (golden: x: i8[19], x[-1 + i]); sizes 7 leave accesses out of bounds.
TEST(ResizeDim, ResizeDim) {
  Proc foo = parse_proc(R"(def foo():
    x: i8[10] @ DRAM
    for i in seq(1, 9):
        x[i] = 1.0
)");
  Proc q = simplify(resize_dim(foo, "x : _", 0, "19", "1"));
  EXPECT_TRUE(has(q, "x: i8[19]")) << q;
  EXPECT_TRUE(has(q, "x[-1 + i] = 1.0")) << q;
  expect_equivalent(foo, q);
  expect_refused([&] { resize_dim(q, "x : _", 0, "7", "1"); }, "resize_dim", ErrorCode::NotProved,
                 "checker.refuted", "is not always in");
  expect_refused([&] { resize_dim(q, "x : _", 0, "7", "2"); }, "resize_dim", ErrorCode::NotProved,
                 "checker.refuted", "is not always in");
}

// Exo tests/test_schedules.py::test_resize_dim_2: symbolic size n - 3 at offset 2.
TEST(ResizeDim, ResizeDim2) {
  Proc foo = parse_proc(R"(def foo(n: size):
    assert n > 4
    x: i8[n] @ DRAM
    for i in seq(2, n - 1):
        x[i] = 1.0
)");
  Proc q = simplify(resize_dim(foo, "x : _", 0, "n - 3", "2"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    assert n > 4
    x: i8[-3 + n] @ DRAM
    for i in seq(2, -1 + n):
        x[-2 + i] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 7}});
  expect_refused([&] { resize_dim(q, "x : _", 0, "n - 4", "2"); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "is not always in");
  expect_refused([&] { resize_dim(q, "x : _", 0, "n - 4", "3"); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "is not always in");
}

// Exo tests/test_schedules.py::test_resize_dim_5: a negative offset.
TEST(ResizeDim, ResizeDim5) {
  Proc foo = parse_proc(R"(def foo():
    x: i8[8] @ DRAM
    for i in seq(1, 8):
        x[i] = 1.0
)");
  Proc q = resize_dim(foo, "x : _", 0, "10", "-1");
  EXPECT_TRUE(has(q, "x: i8[10]")) << q;
  expect_equivalent(foo, q);
  expect_refused([&] { resize_dim(foo, "x : _", 0, "7", "0"); }, "resize_dim", ErrorCode::NotProved,
                 "checker.refuted", "is not always in");
}

// Exo tests/test_schedules.py::test_fold_buffer_loop_simple: iteration i writes x[i..i+3]; a write
// may land 2 below an earlier one (i + 3, then i + 1 in the next iteration), so 2 entries are too
// few, 3 enough.
TEST(ResizeDim, FoldBufferLoopSimple) {
  Proc foo = parse_proc(R"(def foo(N: size):
    assert N > 4
    x: i8[N] @ DRAM
    for i in seq(0, N - 4):
        for j in seq(i, i + 4):
            x[j] = 1.0
)");
  expect_refused([&] { resize_dim(foo, "x : _", 0, "2", "0", folded()); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "can fold to 2 entries");
  Proc q = resize_dim(foo, "x : _", 0, "3", "0", folded());
  EXPECT_TRUE(has(q, "x: i8[3]")) << q;
  EXPECT_TRUE(has(q, "x[j % 3] = 1.0")) << q;
  expect_equivalent(foo, q, {{"N", 7}});
}

// Exo tests/test_schedules.py::test_fold_buffer_sequential_stmts: x[5] comes after x[7].
TEST(ResizeDim, FoldBufferSequentialStmts) {
  Proc foo = parse_proc(R"(def foo():
    x: i8[10] @ DRAM
    x[0] = 0.0
    x[2] = 0.0
    x[3] = 0.0
    x[2] = 0.0
    x[7] = 0.0
    x[5] = 0.0
)");
  expect_refused([&] { resize_dim(foo, "x : _", 0, "2", "0", folded()); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "x[5]");
  Proc q = resize_dim(foo, "x : _", 0, "3", "0", folded());
  EXPECT_EQ(to_string(q), R"(def foo():
    x: i8[3] @ DRAM
    x[0] = 0.0
    x[2] = 0.0
    x[0] = 0.0
    x[2] = 0.0
    x[1] = 0.0
    x[2] = 0.0
)");
}

// Exo tests/test_schedules.py::test_fold_buffer_within_stmt: the two reads of one statement are
// live at once.
TEST(ResizeDim, FoldBufferWithinStmt) {
  Proc foo = parse_proc(R"(def foo():
    x: i8[10] @ DRAM
    x[1] = x[3] + x[0]
)");
  expect_refused([&] { resize_dim(foo, "x : _", 0, "3", "0", folded()); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "can fold to 3 entries");
  Proc q = resize_dim(foo, "x : _", 0, "4", "0", folded());
  EXPECT_TRUE(has(q, "x: i8[4]")) << q;
  EXPECT_TRUE(has(q, "x[1] = x[3] + x[0]")) << q;
}

// Exo tests/test_schedules.py::test_fold_buffer_if_stmt: the two branches of an if never both run,
// so x[5] of the then branch and x[i - 2] of the else branch are not ordered; x[i - 2] after x[i]
// is.
TEST(ResizeDim, FoldBufferIfStmt) {
  Proc foo = parse_proc(R"(def foo(condition: bool):
    x: i8[10] @ DRAM
    x[2] = 0.0
    if condition:
        x[1] = 0.0
        x[5] = 0.0
    else:
        for i in seq(2, 5):
            x[i] = 1.0
            x[i - 1] = 2.0
            x[i - 2] = 2.0
    x[3] = 0.0
)");
  // Z3 may pick any clobbering pair: the counterexample names two writes, the later one at least
  // 2 below the earlier, so that they share a slot of the 2-entry fold.
  try {
    resize_dim(foo, "x : _", 0, "2", "0", folded());
    ADD_FAILURE() << "expected resize_dim to refuse a fold to 2 entries";
  } catch (const SchedulingError& e) {
    std::smatch m;
    std::string text = e.what();
    ASSERT_TRUE(std::regex_search(
        text, m, std::regex(R"(counterexample: writes x\[(\d+)\] .*then writes x\[(\d+)\])")))
        << text;
    EXPECT_GE(std::stoi(m[1]) - std::stoi(m[2]), 2) << text;
    EXPECT_EQ((std::stoi(m[1]) - std::stoi(m[2])) % 2, 0) << text;
  }
  Proc q = resize_dim(foo, "x : _", 0, "3", "0", folded());
  EXPECT_TRUE(has(q, "x[(i - 2) % 3] = 2.0")) << q;
}

// Ported from Exo tests/test_schedules.py.
TEST(ResizeDim, FoldBufferBlur) {
  Proc blur = parse_proc(kFoldBlur);
  Proc q = resize_dim(blur, "blur_x : _", 0, "3", "0", folded());
  EXPECT_TRUE(has(q, "blur_x: i32[3, W]")) << q;
  EXPECT_TRUE(has(q, "blur_x[(ii + 2) % 3, j]")) << q;
  expect_equivalent(blur, q, {{"H", 64}, {"W", 35}});
}

// Ported from Exo tests/test_schedules.py.
// Two rows are too few: row ii + 2 would overwrite row ii while it is still to be read.
TEST(ResizeDim, FoldBufferBlurRefusesTwoRows) {
  Proc blur = parse_proc(kFoldBlur);
  expect_refused([&] { resize_dim(blur, "blur_x : _", 0, "2", "0", folded()); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "blur_x[");
}

// Exo tests/test_schedules.py::test_fold_buffer_unsharp: the gray rows of the unsharp mask's
// vertical blur, 8 of them.
TEST(ResizeDim, FoldBufferUnsharp) {
  Proc unsharp = parse_proc(
      R"(def exo_unsharp_base(W: size, H: size, output: f32[3, H, W] @ DRAM, input: f32[3, H + 6, W + 6] @ DRAM):
    assert H % 32 == 0
    for y in seq(0, H / 32):
        gray: f32[38, 6 + W] @ DRAM
        ratio: f32[1, W] @ DRAM
        blur_y: f32[1, 6 + W] @ DRAM
        for yi in seq(0, 6):
            for x in seq(0, 6 + W):
                gray[yi, x] = input[0, yi + 32 * y, x] + input[1, yi + 32 * y, x] + input[2, yi + 32 * y, x]
        for y_i in seq(0, 32):
            for x in seq(0, 6 + W):
                gray[6 + y_i, x] = input[0, 6 + y_i + 32 * y, x] + input[1, 6 + y_i + 32 * y, x] + input[2, 6 + y_i + 32 * y, x]
            for x in seq(0, 6 + W):
                blur_y[0, x] = gray[3 + y_i, x] + gray[2 + y_i, x] + gray[4 + y_i, x] + gray[1 + y_i, x] + gray[5 + y_i, x] + gray[y_i, x] + gray[6 + y_i, x]
            for x in seq(0, W):
                ratio[0, x] = (gray[3 + y_i, 3 + x] - (blur_y[0, 3 + x] + blur_y[0, 2 + x] + blur_y[0, 4 + x] + blur_y[0, 1 + x] + blur_y[0, 5 + x] + blur_y[0, x] + blur_y[0, 6 + x])) / gray[3 + y_i, 3 + x]
            for c in seq(0, 3):
                for x in seq(0, W):
                    output[c, y_i + 32 * y, x] = ratio[0, x] * input[c, 3 + y_i + 32 * y, 3 + x]
)");
  Proc q = resize_dim(unsharp, "gray : _", 0, "8", "0", folded());
  EXPECT_TRUE(has(q, "gray: f32[8, 6 + W]")) << q;
  CompareProcsOptions nan_is_nan;  // a gray row of zeros divides 0 by 0 on both sides
  nan_is_nan.trials = 4;
  nan_is_nan.compare.nan_equal = true;
  expect_equivalent(unsharp, q, {{"H", 32}, {"W", 5}}, nan_is_nan);
  // Six rows would let row 6 + y_i overwrite row y_i before the vertical blur reads it.
  expect_refused([&] { resize_dim(unsharp, "gray : _", 0, "6", "0", folded()); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "gray[");
}

// Exo tests/test_schedules.py::test_resize_dim_4: a window passed to a call is re-based with the
// buffer (Exo prints the upper bound unsimplified, `i + 3 - 2`).
TEST(ResizeDim, ResizeDimRebasesWindowsPassedToCalls) {
  const char* callee = R"(def bar(A: [i8][3]):
    for i in seq(0, 3):
        A[i] = 0.0
)";
  Module m1 = parse_module(std::string(callee) + R"(
def foo1():
    x: i8[10]
    for i in seq(3, 6):
        bar(x[i:i + 3])
)");
  Proc foo1 = m1.proc("foo1");
  Proc q1 = resize_dim(foo1, "x", 0, "6", "2");
  EXPECT_EQ(to_string(q1), R"(def foo1():
    x: i8[6] @ DRAM
    for i in seq(3, 6):
        bar(x[i - 2:i + 1])
)");
  expect_equivalent(foo1, q1);
  Module m2 = parse_module(std::string(callee) + R"(
def foo2():
    x: i8[10, 10]
    for i in seq(3, 6):
        bar(x[i, i:i + 3])
)");
  Proc foo2 = m2.proc("foo2");
  Proc q2 = resize_dim(foo2, "x", 0, "15", "2");
  EXPECT_EQ(to_string(q2), R"(def foo2():
    x: i8[15, 10] @ DRAM
    for i in seq(3, 6):
        bar(x[i - 2, i:i + 3])
)");
  expect_equivalent(foo2, q2);
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
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(ResizeDim, RefusesAnAccessOutsideTheNewRange) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 0, "3", "0"); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "lies in [0, 3)");
}

TEST(ResizeDim, RefusesABadDimension) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 1, "3", "0"); }, "resize_dim",
                 ErrorCode::BadArgument, "arg.range", "does not exist");
}

// t is filled whole (t[3] written) before t[0] is read: 2 entries are too few, 4 enough.
TEST(ResizeDim, FoldKeepsEveryLiveEntry) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 0, "2", "0", {.fold = true}); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted",
                 "2 or more below one an earlier access touched");
  Proc q = resize_dim(p, tmp_alloc(p), 0, "4", "0", {.fold = true});
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(ResizeDim, RefusesANonPositiveSize) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { resize_dim(p, tmp_alloc(p), 0, "0", "0"); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "is positive");
}

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

// A buffer filled whole before it is read cannot fold: the last write (t[N]) lands on the slot
// of t[0] before t[0] is read.
TEST(ResizeDim, AProducerThatFillsTheWholeBufferFirstIsRefused) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 1] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N + 1] @ DRAM
    for i in seq(0, N + 1):
        t[i] = x[i]
    for i in seq(0, N):
        y[i] = t[i] + t[i + 1]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "2", "0", fold_option()); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "counterexample");
}

// The same pair computed in one loop, the producer one step ahead: two entries are live at
// once, and the second write of an iteration lands on the slot read last.
TEST(ResizeDim, ASlidingPairFoldsToTwoEntries) {
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
                 ErrorCode::NotProved, "checker.refuted", "can fold to 1 entries");
}

// A read of the older value after the newer one was written in the same iteration needs one
// more entry than the values read together.
TEST(ResizeDim, AWriteBeforeTheReadOfTheOldestValueNeedsAnotherEntry) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 2] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N + 2] @ DRAM
    t[0] = x[0]
    t[1] = x[1]
    for i in seq(0, N):
        t[i + 2] = x[i + 2]
        y[i] = t[i]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "2", "0", fold_option()); }, "resize_dim",
                 ErrorCode::NotProved, "checker.refuted", "writes t[");
  Proc q = resize_dim(p, "t : _", 0, "3", "0", fold_option());
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(ResizeDim, TheSizeMustBeAPositiveConstant) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i]
        x[i] = t[i]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "N", "0", fold_option()); }, "resize_dim",
                 ErrorCode::BadArgument, "arg.invalid", "positive integer constant");
}

TEST(ResizeDim, TheOffsetMustBeZero) {
  Proc p = parse_proc(R"(def f(x: f32[8] @ DRAM):
    t: f32[8] @ DRAM
    for i in seq(0, 8):
        t[i] = x[i]
        x[i] = t[i]
)");
  expect_refused([&] { resize_dim(p, "t : _", 0, "2", "1", fold_option()); }, "resize_dim",
                 ErrorCode::BadArgument, "arg.invalid", "the offset must be 0");
}

TEST(ResizeDim, AWindowedBufferIsRefused) {
  Module m = parse_module(R"(def g(v: [f32][2] @ DRAM):
    v[0] = 1.0

def f(x: f32[8] @ DRAM):
    t: f32[8] @ DRAM
    for i in seq(0, 4):
        g(t[2 * i:2 * i + 2])
        x[i] = t[2 * i]
)");
  expect_refused([&] { resize_dim(m.proc("f"), "t : _", 0, "4", "0", fold_option()); },
                 "resize_dim", ErrorCode::NotProved, "buffer.layout_use",
                 "a window of 't' is taken");
}

TEST(ResizeDim, FoldingTheSecondDimensionKeepsTheFirst) {
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

}  // namespace
