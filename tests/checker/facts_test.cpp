// always_true / always_divisible / always_in_range, the encoding of quasi-affine arithmetic
// (floor division and modulo, strides), time-outs and the query cache.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

const char* kSizes = R"(
def f(n: size, m: size, x: f32[n] @ DRAM):
    assert n % 4 == 0
    assert m >= 2
    pass
)";

Context top(const Proc& p) { return Context::top(p); }

TEST(AlwaysTrue, FactFollowingFromAssertsIsProved) {
  Proc p = parse_proc(kSizes);
  EXPECT_TRUE(always_true(top(p), expr_in(top(p), "n >= 4 and m + n > 5")).proved());
}

TEST(AlwaysTrue, FalseFactIsRefutedWithValues) {
  Proc p = parse_proc(kSizes);
  Answer ans = always_true(top(p), expr_in(top(p), "n >= 8"));
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "`n >= 8` does not always hold");
  std::vector<long> v = captures(ans.counterexample, R"(^n = (\d+), m = (\d+)$)");
  ASSERT_EQ(v.size(), 2u) << ans.counterexample;
  EXPECT_EQ(v[0], 4);
  EXPECT_GE(v[1], 2);
}

TEST(AlwaysTrue, EnclosingLoopRangeIsAFact) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
)");
  Context ctx = Context::at(p, loop(p, "i").as<ForNode>()->body[0]);
  EXPECT_TRUE(always_true(ctx, expr_in(ctx, "i < n and i >= 0")).proved());
}

TEST(AlwaysTrue, NonConstantDivisionIsUnknown) {
  Proc p = parse_proc(kSizes);
  Answer ans = always_true(top(p), expr_in(top(p), "n / m >= 0"));
  ASSERT_TRUE(ans.unknown());
  EXPECT_EQ(ans.reason, "`n / m` divides by a non-constant, outside the quasi-affine fragment");
}

TEST(AlwaysTrue, FermatCubesWithTinyTimeoutIsUnknown) {
  Proc p = parse_proc(R"(
def f(a: size, b: size, c: size):
    pass
)");
  Settings old = settings();
  set_settings({1, false});
  Answer ans = always_true(
      top(p),
      expr_in(top(p), "a * a * a + b * b * b < c * c * c or a * a * a + b * b * b > c * c * c"));
  set_settings(old);
  ASSERT_TRUE(ans.unknown()) << to_string(ans);
  EXPECT_EQ(ans.reason.rfind("Z3 ", 0), 0u) << ans.reason;
}

TEST(AlwaysDivisible, MultipleOfAssertedDivisorIsProved) {
  Proc p = parse_proc(kSizes);
  EXPECT_TRUE(always_divisible(top(p), expr_in(top(p), "n + 8 * m"), 4).proved());
}

TEST(AlwaysDivisible, NonMultipleIsRefutedWithItsValue) {
  Proc p = parse_proc(kSizes);
  Answer ans = always_divisible(top(p), expr_in(top(p), "n + m"), 4);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "`n + m` is not always divisible by 4");
  std::vector<long> v =
      captures(ans.counterexample, R"(^`n \+ m` = (\d+) with n = (\d+), m = (\d+)$)");
  ASSERT_EQ(v.size(), 3u) << ans.counterexample;
  EXPECT_EQ(v[0], v[1] + v[2]);
  EXPECT_NE(v[0] % 4, 0);
}

TEST(AlwaysDivisible, NonPositiveDivisorIsUnknown) {
  Proc p = parse_proc(kSizes);
  EXPECT_TRUE(always_divisible(top(p), expr_in(top(p), "n"), 0).unknown());
}

TEST(AlwaysInRange, FloorDivisionStaysInRange) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, 8 * n):
        pass
)");
  Context ctx = Context::at(p, loop(p, "i").as<ForNode>()->body[0]);
  EXPECT_TRUE(
      always_in_range(ctx, expr_in(ctx, "i / 8"), expr_in(ctx, "0"), expr_in(ctx, "n")).proved());
}

TEST(AlwaysInRange, NegativeNumeratorUsesFloorSemantics) {
  Proc p = parse_proc(R"(
def f(n: size):
    for i in seq(0, 4):
        pass
)");
  Context ctx = Context::at(p, loop(p, "i").as<ForNode>()->body[0]);
  // (i - 4) / 4 is -1 for i in [0, 4) under floor division (truncation would give 0 for i > 0).
  EXPECT_TRUE(always_true(ctx, expr_in(ctx, "(i - 4) / 4 == -1")).proved());
  EXPECT_TRUE(always_true(ctx, expr_in(ctx, "(i - 4) % 4 == i")).proved());
}

TEST(AlwaysInRange, ModuloOutOfRangeIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size):
    for i in seq(0, n):
        pass
)");
  Context ctx = Context::at(p, loop(p, "i").as<ForNode>()->body[0]);
  Answer ans = always_in_range(ctx, expr_in(ctx, "i % 8"), expr_in(ctx, "0"), expr_in(ctx, "4"));
  ASSERT_TRUE(ans.refuted());
  std::vector<long> v = captures(
      ans.counterexample, R"(^`i % 8` = (\d+), outside \[0, 4\) with n = (\d+), i = (\d+)$)");
  ASSERT_EQ(v.size(), 3u) << ans.counterexample;
  EXPECT_EQ(v[0], v[2] % 8);
  EXPECT_GE(v[0], 4);
  EXPECT_LT(v[2], v[1]);
}

TEST(Strides, DenseTensorStrideIsTheProductOfLaterExtents) {
  Proc p = parse_proc(R"(
def f(n: size, m: size, x: f32[n, m, 4] @ DRAM):
    pass
)");
  EXPECT_TRUE(
      always_true(top(p), expr_in(top(p), "stride(x, 2) == 1 and stride(x, 0) == 4 * m")).proved());
}

TEST(Strides, WindowStrideIsKnownOnlyFromAsserts) {
  Proc p = parse_proc(R"(
def f(n: size, x: [f32][n, n] @ DRAM):
    assert stride(x, 1) == 1
    pass
)");
  EXPECT_TRUE(always_true(top(p), expr_in(top(p), "stride(x, 1) == 1")).proved());
  EXPECT_TRUE(always_true(top(p), expr_in(top(p), "stride(x, 0) == n")).refuted());
}

// ---- cache ---------------------------------------------------------------------------------

TEST(QueryCache, IdenticalQueryIsAnsweredFromTheCache) {
  Proc p = parse_proc(kSizes);
  Settings old = settings();
  set_settings({old.timeout_ms, true});
  Expr e = expr_in(top(p), "n + 3 * m >= 10");
  always_true(top(p), e);
  SolverStats before = solver_stats();
  Answer again = always_true(top(p), e);
  SolverStats after = solver_stats();
  set_settings(old);
  EXPECT_TRUE(again.proved());
  EXPECT_EQ(after.cache_hits, before.cache_hits + 1);
}

TEST(QueryCache, DisabledCacheAsksZ3Again) {
  Proc p = parse_proc(kSizes);
  Settings old = settings();
  set_settings({old.timeout_ms, false});
  Expr e = expr_in(top(p), "n + 3 * m >= 10");
  always_true(top(p), e);
  SolverStats before = solver_stats();
  always_true(top(p), e);
  SolverStats after = solver_stats();
  set_settings(old);
  EXPECT_EQ(after.cache_hits, before.cache_hits);
  EXPECT_EQ(after.queries, before.queries + 1);
}

TEST(QueryCache, CachedRefutationKeepsItsOwnCounterexampleWords) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    x[0] = 1.0
    y[0] = x[0]
    x[0] = 2.0
    y[1] = x[0]
)");
  const Block& b = p.body();
  Answer first = stmts_commute(Context::at(p, b[0]), b[0], b[1]);
  Answer second = stmts_commute(Context::at(p, b[2]), b[2], b[3]);
  ASSERT_TRUE(first.refuted() && second.refuted());
  EXPECT_EQ(second.counterexample,
            "the first block writes x[0] at line 5, then the second block reads x[0] at line 6");
}

}  // namespace
}  // namespace exocpp::checker::testing
