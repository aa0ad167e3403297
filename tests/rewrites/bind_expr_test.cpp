// bind_expr and inline_window: golden results, refusals with their messages, forwarding and
// interpreter equivalence.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kScale = R"(def scale(N: size, x: f32[N] @ DRAM, a: f32[N] @ DRAM, b: f32[N] @ DRAM):
    for i in seq(0, N):
        a[i] = 32.0 * x[i] + 4.0
        b[i] = 32.0 * x[i] - 1.0
)";

TEST(BindExpr, BindsOneExpression) {
  Proc p = parse_proc(kScale);
  Cursor e = p.body_cursor()[0].body()[0].rhs().child(0);
  Proc q = bind_expr(p, e, "t");
  expect_golden("BindExpr_One", to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(BindExpr, BindsEqualExpressionsInLaterStatements) {
  Proc p = parse_proc(kScale);
  Cursor body = p.body_cursor()[0].body();
  Proc q =
      bind_expr(p, std::vector<CursorLike>{body[0].rhs().child(0), body[1].rhs().child(0)}, "t");
  expect_golden("BindExpr_Two", to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(BindExpr, RefusesDifferentExpressions) {
  Proc p = parse_proc(kScale);
  Cursor body = p.body_cursor()[0].body();
  expect_refused(
      [&] {
        bind_expr(p, std::vector<CursorLike>{body[0].rhs().child(0), body[1].rhs()}, "t");
      },
      "bind_expr", "differs from");
}

// 0.0 and -0.0 are different constants (1.0 / x tells them apart): not one binding.
TEST(BindExpr, RefusesZeroAndNegativeZeroAsOneExpression) {
  Proc p = parse_proc(R"(def f(x: f32[2] @ DRAM, a: f32[2] @ DRAM):
    a[0] = x[0] / 0.0
    a[1] = x[1] / -0.0
)");
  Cursor body = p.body_cursor();
  expect_refused(
      [&] {
        bind_expr(p, std::vector<CursorLike>{body[0].rhs().child(1), body[1].rhs().child(1)}, "t");
      },
      "bind_expr", "differs from");
}

// Literals combined compute in the precision around them (f32 here: 16777217.0 is 16777216):
// a buffer of any precision would hold another value.
TEST(BindExpr, RefusesLiteralsCombined) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM):
    x[0] = x[1] - 16777217.0 * (0.5 + 3.0)
)");
  expect_refused([&] { bind_expr(p, p.body_cursor()[0].rhs().child(1), "t"); }, "bind_expr",
                 "no buffer precision");
}

// The binding of i8 arithmetic is i32 (it is computed in 32-bit int), but relu() of an i8 value
// rounds to i8: the read of the binding must not change the extern's precision.
TEST(BindExpr, RefusesABindingThatChangesAnExternsPrecision) {
  Proc p = parse_proc(R"(def f(x: i8[4] @ DRAM, a: i32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = relu(x[i] * 2)
)");
  expect_refused([&] { bind_expr(p, p.body_cursor()[0].body()[0].rhs().child(0), "t"); },
                 "bind_expr", ErrorCode::NotProved, "precision.context");
}

TEST(BindExpr, RefusesWhenABufferItReadsIsWrittenInBetween) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM, a: f32[N] @ DRAM):
    for i in seq(0, N):
        a[i] = x[i] * 2.0
        x[i] = 0.0
        a[i] += x[i] * 2.0
)");
  Cursor body = p.body_cursor()[0].body();
  expect_refused(
      [&] {
        bind_expr(p, std::vector<CursorLike>{body[0].rhs(), body[2].rhs()}, "t");
      },
      "bind_expr", "leave 'x[i] * 2.0' unchanged");
}

TEST(BindExpr, RefusesAControlExpression) {
  Proc p = parse_proc(kScale);
  Cursor idx = p.body_cursor()[0].body()[0].idx()[0];
  expect_refused([&] { bind_expr(p, idx, "t"); }, "bind_expr", "not a data value");
}

TEST(BindExpr, RefusesANameInUse) {
  Proc p = parse_proc(kScale);
  expect_refused([&] { bind_expr(p, p.body_cursor()[0].body()[0].rhs(), "x"); }, "bind_expr",
                 "already used");
}

TEST(BindExpr, RefusesAStatementTarget) {
  Proc p = parse_proc(kScale);
  expect_refused([&] { bind_expr(p, p.body_cursor()[0], "t"); }, "bind_expr",
                 "expected an expression");
}

TEST(BindExpr, ForwardsStatementsPastTheBinding) {
  Proc p = parse_proc(kScale);
  Cursor s1 = p.body_cursor()[0].body()[1];
  Proc q = bind_expr(p, p.body_cursor()[0].body()[0].rhs().child(0), "t");
  EXPECT_EQ(q.forward(s1).to_string(), "b[i] = 32.0 * x[i] - 1.0");
  EXPECT_EQ(q.forward(p.body_cursor()[0].body()[0]).to_string(), "a[i] = t + 4.0");
}

const char* kWin = R"(def f(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        w = A[i, 2:6]
        for j in seq(0, 4):
            w[j] = w[j] + 1.0
)";

TEST(InlineWindow, ReplacesWindowAccessesByBufferAccesses) {
  Proc p = parse_proc(kWin);
  Proc q = inline_window(p, p.body_cursor()[0].body()[0]);
  expect_golden("InlineWindow_Elements", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(InlineWindow, ComposesWindowsOfTheWindow) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        w = A[i, 2:8]
        v = w[1:5]
        for j in seq(0, 4):
            v[j] = 2.0
)");
  Proc q = inline_window(p, p.body_cursor()[0].body()[0]);
  expect_golden("InlineWindow_Nested", to_string(q));
  expect_equivalent(p, q, {{"N", 2}});
}

TEST(InlineWindow, RefusesAStatementThatIsNotAWindow) {
  Proc p = parse_proc(kWin);
  expect_refused([&] { inline_window(p, p.body_cursor()[0].body()[1]); }, "inline_window",
                 ErrorCode::BadArgument, "target.wrong_kind");
}

TEST(InlineWindow, ForwardsTheFollowingStatementsUpOne) {
  Proc p = parse_proc(kWin);
  Cursor loop = p.body_cursor()[0].body()[1];
  Proc q = inline_window(p, p.body_cursor()[0].body()[0]);
  EXPECT_EQ(q.forward(loop).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_FALSE(q.forward(p.body_cursor()[0].body()[0]).is_valid());
}

// Hoisted, an integer division could divide by zero where the original never ran it: NotProved
// expr.unsafe_to_move.
TEST(BindExpr, HoistingAnIntegerDivisionIsNotProvedExprUnsafeToMove) {
  Proc p = parse_proc(R"(def f(n: size, a: i32[2] @ DRAM, y: i32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = a[0] / a[1]
)");
  expect_refused([&] { bind_expr(p, {p.find("a[0] / a[1]")}, "c", p.find("for i in _: _")); },
                 "bind_expr", ErrorCode::NotProved, "expr.unsafe_to_move");
}

}  // namespace

namespace {

TEST(BindExpr, AcceptsWritesToOtherElementsInBetween) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 1] @ DRAM, a: f32[N] @ DRAM):
    for i in seq(0, N):
        a[i] = x[i] * 2.0
        x[i + 1] = 0.0
        a[i] += x[i] * 2.0
)");
  Cursor body = p.body_cursor()[0].body();
  Proc q = bind_expr(p, std::vector<CursorLike>{body[0].rhs(), body[2].rhs()}, "t");
  expect_golden("BindExpr_DisjointWrite", to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

// Hoisting: a loop-invariant element bound once before the loop.
TEST(BindExpr, HoistsAnInvariantElementBeforeTheLoop) {
  Proc p = parse_proc(R"(def f(n: size, w: f32[3] @ DRAM, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = w[1] * x[i] + w[1]
)");
  Cursor loop = p.find("for i in _: _");
  Proc q = bind_expr(p, {p.find("w[1] #0"), p.find("w[1] #1")}, "c", loop);
  EXPECT_TRUE(has(q, "c = w[1]\n    for i in seq(0, n):")) << q;
  EXPECT_TRUE(has(q, "y[i] = c * x[i] + c")) << q;
  expect_equivalent(p, q, {{"n", 1}});
  expect_equivalent(p, q, {{"n", 5}});
}

// x[4] is read only when the loop runs past i = 4 (n > 4); before the loop it may lie outside x.
TEST(BindExpr, RefusesToHoistAReadThatMayLieOutsideItsBuffer) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        if i > 4:
            y[i] = x[4]
)");
  expect_refused([&] { bind_expr(p, {p.find("x[4]")}, "c", p.find("for i in _: _")); }, "bind_expr",
                 "lies in the buffer where the binding goes");
}

// An integer division hoisted out of a loop that may not run could divide by zero.
TEST(BindExpr, RefusesToHoistAnIntegerDivisionOfData) {
  Proc p = parse_proc(R"(def f(n: size, a: i32[2] @ DRAM, y: i32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = a[0] / a[1]
)");
  expect_refused([&] { bind_expr(p, {p.find("a[0] / a[1]")}, "c", p.find("for i in _: _")); },
                 "bind_expr", "could divide by zero");
}

// A value the loop writes cannot be hoisted above it.
TEST(BindExpr, RefusesToHoistAValueTheLoopWrites) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[0] = y[i]
        y[i] = x[0]
)");
  expect_refused([&] { bind_expr(p, {p.find("y[_] = _").rhs()}, "c", p.find("for i in _: _")); },
                 "bind_expr", "which is written between the binding and its last use");
}

}  // namespace
