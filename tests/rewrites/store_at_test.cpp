// store_at (rewrites/store_at.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include "replace_test.h"
#include "rewrite_test_util.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kStrips = R"(def f(H: size, W: size, x: f32[8 * H, W] @ DRAM, y: f32[8 * H, W] @ DRAM):
    t: f32[8 * H, W] @ DRAM
    for yo in seq(0, H):
        for yi in seq(0, 8):
            for c in seq(0, W):
                t[8 * yo + yi, c] = x[8 * yo + yi, c] * 2.0
        for yi in seq(0, 8):
            for c in seq(0, W):
                y[8 * yo + yi, c] = t[8 * yo + yi, c] + 1.0
)";

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(StoreAt, CutsTheBufferToTheRowsOfOneIteration) {
  Proc p = parse_proc(kStrips);
  Proc q = store_at(p, "t: _", "for yo in _: _");
  EXPECT_TRUE(has(q, "    for yo in seq(0, H):\n        t: f32[8, W] @ DRAM")) << q;
  EXPECT_TRUE(has(q, "t[yi, c] = x[yi + 8 * yo, c] * 2.0")) << q;
  for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {2, 3}, {3, 5}})
    expect_equivalent(p, q, {{"H", h}, {"W", w}});
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(StoreAt, RefusesABufferReadAfterTheLoop) {
  std::string text = kStrips;
  text += "    y[0, 0] = t[0, 0]\n";
  Proc p = parse_proc(text);
  expect_refused([&] { store_at(p, "t: _", "for yo in _: _"); }, "sink_alloc", ErrorCode::NotProved,
                 "scope.escapes", "after");
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(StoreAt, RefusesALoopThatDoesNotFollowTheAllocation) {
  std::string text = kStrips;
  const std::string alloc = "    t: f32[8 * H, W] @ DRAM\n";
  text.replace(text.find(alloc), alloc.size(), alloc + "    y[0, 0] = 0.0\n");
  Proc p = parse_proc(text);
  expect_refused([&] { store_at(p, "t: _", "for yo in _: _"); }, "store_at", ErrorCode::BadArgument,
                 "arg.invalid", "right after the allocation");
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(StoreAt, RefusesARegionWhoseSizeDependsOnTheLoopVariable) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        for j in seq(0, i):
            t[j] = x[j]
        for j in seq(0, i):
            x[j] = t[j] + 1.0
)");
  expect_refused([&] { store_at(p, "t: _", "for i in _: _"); }, "store_at", ErrorCode::NotProved,
                 "dep.loop_variant", "depends on 'i'");
}

}  // namespace
