// Exo's stdlib scheduling helpers that exocpp provides under the same names: lift_if (repeated
// lift_scope), replace_once and the list form of replace_all, and store_at (sink_alloc and
// resize_dim to the region one iteration touches). Each accepted result is checked against the
// original in the interpreter; each refusal by its message.
#include "replace_test.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kIfInTwoLoops = R"(def f(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            if N > 4:
                A[i, j] = 1.0
            else:
                A[i, j] = 2.0
)";

TEST(LiftIf, LiftsTheIfOutOfBothLoops) {
  Proc p = parse_proc(kIfInTwoLoops);
  Proc q = lift_if(p, "if _: _", 2);
  EXPECT_TRUE(q.body_cursor()[0].stmt().as<IfNode>()) << q;
  expect_equivalent(p, q, {{"N", 3}});
  expect_equivalent(p, q, {{"N", 6}});
}

TEST(LiftIf, ARefusalSaysHowManyLiftsRemain) {
  Proc p = parse_proc(kIfInTwoLoops);
  expect_refused([&] { lift_if(p, "if _: _", 3); }, "lift_if", "1 lift(s) remain");
}

TEST(LiftIf, RefusesALoop) {
  Proc p = parse_proc(kIfInTwoLoops);
  expect_refused([&] { lift_if(p, "for j in _: _"); }, "lift_if", "must be an if");
}

const char* kTwoCopies = R"(def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM, C: f32[16] @ DRAM):
    for i in seq(0, 16):
        B[i] = A[i]
    for i in seq(0, 16):
        C[i] = A[i]
)";

TEST(ReplaceOnce, ReplacesOnlyTheFirstBlockThatUnifies) {
  Proc p = parse_proc(kTwoCopies);
  Proc q = replace_once(p, {instr("vld")});
  const std::string text = to_string(q);
  EXPECT_EQ(text.find("vld("), text.rfind("vld(")) << q;  // one call
  EXPECT_TRUE(has(q, "vld(B[0:16], A[0:16])")) << q;
  EXPECT_TRUE(has(q, "C[i] = A[i]")) << q;
  expect_equivalent(p, q);
}

TEST(ReplaceOnce, ASubprocThatUnifiesNowhereChangesNothing) {
  Proc p = parse_proc(kTwoCopies);
  Proc q = replace_once(p, {instr("vfma")});
  EXPECT_EQ(to_string(q), to_string(p));
}

TEST(ReplaceAll, AListReplacesWithEachSubprocInTurn) {
  Proc p = parse_proc(R"(def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM, C: f32[16] @ DRAM):
    for i in seq(0, 16):
        B[i] = A[i]
    for i in seq(0, 16):
        C[i] += A[i] * B[i]
    for i in seq(0, 16):
        A[i] = C[i]
)");
  Proc q = replace_all(p, {instr("vld"), instr("vfma")});
  EXPECT_TRUE(has(q, "vld(B[0:16], A[0:16])")) << q;
  EXPECT_TRUE(has(q, "vfma(C[0:16], A[0:16], B[0:16])")) << q;
  EXPECT_TRUE(has(q, "vld(A[0:16], C[0:16])")) << q;
  expect_equivalent(p, q);
}

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

TEST(StoreAt, CutsTheBufferToTheRowsOfOneIteration) {
  Proc p = parse_proc(kStrips);
  Proc q = store_at(p, "t: _", "for yo in _: _");
  EXPECT_TRUE(has(q, "    for yo in seq(0, H):\n        t: f32[8, W] @ DRAM")) << q;
  EXPECT_TRUE(has(q, "t[yi, c] = x[yi + 8 * yo, c] * 2.0")) << q;
  for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {2, 3}, {3, 5}})
    expect_equivalent(p, q, {{"H", h}, {"W", w}});
}

TEST(StoreAt, RefusesABufferReadAfterTheLoop) {
  std::string text = kStrips;
  text += "    y[0, 0] = t[0, 0]\n";
  Proc p = parse_proc(text);
  expect_refused([&] { store_at(p, "t: _", "for yo in _: _"); }, "sink_alloc", "after");
}

TEST(StoreAt, RefusesALoopThatDoesNotFollowTheAllocation) {
  std::string text = kStrips;
  const std::string alloc = "    t: f32[8 * H, W] @ DRAM\n";
  text.replace(text.find(alloc), alloc.size(), alloc + "    y[0, 0] = 0.0\n");
  Proc p = parse_proc(text);
  expect_refused([&] { store_at(p, "t: _", "for yo in _: _"); }, "store_at",
                 "right after the allocation");
}

TEST(StoreAt, RefusesARegionWhoseSizeDependsOnTheLoopVariable) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        for j in seq(0, i):
            t[j] = x[j]
        for j in seq(0, i):
            x[j] = t[j] + 1.0
)");
  expect_refused([&] { store_at(p, "t: _", "for i in _: _"); }, "store_at", "depends on 'i'");
}

}  // namespace
