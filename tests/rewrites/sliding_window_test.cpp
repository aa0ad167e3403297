// sliding_window: a strip's producer rows computed one at a time just before the consumer's
// first read, its buffer folded to the rows still live.
#include "rewrite_test_util.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"
#include "support/halide_blur.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* const kBlur = exocpp::testing::kHalideBlurU16;

// Strips of 8 rows, the horizontal pass computed per strip (rows 8 yo .. 8 yo + 9 into
// bx_yo) and once for the last rows.
Proc per_strip() {
  Proc p = divide_loop(parse_proc(kBlur), "for y in _: _ #1", 8, {"yo", "yi"}, {.tail = Tail::Cut});
  return compute_and_store_at(p, "for y in _: _ #0",
                              {"for yo in _: _", p.find("for yi in _: _ #1").as_block()});
}

TEST(SlidingWindow, ComputesEachRowOnceIntoThreeFoldedRows) {
  Proc p = per_strip();
  Proc q = sliding_window(p, "for i0 in _: _", "for yi in _: _ #0");
  EXPECT_TRUE(has(q, "bx_yo: ui16[3, W]")) << q;
  EXPECT_TRUE(has(q, "for i0 in seq(0, 2):")) << q;  // the prologue
  EXPECT_TRUE(has(q, "bx_yo[(i0 + 2) % 3, i1] = sx / 3")) << q;
  for (int64_t h : {1, 7, 8, 9, 17})
    for (int64_t w : {1, 3}) expect_equivalent(parse_proc(kBlur), q, {{"H", h}, {"W", w}});
}

TEST(SlidingWindow, WithoutFoldKeepsTheStripsRows) {
  Proc q = sliding_window(per_strip(), "for i0 in _: _", "for yi in _: _ #0", {.fold = false});
  EXPECT_TRUE(has(q, "bx_yo: ui16[10, W]")) << q;
  expect_equivalent(parse_proc(kBlur), q, {{"H", 16}, {"W", 2}});
}

// Two rows cannot hold the three a consumer iteration reads: the fold is refused.
TEST(SlidingWindow, RefusesAFoldThatWouldOverwriteALiveRow) {
  Proc p = per_strip();
  try {
    sliding_window(p, "for i0 in _: _", "for yi in _: _ #0", {.fold_rows = 2});
    ADD_FAILURE() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "resize_dim") << e.what();
    EXPECT_NE(std::string(e.what()).find("counterexample"), std::string::npos) << e.what();
  }
}

TEST(SlidingWindow, RefusesAConsumerThatDoesNotFollowTheProducer) {
  Proc p = per_strip();
  expect_refused([&] { sliding_window(p, "for i0 in _: _ #0", "for yi in _: _ #1"); },
                 "sliding_window", ErrorCode::NotProved, "stmt.order",
                 "must directly follow the producer loop");
}

}  // namespace
