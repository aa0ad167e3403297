// compute_and_store_at: a producer's values computed inside each iteration of a consumer loop,
// with the halo the consumer reads, into a buffer local to the iteration.
#include "rewrite_test_util.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"
#include "support/halide_blur.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* const kBlur = exocpp::testing::kHalideBlurU16;

// Rows of the output in strips of 8, the last H % 8 rows a loop of their own.
Proc strips(const Proc& p) {
  return divide_loop(p, "for y in _: _ #1", 8, {"yo", "yi"}, {.tail = Tail::Cut});
}

TEST(ComputeAndStoreAt, ComputesEachStripsRowsWithTheirHalo) {
  Proc p = strips(parse_proc(kBlur));
  Proc q = compute_and_store_at(p, "for y in _: _ #0", {"for yo in _: _", "for yi in _: _ #1"});
  EXPECT_FALSE(has(q, "bx: ")) << q;
  EXPECT_TRUE(has(q, "bx_yo: ui16[10, W]")) << q;
  EXPECT_TRUE(has(q, "bx_yi: ui16[3, W]")) << q;
  for (int64_t h : {1, 7, 8, 17})
    for (int64_t w : {1, 3}) expect_equivalent(parse_proc(kBlur), q, {{"H", h}, {"W", w}});
}

// The tail block's rows computed once before it, not three per row.
TEST(ComputeAndStoreAt, ABlockCursorComputesItsRegionOnceBeforeIt) {
  Proc p = strips(parse_proc(kBlur));
  Cursor tail = p.find("for yi in _: _ #1").as_block();
  Proc q = compute_and_store_at(p, "for y in _: _ #0", {"for yo in _: _", tail});
  EXPECT_TRUE(has(q, "bx_block: ui16[H % 8 + 2, W]")) << q;
  for (int64_t h : {1, 7, 8, 17}) expect_equivalent(parse_proc(kBlur), q, {{"H", h}, {"W", 2}});
}

// With no halo the last rows' part of the producer is empty when H % 8 == 0: a buffer of no
// elements, which nothing reads.
const char* kPointwise =
    R"(def f(H: size, x: f32[H] @ DRAM, y: f32[H] @ DRAM):
    t: f32[H] @ DRAM
    for i in seq(0, H):
        t[i] = x[i] * 2.0
    for j in seq(0, H):
        y[j] = t[j] + 1.0
)";

TEST(ComputeAndStoreAt, ARegionEmptyForSomeSizesIsStaged) {
  Proc cut =
      divide_loop(parse_proc(kPointwise), "for j in _: _", 8, {"jo", "ji"}, {.tail = Tail::Cut});
  Proc q = compute_and_store_at(cut, "for i in _: _",
                                {"for jo in _: _", cut.find("for ji in _: _ #1").as_block()});
  EXPECT_TRUE(has(q, "t_block: f32[H % 8]")) << q;
  for (int64_t h : {1, 8, 13, 16}) expect_equivalent(parse_proc(kPointwise), q, {{"H", h}});
}

// Divided by 1, the tail runs H % 1 = 0 times: its region is always empty, and refused.
TEST(ComputeAndStoreAt, RefusesARegionThatIsAlwaysEmpty) {
  Proc cut =
      divide_loop(parse_proc(kPointwise), "for j in _: _", 1, {"jo", "ji"}, {.tail = Tail::Cut});
  expect_refused(
      [&] {
        compute_and_store_at(cut, "for i in _: _",
                             {"for jo in _: _", cut.find("for ji in _: _ #1").as_block()});
      },
      "compute_and_store_at", ErrorCode::NotProved, "region.empty", "is always empty");
}

TEST(ComputeAndStoreAt, AtTheRowLoopRecomputesThreeRowsPerRow) {
  Proc p = parse_proc(kBlur);
  Proc q = compute_and_store_at(p, "for y in _: _ #0", {"for y in _: _ #1"});
  EXPECT_TRUE(has(q, "bx_y: ui16[3, W]")) << q;
  expect_equivalent(p, q, {{"H", 1}, {"W", 1}});
  expect_equivalent(p, q, {{"H", 5}, {"W", 4}});
}

TEST(ComputeAndStoreAt, RefusesAConsumerReadingRowsTheProducerDidNotCompute) {
  std::string text = kBlur;
  text.replace(text.find("for y in seq(0, H + 2)"), 22, "for y in seq(0, H + 1)");
  Proc p = strips(parse_proc(text));
  expect_refused(
      [&] {
        compute_and_store_at(p, "for y in _: _ #0", {"for yo in _: _", "for yi in _: _ #1"});
      },
      "compute_inline", ErrorCode::NotProved, "checker.refuted",
      "lies in the produced range [0, H + 1)");
}

// A refused step names the primitive that refused it (compute_inline here). The tail's reads
// are not staged: compute_inline cannot put the producer's body there.
TEST(ComputeAndStoreAt, RefusesWhenAReaderIsLeftOutsideTheLoops) {
  Proc p = strips(parse_proc(kBlur));
  expect_refused([&] { compute_and_store_at(p, "for y in _: _ #0", {"for yo in _: _"}); },
                 "compute_inline", ErrorCode::NotProved, "stmt.form",
                 "only copies of its elements");
}

TEST(ComputeAndStoreAt, RefusesAnIndexItCannotBound) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM, y: f32[N, N] @ DRAM):
    t: f32[N * N] @ DRAM
    for i in seq(0, N * N):
        t[i] = x[0]
    for a in seq(0, N):
        for b in seq(0, N):
            y[a, b] = t[a * b]
)");
  expect_refused([&] { compute_and_store_at(p, "for i in _: _", {"for a in _: _"}); },
                 "compute_and_store_at", ErrorCode::Unsupported, "region.not_inferred",
                 "multiplies two variables");
}

// A region that is always empty cannot be staged: NotProved region.empty.
TEST(ComputeAndStoreAt, AnAlwaysEmptyRegionIsNotProvedRegionEmpty) {
  Proc cut =
      divide_loop(parse_proc(kPointwise), "for j in _: _", 1, {"jo", "ji"}, {.tail = Tail::Cut});
  expect_refused(
      [&] {
        compute_and_store_at(cut, "for i in _: _",
                             {"for jo in _: _", cut.find("for ji in _: _ #1").as_block()});
      },
      "compute_and_store_at", ErrorCode::NotProved, "region.empty");
}

}  // namespace
