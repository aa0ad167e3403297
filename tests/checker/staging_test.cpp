// can_lift_alloc, window_covers, loop_body_idempotent and config_not_read.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

// ---- lift_alloc ----------------------------------------------------------------------------

TEST(LiftAlloc, BufferFullyRewrittenEachIterationIsProved) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, 4] @ DRAM, y: f32[n, 4] @ DRAM):
    for i in seq(0, n):
        t: f32[4] @ DRAM
        for j in seq(0, 4):
            t[j] = x[i, j]
        for j in seq(0, 4):
            y[i, j] = t[j]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  EXPECT_TRUE(can_lift_alloc(Context::at(p, l), l, a).proved());
}

TEST(LiftAlloc, ReadingWhatOnlyALaterWriteCoversIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, 4] @ DRAM, y: f32[n, 4] @ DRAM):
    for i in seq(0, n):
        t: f32[4] @ DRAM
        for j in seq(0, 2):
            t[j] = x[i, j]
        for j in seq(0, 4):
            y[i, j] = t[j]
        for j in seq(2, 4):
            t[j] = x[i, j]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  Answer ans = can_lift_alloc(Context::at(p, l), l, a);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(^iteration i = (\d+) writes t\[(\d+)\] \(j = (\d+)\) at line 10, then iteration i = (\d+) reads t\[(\d+)\] \(j = (\d+)\) at line 8)");
  ASSERT_EQ(v.size(), 6u) << ans.counterexample;
  EXPECT_LT(v[0], v[3]);
  EXPECT_EQ(v[1], v[4]);
  EXPECT_GE(v[1], 2);
}

TEST(LiftAlloc, AccumulatorCarriedAcrossIterationsIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        t: f32 @ DRAM
        t += x[i]
        y[i] = t
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  Answer ans = can_lift_alloc(Context::at(p, l), l, a);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(ans.reason,
            "a value of t written by one iteration of loop i may be read by a later one");
}

TEST(LiftAlloc, ShapeDependingOnTheIteratorIsRefuted) {
  // The type checker rejects such a shape; the checker must still refuse it (typecheck off).
  Proc p = parse_proc_unchecked(R"(
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        t: f32[i + 1] @ DRAM
        t[0] = x[i]
        x[i] = t[0]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  Answer ans = can_lift_alloc(Context::at(p, l), l, a);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the shape of t depends on i");
}

// Exo's x86 matmul: each j of the inner loop writes t[j] just before reading it, so no value
// crosses an iteration of i even though the write is not a statement of i's body of its own.
TEST(LiftAlloc, WriteEarlierInTheSameInnerIterationIsProved) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n, 8] @ DRAM):
    for i in seq(0, n):
        t: f32[8] @ DRAM
        for j in seq(0, 8):
            t[j] = x[i]
            y[i, j] += t[j] * 2.0
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  EXPECT_TRUE(can_lift_alloc(Context::at(p, l), l, a).proved());
}

// t[j + 1] for j < 7 holds what the previous iteration of i wrote: this iteration writes it
// only at its next j, after the read.
TEST(LiftAlloc, WriteOfAnotherElementInTheSameInnerIterationIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n, 8] @ DRAM):
    for i in seq(0, n):
        t: f32[9] @ DRAM
        for j in seq(0, 8):
            t[j] = x[i]
            y[i, j] += t[j + 1]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  Answer ans = can_lift_alloc(Context::at(p, l), l, a);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(^iteration i = (\d+) writes t\[(\d+)\] \(j = (\d+)\) at line 6, then iteration i = (\d+) reads t\[(\d+)\] \(j = (\d+)\) at line 7)");
  ASSERT_EQ(v.size(), 6u) << ans.counterexample;
  EXPECT_LT(v[0], v[3]);
  EXPECT_EQ(v[1], v[4]);
  EXPECT_EQ(v[4], v[5] + 1);
}

TEST(LiftAlloc, WriteAfterTheReadInTheSameInnerIterationIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n, 8] @ DRAM):
    for i in seq(0, n):
        t: f32[8] @ DRAM
        for j in seq(0, 8):
            y[i, j] += t[j]
            t[j] = x[i]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  Answer ans = can_lift_alloc(Context::at(p, l), l, a);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(ans.reason,
            "a value of t written by one iteration of loop i may be read by a later one");
}

TEST(LiftAlloc, ConditionalWriteInTheSameInnerIterationIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n, 8] @ DRAM):
    for i in seq(0, n):
        t: f32[8] @ DRAM
        for j in seq(0, 8):
            if i > 0:
                t[j] = x[i]
            y[i, j] += t[j]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  EXPECT_TRUE(can_lift_alloc(Context::at(p, l), l, a).refuted());
}

TEST(LiftAlloc, WriteInAnEarlierSiblingLoopOfTheInnerBodyIsProved) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, 4] @ DRAM, y: f32[n, 2, 4] @ DRAM):
    for i in seq(0, n):
        t: f32[4] @ DRAM
        for j in seq(0, 2):
            for k in seq(0, 4):
                t[k] = x[i, k]
            for k in seq(0, 4):
                y[i, j, k] = t[k]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  EXPECT_TRUE(can_lift_alloc(Context::at(p, l), l, a).proved());
}

TEST(LiftAlloc, ConfigIndexIsUnknown) {
  Proc p = parse_proc(R"(
config Cfg:
    k: index
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        t: f32[4] @ DRAM
        t[Cfg.k] = x[i]
        x[i] = t[0]
)");
  Stmt l = loop(p, "i");
  Stmt a = nth(p, StmtKind::Alloc);
  EXPECT_TRUE(can_lift_alloc(Context::at(p, l), l, a).unknown());
}

// ---- window coverage (stage_mem) -----------------------------------------------------------

const char* kTiled = R"(
def f(n: size, A: f32[n, 64] @ DRAM, C: f32[n, 64] @ DRAM):
    for i in seq(0, n):
        for jo in seq(0, 4):
            for ji in seq(0, 16):
                C[i, 16 * jo + ji] += A[i, 16 * jo + ji]
)";

TEST(WindowCovers, TileWindowCoversTheTileLoop) {
  Proc p = parse_proc(kTiled);
  Stmt ji = loop(p, "ji");
  Context ctx = Context::at(p, ji);
  Expr w = expr_in(ctx, "C[i, 16 * jo : 16 * jo + 16]", true);
  EXPECT_TRUE(window_covers(ctx, w, Block{ji}).proved());
}

TEST(WindowCovers, HalfTileWindowIsRefutedWithAnAccessOutside) {
  Proc p = parse_proc(kTiled);
  Stmt ji = loop(p, "ji");
  Context ctx = Context::at(p, ji);
  Expr w = expr_in(ctx, "C[i, 16 * jo : 16 * jo + 8]", true);
  Answer ans = window_covers(ctx, w, Block{ji});
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(^the block reduces into C\[(\d+), (\d+)\] \(ji = (\d+)\) at line 6, outside C\[(\d+), (\d+):(\d+)\]; with n = \d+, i = (\d+), jo = (\d+)$)");
  ASSERT_EQ(v.size(), 8u) << ans.counterexample;
  EXPECT_EQ(v[0], v[6]);
  EXPECT_EQ(v[1], 16 * v[7] + v[2]);
  EXPECT_GE(v[2], 8);
  EXPECT_EQ(v[4], 16 * v[7]);
}

TEST(WindowDisjoint, OtherRowIsDisjoint) {
  Proc p = parse_proc(kTiled);
  Stmt ji = loop(p, "ji");
  Context ctx = Context::at(p, ji);
  Expr w = expr_in(ctx, "C[i + 1, 0:64]", true);
  EXPECT_TRUE(window_disjoint(ctx, w, Block{ji}).proved());
}

TEST(WindowDisjoint, OverlappingTileIsRefutedWithAnAccessInside) {
  Proc p = parse_proc(kTiled);
  Stmt ji = loop(p, "ji");
  Context ctx = Context::at(p, ji);
  Expr w = expr_in(ctx, "C[i, 16 * jo + 8 : 16 * jo + 24]", true);
  Answer ans = window_disjoint(ctx, w, Block{ji});
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_NE(ans.counterexample.find("inside `C[i, 16 * jo + 8:16 * jo + 24]`"), std::string::npos)
      << ans.counterexample;
}

TEST(WindowCovers, WindowOfTheWrongRowIsRefuted) {
  Proc p = parse_proc(kTiled);
  Stmt ji = loop(p, "ji");
  Context ctx = Context::at(p, ji);
  Expr w = expr_in(ctx, "C[0, 16 * jo : 16 * jo + 16]", true);
  EXPECT_TRUE(window_covers(ctx, w, Block{ji}).refuted());
}

TEST(WindowCovers, NonConstantDivisionIsUnknown) {
  Proc p = parse_proc(kTiled);
  Stmt ji = loop(p, "ji");
  Context ctx = Context::at(p, ji);
  Expr w = expr_in(ctx, "C[i, jo / n : 64]", true);
  Answer ans = window_covers(ctx, w, Block{ji});
  ASSERT_TRUE(ans.unknown()) << to_string(ans);
  EXPECT_EQ(ans.reason, "`jo / n` divides by a non-constant, outside the quasi-affine fragment");
}

// ---- idempotence (remove_loop) -------------------------------------------------------------

TEST(Idempotent, OverwritingBodyIsProved) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[4] @ DRAM):
    for r in seq(0, 3):
        x[0] = y[0]
)");
  Stmt l = loop(p, "r");
  EXPECT_TRUE(loop_body_idempotent(Context::at(p, l), l).proved());
}

TEST(Idempotent, ReductionIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[4] @ DRAM):
    for r in seq(0, 3):
        x[0] += y[0]
)");
  Stmt l = loop(p, "r");
  Answer ans = loop_body_idempotent(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the body reduces into x, so running it twice adds twice");
  EXPECT_EQ(ans.counterexample, "the reduction at line 4");
}

TEST(Idempotent, BodyUsingTheIteratorIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[4] @ DRAM):
    for r in seq(0, 3):
        x[r] = y[0]
)");
  Stmt l = loop(p, "r");
  Answer ans = loop_body_idempotent(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the body of loop r depends on r");
}

TEST(Idempotent, ReadOfALocationItWritesIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM):
    for r in seq(0, 3):
        x[1] = x[0]
        x[0] = x[2]
)");
  Stmt l = loop(p, "r");
  Answer ans = loop_body_idempotent(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(ans.counterexample,
            "the body reads x[0] at line 4, then the body writes x[0] at line 5");
}

TEST(Idempotent, ConfigIndexIsUnknown) {
  Proc p = parse_proc(R"(
config Cfg:
    k: index
def f(n: size, x: f32[4] @ DRAM):
    for r in seq(0, 3):
        x[Cfg.k] = x[0]
)");
  Stmt l = loop(p, "r");
  EXPECT_TRUE(loop_body_idempotent(Context::at(p, l), l).unknown());
}

// ---- config reads --------------------------------------------------------------------------

const char* kConfig = R"(
config Cfg:
    scale: f32
    k: index
def use_scale(x: [f32][4] @ DRAM):
    for k in seq(0, 4):
        x[k] = Cfg.scale
)";

TEST(ConfigNotRead, CodeWithoutReadsIsProved) {
  Proc p = parse_proc(std::string(kConfig) + R"(
def f(x: f32[8] @ DRAM):
    Cfg.scale = 2.0
    x[0] = 1.0
)");
  Stmt s = p.body()[1];
  Config used = p.body()[0].as<WriteConfigNode>()->config;
  EXPECT_TRUE(config_not_read(Context::at(p, s), Block{s}, used, "scale").proved());
}

TEST(ConfigNotRead, ReadInsideACalleeIsRefuted) {
  Proc p = parse_proc(std::string(kConfig) + R"(
def f(x: f32[8] @ DRAM):
    Cfg.scale = 2.0
    use_scale(x[0:4])
)");
  Config cfg = p.body()[0].as<WriteConfigNode>()->config;
  Stmt s = p.body()[1];
  Answer ans = config_not_read(Context::at(p, s), Block{s}, cfg, "scale");
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "Cfg.scale is read");
  EXPECT_EQ(ans.counterexample, "a call reads Cfg.scale at line 7");
}

TEST(ConfigNotRead, ReadUnderAFalseConditionIsProved) {
  Proc p = parse_proc(std::string(kConfig) + R"(
def f(n: size, x: f32[8] @ DRAM):
    Cfg.scale = 2.0
    if n < 1:
        x[0] = Cfg.scale
)");
  Config cfg = p.body()[0].as<WriteConfigNode>()->config;
  Stmt s = p.body()[1];
  EXPECT_TRUE(config_not_read(Context::at(p, s), Block{s}, cfg, "scale").proved());
}

TEST(ConfigNotRead, GuardOutsideTheFragmentIsUnknown) {
  Proc p = parse_proc(std::string(kConfig) + R"(
def f(n: size, m: size, x: f32[8] @ DRAM):
    Cfg.scale = 2.0
    if Cfg.k < 1:
        x[0] = Cfg.scale
)");
  Config cfg = p.body()[0].as<WriteConfigNode>()->config;
  Stmt s = p.body()[1];
  EXPECT_TRUE(config_not_read(Context::at(p, s), Block{s}, cfg, "scale").unknown());
}

}  // namespace
}  // namespace exocpp::checker::testing
