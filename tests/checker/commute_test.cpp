// stmts_commute and the loop-iteration queries (reorder, parallelize): proved, refuted with a
// checked counterexample, and unknown cases.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

const char* kTwoStmts = R"(
def f(n: index, m: index, x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    assert n >= 0 and n < 8
    assert m >= 0 and m < 8
    x[n] = 1.0
    y[0] = x[m]
)";

TEST(StmtsCommute, DisjointWritesAreProved) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM):
    x[0] = 1.0
    x[1] = 2.0
)");
  Stmt a = p.body()[0], b = p.body()[1];
  EXPECT_TRUE(stmts_commute(Context::at(p, a), a, b).proved());
}

TEST(StmtsCommute, WriteThenReadOfSameLocationIsRefutedWithEqualIndices) {
  Proc p = parse_proc(kTwoStmts);
  Stmt a = p.body()[0], b = p.body()[1];
  Answer ans = stmts_commute(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(the first block writes x\[(\d+)\] at line 5, then the second block reads x\[(\d+)\] at line 6; with n = (\d+), m = (\d+))");
  ASSERT_EQ(v.size(), 4u) << ans.counterexample;
  EXPECT_EQ(v[0], v[1]);
  EXPECT_EQ(v[0], v[2]);
  EXPECT_EQ(v[2], v[3]);
  EXPECT_EQ(ans.loc.line, 5);
}

TEST(StmtsCommute, ReductionsIntoOneLocationAreProved) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    x[0] += y[0]
    x[0] += y[1]
)");
  Stmt a = p.body()[0], b = p.body()[1];
  EXPECT_TRUE(stmts_commute(Context::at(p, a), a, b).proved());
}

TEST(StmtsCommute, ReductionAndReadOfOneLocationAreRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    x[0] += y[0]
    y[1] = x[0]
)");
  Stmt a = p.body()[0], b = p.body()[1];
  Answer ans = stmts_commute(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(
      ans.counterexample,
      "the first block reduces into x[0] at line 3, then the second block reads x[0] at line 4");
}

TEST(StmtsCommute, UsingABufferTheFirstBlockAllocatesIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM):
    t: f32 @ DRAM
    t = x[0]
)");
  Answer ans = stmts_commute(Context::at(p, p.body()[0]), p.body()[0], p.body()[1]);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the second block uses `t`, which the first block defines");
}

TEST(StmtsCommute, WriteThroughWindowConflictsWithParentRead) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    w = x[2:6]
    w[1] = 1.0
    y[0] = x[3]
)");
  Stmt a = p.body()[1], b = p.body()[2];
  Answer ans = stmts_commute(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(ans.counterexample,
            "the first block writes x[3] at line 4, then the second block reads x[3] at line 5");
}

TEST(StmtsCommute, WriteThroughWindowAndOtherParentElementAreProved) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    w = x[2:6]
    w[1] = 1.0
    y[0] = x[2]
)");
  Stmt a = p.body()[1], b = p.body()[2];
  EXPECT_TRUE(stmts_commute(Context::at(p, a), a, b).proved());
}

const char* kCallee = R"(
def set2(v: [f32][4] @ DRAM):
    v[2] = 0.0
)";

TEST(StmtsCommute, CalleeWriteThroughWindowArgumentIsSeen) {
  Proc p = parse_proc(std::string(kCallee) + R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    set2(x[4:8])
    y[0] = x[6]
)");
  Stmt a = p.body()[0], b = p.body()[1];
  Answer ans = stmts_commute(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_NE(ans.counterexample.find("the first block writes x[6]"), std::string::npos)
      << ans.counterexample;
}

TEST(StmtsCommute, CalleeWriteElsewhereIsProved) {
  Proc p = parse_proc(std::string(kCallee) + R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    set2(x[4:8])
    y[0] = x[5]
)");
  Stmt a = p.body()[0], b = p.body()[1];
  EXPECT_TRUE(stmts_commute(Context::at(p, a), a, b).proved());
}

TEST(StmtsCommute, ConfigFieldIsAGlobalLocation) {
  Proc p = parse_proc(R"(
config Cfg:
    a: f32
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    Cfg.a = x[0]
    y[1] = Cfg.a
)");
  Stmt a = p.body()[0], b = p.body()[1];
  Answer ans = stmts_commute(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(ans.counterexample,
            "the first block writes Cfg.a at line 5, then the second block reads Cfg.a at line 6");
}

TEST(StmtsCommute, IndexReadingAConfigFieldIsUnknown) {
  Proc p = parse_proc(R"(
config Cfg:
    k: index
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    x[Cfg.k] = 1.0
    y[0] = x[0]
)");
  Stmt a = p.body()[0], b = p.body()[1];
  Answer ans = stmts_commute(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.unknown()) << to_string(ans);
  EXPECT_EQ(ans.reason, "`Cfg.k` reads a config field, whose value is not modelled");
}

// ---- loop iterations ----------------------------------------------------------------------

TEST(LoopIterations, IndependentIterationsAreProved) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = y[i]
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_iterations_commute(Context::at(p, l), l).proved());
  EXPECT_TRUE(loop_is_parallelizable(Context::at(p, l), l).proved());
}

TEST(LoopIterations, ShiftedReadIsRefutedWithConsecutiveIterations) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n + 1] @ DRAM):
    for i in seq(0, n):
        x[i + 1] = x[i]
)");
  Stmt l = loop(p, "i");
  Answer ans = loop_iterations_commute(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(ans.reason, "loop i carries a dependence");
  std::vector<long> v = captures(
      ans.counterexample,
      R"(^iteration i = (\d+) writes x\[(\d+)\] at line 4, then iteration i = (\d+) reads x\[(\d+)\] at line 4; with n = (\d+)$)");
  ASSERT_EQ(v.size(), 5u) << ans.counterexample;
  EXPECT_EQ(v[1], v[0] + 1);
  EXPECT_EQ(v[3], v[2]);
  EXPECT_EQ(v[1], v[3]);
  EXPECT_LT(v[2], v[4]);
}

TEST(LoopIterations, ReductionsCommuteButDoNotParallelize) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, n):
        s += x[i]
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_iterations_commute(Context::at(p, l), l).proved());
  Answer par = loop_is_parallelizable(Context::at(p, l), l);
  ASSERT_TRUE(par.refuted()) << to_string(par);
  std::vector<long> v = captures(
      par.counterexample,
      R"(iteration i = (\d+) reduces into s at line 4, then iteration i = (\d+) reduces into s)");
  ASSERT_EQ(v.size(), 2u) << par.counterexample;
  EXPECT_LT(v[0], v[1]);
}

TEST(LoopIterations, BufferAllocatedInTheBodyIsPrivate) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        t: f32 @ DRAM
        t = x[i]
        y[i] = t
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_is_parallelizable(Context::at(p, l), l).proved());
}

TEST(LoopIterations, IfConditionGuardsTheAccess) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM):
    for i in seq(0, 8):
        if i < 4:
            x[i + 4] = x[i]
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_iterations_commute(Context::at(p, l), l).proved());
}

TEST(LoopIterations, ElseBranchUsesTheNegatedCondition) {
  Proc p = parse_proc(R"(
def f(x: f32[12] @ DRAM):
    for i in seq(0, 8):
        if i < 4:
            pass
        else:
            x[i + 4] = x[i]
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_iterations_commute(Context::at(p, l), l).proved());
}

TEST(LoopIterations, ModuloIndexCollisionIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[8] @ DRAM):
    for i in seq(0, 8):
        x[i % 4] = y[i]
)");
  Stmt l = loop(p, "i");
  Answer ans = loop_iterations_commute(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(iteration i = (\d+) writes x\[(\d+)\] at line 4, then iteration i = (\d+) writes x\[(\d+)\])");
  ASSERT_EQ(v.size(), 4u) << ans.counterexample;
  EXPECT_EQ(v[0] % 4, v[1]);
  EXPECT_EQ(v[2] % 4, v[3]);
  EXPECT_EQ(v[1], v[3]);
  EXPECT_NE(v[0], v[2]);
}

TEST(LoopIterations, EvenWritesAndOddReadsAreProved) {
  Proc p = parse_proc(R"(
def f(x: f32[16] @ DRAM):
    for i in seq(0, 8):
        x[2 * i] = x[(2 * i + 1) / 1]
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_iterations_commute(Context::at(p, l), l).proved());
}

// Iterations i = 2k and 2k + 1 store into one element, but the same constant: either order
// leaves 1.0 there.
TEST(LoopIterations, StoresOfOneConstantCommuteThoughTheyCollide) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM):
    for i in seq(0, 8):
        x[i / 2] = 1.0
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_iterations_commute(Context::at(p, l), l).proved());
}

// Two iterations store different values (y[i]) into one element: the order decides which stays.
TEST(LoopIterations, DivisionIndexCollisionIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[8] @ DRAM):
    for i in seq(0, 8):
        x[i / 2] = y[i]
)");
  Stmt l = loop(p, "i");
  Answer ans = loop_iterations_commute(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(iteration i = (\d+) writes x\[(\d+)\] at line 4, then iteration i = (\d+) writes x\[(\d+)\])");
  ASSERT_EQ(v.size(), 4u) << ans.counterexample;
  EXPECT_EQ(v[0] / 2, v[1]);
  EXPECT_EQ(v[2] / 2, v[3]);
}

TEST(LoopIterations, AssertMakesAccessesDisjoint) {
  const char* src = R"(
def f(n: size, x: f32[n + 4] @ DRAM):
    assert n >= 4
    for i in seq(0, 4):
        x[i + n] = x[i]
)";
  Proc p = parse_proc(src);
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_iterations_commute(Context::at(p, l), l).proved());
}

TEST(LoopIterations, WithoutTheAssertTheSameLoopIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n + 4] @ DRAM):
    for i in seq(0, 4):
        x[i + n] = x[i]
)");
  Stmt l = loop(p, "i");
  Answer ans = loop_iterations_commute(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(ans.counterexample, R"(; with n = (\d+)$)");
  ASSERT_EQ(v.size(), 1u) << ans.counterexample;
  EXPECT_LT(v[0], 4);
}

TEST(LoopIterations, EnclosingLoopIsAContextValue) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, n] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, n):
            x[i, j] = x[i, 0]
)");
  Stmt l = loop(p, "j");
  Answer ans = loop_iterations_commute(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(iteration j = (\d+) writes x\[(\d+), 0\] at line 5, then iteration j = (\d+) reads x\[(\d+), 0\] at line 5; with n = \d+, i = (\d+)$)");
  ASSERT_EQ(v.size(), 5u) << ans.counterexample;
  EXPECT_EQ(v[0], 0);
  EXPECT_EQ(v[1], v[4]);
  EXPECT_EQ(v[3], v[4]);
}

TEST(LoopIterations, IndexOutsideTheFragmentIsUnknown) {
  Proc p = parse_proc(R"(
config Cfg:
    k: index
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i + Cfg.k] = 1.0
)");
  Stmt l = loop(p, "i");
  Answer ans = loop_is_parallelizable(Context::at(p, l), l);
  ASSERT_TRUE(ans.unknown()) << to_string(ans);
  EXPECT_EQ(ans.reason, "`Cfg.k` reads a config field, whose value is not modelled");
}

}  // namespace
// A loop bound read from a config is any integer to the iteration queries: a body that
// writes only its own element is independent whatever the bound.
TEST(LoopIterations, ConfigBoundIsAnyIntegerAndOwnElementIsProved) {
  Proc p = parse_proc(R"(
config Cfg:
    n: index
def f(x: f32[8] @ DRAM):
    for i in par(0, Cfg.n):
        x[i] = 1.0
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loop_is_parallelizable(Context::at(p, l), l).proved());
}

TEST(LoopIterations, ConfigBoundIsAnyIntegerAndSharedReductionIsRefuted) {
  Proc p = parse_proc(R"(
config Cfg:
    n: index
def f(x: f32[8] @ DRAM, s: f32[1] @ DRAM):
    for i in par(0, Cfg.n):
        s[0] += x[i]
)");
  Stmt l = loop(p, "i");
  Answer ans = loop_is_parallelizable(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_EQ(ans.reason, "two iterations of loop i touch the same location and one writes it");
}

}  // namespace exocpp::checker::testing
