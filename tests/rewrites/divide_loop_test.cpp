// Tests of divide_loop: each tail strategy (golden + interpreter equivalence), perfect division
// proved and refused, every argument refusal, and cursor forwarding.
#include "rewrite_test_util.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kScale = R"(def scale(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        B[i] = A[i] * 2.0
)";

const char* kPerfect = R"(def scale(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    assert N % 4 == 0
    for i in seq(0, N):
        B[i] = A[i] * 2.0
)";

Cursor loop0(const Proc& p) { return p.body_cursor()[0]; }

TEST(DivideLoop, GuardTail) {
  Proc p = parse_proc(kScale);
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"});
  expect_golden("DivideLoop.GuardTail", to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, CutTail) {
  Proc p = parse_proc(kScale);
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::Cut});
  expect_golden("DivideLoop.CutTail", to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, CutAndGuardTail) {
  Proc p = parse_proc(kScale);
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::CutAndGuard});
  expect_golden("DivideLoop.CutAndGuardTail", to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, PerfectWhenTheAssertProvesDivisibility) {
  Proc p = parse_proc(kPerfect);
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.perfect = true});
  expect_golden("DivideLoop.Perfect", to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, ConstantBoundIsFolded) {
  Proc p = parse_proc(R"(def f(A: f32[10] @ DRAM):
    for i in seq(0, 10):
        A[i] = 1.0
)");
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::Cut});
  expect_golden("DivideLoop.ConstantBound", to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, NestedLoopInsideAnotherLoop) {
  Proc p = parse_proc(R"(def f(N: size, M: size, A: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            A[i, j] = 0.0
)");
  Proc q = divide_loop(p, loop0(p).body()[0], 8, {"jo", "ji"}, {.tail = Tail::Cut});
  expect_golden("DivideLoop.Nested", to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, RefusesPerfectWhenNotDivisible) {
  Proc p = parse_proc(kScale);
  expect_refused(
      [&] {
        divide_loop(p, loop0(p), 4, {"io", "ii"}, {.perfect = true});
      },
      "divide_loop", "is divisible by 4, but");
}

TEST(DivideLoop, RefusalOfPerfectCarriesACounterexample) {
  Proc p = parse_proc(kScale);
  try {
    divide_loop(p, loop0(p), 4, {"io", "ii"}, {.perfect = true});
    FAIL() << "expected a refusal";
  } catch (const SchedulingError& e) {
    EXPECT_NE(e.counterexample().find("N"), std::string::npos) << e.what();
  }
}

TEST(DivideLoop, RefusesADivisorBelowOne) {
  Proc p = parse_proc(kScale);
  expect_refused(
      [&] {
        divide_loop(p, loop0(p), 0, {"io", "ii"});
      },
      "divide_loop", "the divisor must be between 1 and 2147483647, got 0");
}

// Exo's test_divide_loop_by_1_guard and _cut: a divisor of 1 gives one-iteration inner loops.
TEST(DivideLoop, DividesByOne) {
  for (Tail tail : {Tail::Guard, Tail::Cut, Tail::CutAndGuard}) {
    Proc p = parse_proc(kScale);
    Proc q = simplify(divide_loop(p, loop0(p), 1, {"io", "ii"}, {.tail = tail}));
    EXPECT_NE(to_string(q).find("for io in seq(0, N):\n        for ii in seq(0, 1):"),
              std::string::npos)
        << q;
    expect_equivalent(p, q, {{"N", 1}});
    expect_equivalent(p, q, {{"N", 5}});
  }
}

TEST(DivideLoop, RefusesANameInUse) {
  Proc p = parse_proc(kScale);
  expect_refused(
      [&] {
        divide_loop(p, loop0(p), 4, {"N", "ii"});
      },
      "divide_loop", "'N' is already used");
}

// The new loops are visible only where the divided loop stood: a later sibling loop may bind
// the same names (Exo's test_simplify_div_mod_staging divides two siblings into io/ii).
TEST(DivideLoop, AcceptsNamesALaterSiblingBinds) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = 1.0
    for io in seq(0, N):
        x[io] += 2.0
)");
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::Cut});
  for (int64_t n : {1, 5, 8}) expect_equivalent(p, q, {{"N", n}});
}

// A name the divided loop's own body binds would be shadowed by the new loop.
TEST(DivideLoop, RefusesANameItsBodyBinds) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        for io in seq(0, 4):
            x[i, io] = 1.0
)");
  expect_refused(
      [&] {
        divide_loop(p, loop0(p), 4, {"io", "ii"});
      },
      "divide_loop", "'io' is already used");
}

TEST(DivideLoop, RefusesTwoEqualNames) {
  Proc p = parse_proc(kScale);
  expect_refused([&] { divide_loop(p, loop0(p), 4, {"k", "k"}); }, "divide_loop", "must differ");
}

TEST(DivideLoop, RefusesAWrongNumberOfNames) {
  Proc p = parse_proc(kScale);
  expect_refused([&] { divide_loop(p, loop0(p), 4, {"io"}); }, "divide_loop",
                 "expected two new loop names");
}

TEST(DivideLoop, RefusesANonZeroLowerBound) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM):
    for i in seq(1, N + 1):
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_loop(p, loop0(p), 4, {"io", "ii"});
      },
      "divide_loop", ErrorCode::NotProved, "loop.lower_bound_not_zero");
}

TEST(DivideLoop, RefusesAStatementThatIsNotALoop) {
  Proc p = parse_proc(kScale);
  expect_refused(
      [&] {
        divide_loop(p, loop0(p).body()[0], 4, {"io", "ii"});
      },
      "divide_loop", "expected a loop");
}

TEST(DivideLoop, ForwardsTheBodyIntoTheGuardedInnerLoop) {
  Proc p = parse_proc(kScale);
  Cursor body = loop0(p).body()[0];
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"});
  Cursor moved = q.forward(body);
  ASSERT_TRUE(moved.is_valid());
  EXPECT_EQ(moved.loc(), q.body_cursor()[0].body()[0].body()[0].body()[0].loc());
  EXPECT_EQ(moved.to_string(), "B[4 * io + ii] = A[4 * io + ii] * 2.0");
}

TEST(DivideLoop, ForwardsStatementsAfterTheLoopPastTheTail) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    x = 2.0
)");
  Cursor after = p.body_cursor()[1];
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::Cut});
  EXPECT_EQ(q.forward(after).loc(), q.body_cursor()[2].loc());
  EXPECT_EQ(q.forward(loop0(p)).loc(), q.body_cursor()[0].loc());
}

}  // namespace
