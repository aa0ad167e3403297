// compute_inline: a producer loop nest disappears into the reads of what it computed.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// A separable blur: the horizontal pass inlined into the vertical one.
const char* kBlur =
    R"(def blur(H: size, W: size, inp: f32[H + 2, W + 2] @ DRAM, out: f32[H, W] @ DRAM):
    bx: f32[H + 2, W] @ DRAM
    for y in seq(0, H + 2):
        for x in seq(0, W):
            bx[y, x] = inp[y, x] + inp[y, x + 1] + inp[y, x + 2]
    for y in seq(0, H):
        for x in seq(0, W):
            out[y, x] = bx[y, x] + bx[y + 1, x] + bx[y + 2, x]
)";

Cursor producer(const Proc& p) { return p.body_cursor()[1]; }

TEST(ComputeInline, InlinesTheHorizontalPassOfABlur) {
  Proc p = parse_proc(kBlur);
  Proc q = compute_inline(p, producer(p));
  EXPECT_FALSE(has(q, "bx")) << q;
  EXPECT_TRUE(has(q, "inp[y + 2, x + 2]")) << q;
  expect_equivalent(p, q, {{"H", 1}, {"W", 1}});
  expect_equivalent(p, q, {{"H", 5}, {"W", 7}});
}

TEST(ComputeInline, SubstitutesTheOffsetOfTheProducersIndex) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N + 1] @ DRAM
    for i in seq(0, N):
        t[i + 1] = x[i] * 2.0
    for j in seq(0, N):
        y[j] = t[j + 1]
)");
  Proc q = compute_inline(p, p.body_cursor()[1]);
  EXPECT_TRUE(has(q, "y[j] = x[j] * 2.0")) << q;
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(ComputeInline, FollowsAPermutedIndex) {
  Proc p = parse_proc(R"(def f(N: size, M: size, x: f32[N, M] @ DRAM, y: f32[M, N] @ DRAM):
    t: f32[M, N] @ DRAM
    for i in seq(0, N):
        for j in seq(0, M):
            t[j, i] = x[i, j]
    for a in seq(0, M):
        for b in seq(0, N):
            y[a, b] = t[a, b]
)");
  Proc q = compute_inline(p, p.body_cursor()[1]);
  EXPECT_TRUE(has(q, "y[a, b] = x[b, a]")) << q;
  expect_equivalent(p, q, {{"N", 3}, {"M", 2}});
}

// The producer writes rows 0..H-1 only; the consumer's row y + 1 reaches H.
TEST(ComputeInline, RefusesAReadOutsideTheProducedRegion) {
  Proc p = parse_proc(R"(def f(H: size, x: f32[H] @ DRAM, y: f32[H] @ DRAM):
    t: f32[H + 1] @ DRAM
    t[H] = 0.0
    for i in seq(0, H):
        t[i] = x[i]
    for j in seq(0, H):
        y[j] = t[j + 1]
)");
  expect_refused([&] { compute_inline(p, p.body_cursor()[2]); }, "compute_inline",
                 ErrorCode::NotProved, "buffer.other_use",
                 "is used between its allocation and the producer");
  Proc q = parse_proc(R"(def f(H: size, x: f32[H] @ DRAM, y: f32[H] @ DRAM):
    t: f32[H + 1] @ DRAM
    for i in seq(0, H):
        t[i] = x[i]
    for j in seq(0, H):
        y[j] = t[j + 1]
)");
  expect_refused([&] { compute_inline(q, q.body_cursor()[1]); }, "compute_inline",
                 ErrorCode::NotProved, "checker.refuted", "lies in the produced range [0, H)");
}

TEST(ComputeInline, RefusesWhenTheRestWritesAnInputOfTheExpression) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i]
    x[0] = 1.0
    for j in seq(0, N):
        y[j] = t[j]
)");
  expect_refused([&] { compute_inline(p, p.body_cursor()[1]); }, "compute_inline",
                 ErrorCode::NotProved, "dep.read_written",
                 "reads 'x', which is written after the producer");
}

TEST(ComputeInline, RefusesAStoreThatWraps) {
  Proc p = parse_proc(R"(def f(N: size, x: i32[N] @ DRAM, y: i32[N] @ DRAM):
    t: i8[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i] * 3
    for j in seq(0, N):
        y[j] = t[j]
)");
  expect_refused([&] { compute_inline(p, p.body_cursor()[1]); }, "compute_inline",
                 ErrorCode::NotProved, "precision.store", "does not hold the value");
}

TEST(ComputeInline, RefusesAProducerThatIsNotAPerfectNest) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i]
        x[i] = 0.0
    for j in seq(0, N):
        y[j] = t[j]
)");
  expect_refused([&] { compute_inline(p, p.body_cursor()[1]); }, "compute_inline",
                 ErrorCode::NotProved, "stmt.form", "perfect loop nest");
}

TEST(ComputeInline, RefusesABufferWrittenAgainLater) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i]
    t[0] = 2.0
    for j in seq(0, N):
        y[j] = t[j]
)");
  expect_refused([&] { compute_inline(p, p.body_cursor()[1]); }, "compute_inline",
                 ErrorCode::NotProved, "buffer.other_use", "only reads can take the expression");
}

// A producer whose sum wraps at 16 bits before the division (Halide's uint16 arithmetic): its
// body, local and all, replaces each copy of its elements.
const char* kWrappingProducer =
    R"(def f(N: size, x: ui16[N + 1] @ DRAM, y: ui16[N] @ DRAM):
    t: ui16[N] @ DRAM
    for i in seq(0, N):
        s: ui16 @ DRAM
        s = x[i] + x[i + 1]
        t[i] = s / 3
    for j in seq(0, N):
        y[j] = t[j]
)";

TEST(ComputeInline, AMultiStatementBodyReplacesEachCopy) {
  Proc p = parse_proc(kWrappingProducer);
  Proc q = compute_inline(p, p.body_cursor()[1]);
  EXPECT_FALSE(has(q, "t[")) << q;
  EXPECT_TRUE(has(q, "s = x[j] + x[j + 1]")) << q;
  EXPECT_TRUE(has(q, "y[j] = s / 3")) << q;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 9}});
}

// t's store wraps; a copy into a ui16 buffer wraps the same way, so the copy may take e.
TEST(ComputeInline, AWrappingStoreInlinesIntoCopiesOfItsPrecision) {
  Proc p = parse_proc(R"(def f(N: size, x: ui16[N] @ DRAM, y: ui16[N] @ DRAM):
    t: ui16[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i] + x[i]
    for j in seq(0, N):
        y[j] = t[j]
)");
  Proc q = compute_inline(p, p.body_cursor()[1]);
  EXPECT_TRUE(has(q, "y[j] = x[j] + x[j]")) << q;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 6}});
}

// An i32 copy of a wrapped ui16 value would keep the 17-bit sum.
TEST(ComputeInline, RefusesAWrappingStoreCopiedIntoAWiderPrecision) {
  Proc p = parse_proc(R"(def f(N: size, x: ui16[N] @ DRAM, y: i32[N] @ DRAM):
    t: ui16[N] @ DRAM
    for i in seq(0, N):
        t[i] = x[i] + x[i]
    for j in seq(0, N):
        y[j] = t[j]
)");
  expect_refused([&] { compute_inline(p, p.body_cursor()[1]); }, "compute_inline",
                 ErrorCode::NotProved, "precision.store", "does not hold the value");
}

TEST(ComputeInline, RefusesAMultiStatementBodyReadByAnExpression) {
  std::string text = kWrappingProducer;
  text.replace(text.find("y[j] = t[j]"), 11, "y[j] = t[j] * 2");
  Proc p = parse_proc(text);
  expect_refused([&] { compute_inline(p, p.body_cursor()[1]); }, "compute_inline",
                 ErrorCode::NotProved, "stmt.form", "only copies of its elements");
}

}  // namespace
