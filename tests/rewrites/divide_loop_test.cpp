// Tests of divide_loop: each tail strategy (golden + interpreter equivalence), perfect division
// proved and refused, every argument refusal, and cursor forwarding.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

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
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, CutTail) {
  Proc p = parse_proc(kScale);
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::Cut});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, CutAndGuardTail) {
  Proc p = parse_proc(kScale);
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::CutAndGuard});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, PerfectWhenTheAssertProvesDivisibility) {
  Proc p = parse_proc(kPerfect);
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.perfect = true});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, ConstantBoundIsFolded) {
  Proc p = parse_proc(R"(def f(A: f32[10] @ DRAM):
    for i in seq(0, 10):
        A[i] = 1.0
)");
  Proc q = divide_loop(p, loop0(p), 4, {"io", "ii"}, {.tail = Tail::Cut});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, NestedLoopInsideAnotherLoop) {
  Proc p = parse_proc(R"(def f(N: size, M: size, A: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            A[i, j] = 0.0
)");
  Proc q = divide_loop(p, loop0(p).body()[0], 8, {"jo", "ji"}, {.tail = Tail::Cut});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DivideLoop, RefusesPerfectWhenNotDivisible) {
  Proc p = parse_proc(kScale);
  expect_refused(
      [&] {
        divide_loop(p, loop0(p), 4, {"io", "ii"}, {.perfect = true});
      },
      "divide_loop", ErrorCode::NotProved, "checker.refuted", "is divisible by 4, but");
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
      "divide_loop", ErrorCode::BadArgument, "arg.range",
      "the divisor must be between 1 and 2147483647, got 0");
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
      "divide_loop", ErrorCode::BadArgument, "arg.name", "'N' is already used");
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
      "divide_loop", ErrorCode::BadArgument, "arg.name", "'io' is already used");
}

TEST(DivideLoop, RefusesTwoEqualNames) {
  Proc p = parse_proc(kScale);
  expect_refused(
      [&] {
        divide_loop(p, loop0(p), 4, {"k", "k"});
      },
      "divide_loop", ErrorCode::BadArgument, "arg.name", "must differ");
}

TEST(DivideLoop, RefusesAWrongNumberOfNames) {
  Proc p = parse_proc(kScale);
  expect_refused([&] { divide_loop(p, loop0(p), 4, {"io"}); }, "divide_loop",
                 ErrorCode::BadArgument, "arg.invalid", "expected two new loop names");
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
      "divide_loop", ErrorCode::BadArgument, "target.wrong_kind", "expected a loop");
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

namespace {

// Exo tests/test_schedules.py::test_divide_loop_by_1_cut: dividing by 1 is accepted
// (docs/exo-differences.md). Exo's unsimplified result reads `seq(0, n / 1)` and a tail `seq(0, n %
// 1)`; exocpp's operations simplify the expressions they build (docs/exo-differences.md,
// "Printing").
TEST(DivideLoop, DivideLoopBy1Cut) {
  Proc bar = parse_proc(R"(def bar(n: size):
    for i in seq(0, n):
        pass
)");
  Proc bar1 = divide_loop(bar, bar.find_loop("i"), 1, {"io", "ii"}, {.tail = Tail::Cut});
  Proc bar2 = simplify(bar1);
  EXPECT_EQ(to_string(bar1), R"(def bar(n: size):
    for io in seq(0, n):
        for ii in seq(0, 1):
            pass
    for ii in seq(0, 0):
        pass
)");
  EXPECT_EQ(to_string(bar2), R"(def bar(n: size):
    for io in seq(0, n):
        for ii in seq(0, 1):
            pass
)");
  expect_equivalent(bar, bar1, {{"n", 1}});
  expect_equivalent(bar, bar2, {{"n", 5}});
}

// Exo tests/test_schedules.py::test_divide_loop_fail_nonzero_lo. Exo: "expected the lower bound of
// the loop to be zero".
TEST(DivideLoop, DivideLoopFailsOnANonzeroLo) {
  Proc bar = parse_proc(R"(def bar():
    for i in seq(1, 8):
        pass
)");
  expect_refused(
      [&] {
        divide_loop(bar, "i", 4, {"io", "ii"}, {.tail = Tail::Guard});
      },
      "divide_loop", ErrorCode::NotProved, "loop.lower_bound_not_zero",
      "expected the lower bound of loop i to be 0, got '1'");
}

// Exo tests/test_schedules.py::test_divide_loop_perfect
TEST(DivideLoop, DivideLoopPerfect) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n]):
    assert n % 4 == 0
    for i in seq(0, n):
        A[i] = 1.0
)");
  Proc q = divide_loop(foo, "i", 4, {"io", "ii"}, {.perfect = true});
  EXPECT_EQ(to_string(q), R"(def foo(n: size, A: i8[n] @ DRAM):
    assert n % 4 == 0
    for io in seq(0, n / 4):
        for ii in seq(0, 4):
            A[4 * io + ii] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}});
  expect_equivalent(foo, q, {{"n", 12}});
}

// Exo tests/test_schedules.py::test_divide_loop_perfect3
TEST(DivideLoop, DivideLoopPerfect3) {
  Proc foo = parse_proc(R"(def foo(m: size, n: size, A: R[m, n]):
    assert n % 4 == 0 and m % 8 == 0
    for i in seq(0, m):
        for j in seq(0, n):
            A[i, j] = 0.2
)");
  Proc q = divide_loop(foo, "i", 8, {"io", "ii"}, {.perfect = true});
  q = divide_loop(q, "j", 4, {"jo", "ji"}, {.perfect = true});
  q = simplify(q);
  EXPECT_EQ(to_string(q), R"(def foo(m: size, n: size, A: R[m, n] @ DRAM):
    assert n % 4 == 0 and m % 8 == 0
    for io in seq(0, m / 8):
        for ii in seq(0, 8):
            for jo in seq(0, n / 4):
                for ji in seq(0, 4):
                    A[ii + 8 * io, ji + 4 * jo] = 0.2
)");
  expect_equivalent(foo, q, {{"m", 8}, {"n", 4}});
  expect_equivalent(foo, q, {{"m", 16}, {"n", 12}});
}

// Exo tests/test_schedules.py::test_divide_loop_perfect_fail: n % 6 == 0 does not make n divisible
// by 4. Exo: "cannot perfectly divide".
TEST(DivideLoop, DivideLoopPerfectFail) {
  Proc foo = parse_proc(R"(def foo(n: size, A: i8[n]):
    assert n % 6 == 0
    for i in seq(0, n):
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_loop(foo, "i", 4, {"io", "ii"}, {.perfect = true});
      },
      "divide_loop", ErrorCode::NotProved, "checker.refuted", "the bound 'n' is divisible by 4");
}

// Exo tests/test_schedules.py::test_simple_divide_loop: the guard tail.
TEST(DivideLoop, SimpleDivideLoop) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n]):
    tmp: i8[n]
    for i in seq(0, n):
        tmp[i] = A[i]
)");
  Proc q = divide_loop(bar, "i", 4, {"io", "ii"}, {.tail = Tail::Guard});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM):
    tmp: i8[n] @ DRAM
    for io in seq(0, (n + 3) / 4):
        for ii in seq(0, 4):
            if 4 * io + ii < n:
                tmp[4 * io + ii] = A[4 * io + ii]
)");
  expect_equivalent(bar, q, {{"n", 1}});
  expect_equivalent(bar, q, {{"n", 7}});
}

// Exo tests/test_schedules.py::test_divide_loop_cut_and_guard: a loop whose body passes a window to
// a call.
TEST(DivideLoop, DivideLoopCutAndGuardWithAWindowPassedToACall) {
  // Exo declares this parameter a tensor and passes it a window; our type checker asks for a
  // window parameter (core/typecheck_calls.cpp), so it is declared [i8][...] here.
  Module m = parse_module(R"(def foo(x: [i8][1]):
    pass

def bar(n: size, A: i8[n]):
    tmp: i8[n]
    for i in seq(0, n):
        tmp[i] = A[i]
        foo(tmp[i:i + 1])
)");
  Proc bar = m.proc("bar");
  Proc q = divide_loop(bar, "i", 4, {"io", "ii"}, {.tail = Tail::CutAndGuard});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM):
    tmp: i8[n] @ DRAM
    for io in seq(0, n / 4):
        for ii in seq(0, 4):
            tmp[4 * io + ii] = A[4 * io + ii]
            foo(tmp[4 * io + ii:4 * io + ii + 1])
    if n % 4 > 0:
        for ii in seq(0, n % 4):
            tmp[4 * (n / 4) + ii] = A[4 * (n / 4) + ii]
            foo(tmp[4 * (n / 4) + ii:4 * (n / 4) + ii + 1])
)");
  expect_equivalent(bar, q, {{"n", 7}});
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(DivideLoop, DivideLoopCutRefusesAPossiblyNegativeRange) {  // redteam 01
  Proc p = parse_proc(kMaybeNegativeRange);
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Cut});
      },
      "divide_loop", ErrorCode::NotProved, "checker.refuted", "is not negative");
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(DivideLoop, DivideLoopCutAndGuardRefusesAPossiblyNegativeRange) {
  Proc p = parse_proc(kMaybeNegativeRange);
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::CutAndGuard});
      },
      "divide_loop", ErrorCode::NotProved, "checker.refuted", "counterexample: N = ");
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(DivideLoop, DivideLoopCutAcceptsAProvedNonNegativeRange) {
  Proc p = parse_proc(kNonNegativeRange);
  Proc q = divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Cut});
  for (int64_t n : {8, 9, 12, 15}) expect_equivalent(p, q, {{"N", n}});
}

// Trust (bounds): a loop operation proves what it assumes about its bounds.
TEST(DivideLoop, DivideLoopGuardAcceptsANegativeRange) {
  // (N - 8 + 3) / 4 iterations of the outer loop, all guarded: none for N < 8.
  Proc p = parse_proc(kMaybeNegativeRange);
  Proc q = divide_loop(p, "i", 4, {"io", "ii"});
  for (int64_t n : {1, 5, 8, 9, 13}) expect_equivalent(p, q, {{"N", n}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(DivideLoop, DivideLoopGuardRereadsAConfigBoundTheBodyWrites) {  // redteam 03
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 2
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"});
      },
      "divide_loop", ErrorCode::NotProved, "checker.value_changed", kEvalOncePhrase);
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"});
      },
      "divide_loop", ErrorCode::NotProved, "checker.value_changed", "writes C.n");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(DivideLoop, DivideLoopTailRereadsAConfigBoundTheBodyWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.n = 7
    for i in seq(0, C.n):
        C.n = 2
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Cut});
      },
      "divide_loop", ErrorCode::NotProved, "checker.value_changed", "tail loop");
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::CutAndGuard});
      },
      "divide_loop", ErrorCode::NotProved, "checker.value_changed", kEvalOncePhrase);
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(DivideLoop, DivideLoopAcceptsAConfigBoundNobodyWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM):
    C.n = 7
    for i in seq(0, C.n):
        A[i] = 1.0
)");
  Proc q = divide_loop(p, "i", 4, {"io", "ii"});
  expect_equivalent(p, q);
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(DivideLoop, DivideLoopRefusesBadNames) {
  Proc p = parse_proc(kNamesSrc);
  expect_all_refused("divide_loop", [&](const std::string& n) {
    divide_loop(p, "i", 2, {n, "ii"});
  });
  expect_all_refused("divide_loop", [&](const std::string& n) {
    divide_loop(p, "i", 2, {"io", n});
  });
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(DivideLoop, DivideLoopRefusalQuotesTheName) {
  Proc p = parse_proc(kNamesSrc);
  expect_refused(
      [&] {
        divide_loop(p, "i", 2, {"for", "a b"});
      },
      "divide_loop", ErrorCode::BadArgument, "arg.name", "'for' is not a valid new name");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(DivideLoop, NewVariableNamedLikeAConfigIsRefused) {
  Proc p = parse_module(R"(
config Cfg:
    scale: f32

def h(A: f32[4] @ DRAM):
    for i in seq(0, 4):
        A[i] = Cfg.scale
)")
               .proc("h");
  expect_refused(
      [&] {
        divide_loop(p, "i", 2, {"Cfg", "ii"});
      },
      "divide_loop", ErrorCode::BadArgument, "arg.name", "uses a config of that name");
}

}  // namespace
