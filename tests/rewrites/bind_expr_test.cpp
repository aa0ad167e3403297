// bind_expr and inline_window: golden results, refusals with their messages, forwarding and
// interpreter equivalence.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "config_test_lib.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

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
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(BindExpr, BindsEqualExpressionsInLaterStatements) {
  Proc p = parse_proc(kScale);
  Cursor body = p.body_cursor()[0].body();
  Proc q =
      bind_expr(p, std::vector<CursorLike>{body[0].rhs().child(0), body[1].rhs().child(0)}, "t");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(BindExpr, RefusesDifferentExpressions) {
  Proc p = parse_proc(kScale);
  Cursor body = p.body_cursor()[0].body();
  expect_refused(
      [&] {
        bind_expr(p, std::vector<CursorLike>{body[0].rhs().child(0), body[1].rhs()}, "t");
      },
      "bind_expr", ErrorCode::BadArgument, "arg.invalid", "differs from");
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
      "bind_expr", ErrorCode::BadArgument, "arg.invalid", "differs from");
}

// Literals combined compute in the precision around them (f32 here: 16777217.0 is 16777216):
// a buffer of any precision would hold another value.
TEST(BindExpr, RefusesLiteralsCombined) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM):
    x[0] = x[1] - 16777217.0 * (0.5 + 3.0)
)");
  expect_refused([&] { bind_expr(p, p.body_cursor()[0].rhs().child(1), "t"); }, "bind_expr",
                 ErrorCode::NotProved, "precision.store", "no buffer precision");
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
      "bind_expr", ErrorCode::NotProved, "checker.refuted", "leave 'x[i] * 2.0' unchanged");
}

TEST(BindExpr, RefusesAControlExpression) {
  Proc p = parse_proc(kScale);
  Cursor idx = p.body_cursor()[0].body()[0].idx()[0];
  expect_refused([&] { bind_expr(p, idx, "t"); }, "bind_expr", ErrorCode::BadArgument,
                 "target.wrong_kind", "not a data value");
}

TEST(BindExpr, RefusesANameInUse) {
  Proc p = parse_proc(kScale);
  expect_refused([&] { bind_expr(p, p.body_cursor()[0].body()[0].rhs(), "x"); }, "bind_expr",
                 ErrorCode::BadArgument, "arg.name", "already used");
}

TEST(BindExpr, RefusesAStatementTarget) {
  Proc p = parse_proc(kScale);
  expect_refused([&] { bind_expr(p, p.body_cursor()[0], "t"); }, "bind_expr",
                 ErrorCode::BadArgument, "target.wrong_kind", "expected an expression");
}

TEST(BindExpr, ForwardsStatementsPastTheBinding) {
  Proc p = parse_proc(kScale);
  Cursor s1 = p.body_cursor()[0].body()[1];
  Proc q = bind_expr(p, p.body_cursor()[0].body()[0].rhs().child(0), "t");
  EXPECT_EQ(q.forward(s1).to_string(), "b[i] = 32.0 * x[i] - 1.0");
  EXPECT_EQ(q.forward(p.body_cursor()[0].body()[0]).to_string(), "a[i] = t + 4.0");
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
  expect_golden(to_string(q));
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
                 ErrorCode::NotProved, "expr.unsafe_to_move",
                 "lies in the buffer where the binding goes");
}

// An integer division hoisted out of a loop that may not run could divide by zero.
TEST(BindExpr, RefusesToHoistAnIntegerDivisionOfData) {
  Proc p = parse_proc(R"(def f(n: size, a: i32[2] @ DRAM, y: i32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = a[0] / a[1]
)");
  expect_refused([&] { bind_expr(p, {p.find("a[0] / a[1]")}, "c", p.find("for i in _: _")); },
                 "bind_expr", ErrorCode::NotProved, "expr.unsafe_to_move", "could divide by zero");
}

// A value the loop writes cannot be hoisted above it.
TEST(BindExpr, RefusesToHoistAValueTheLoopWrites) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[0] = y[i]
        y[i] = x[0]
)");
  expect_refused([&] { bind_expr(p, {p.find("y[_] = _").rhs()}, "c", p.find("for i in _: _")); },
                 "bind_expr", ErrorCode::NotProved, "dep.read_written",
                 "which is written between the binding and its last use");
}

}  // namespace

namespace {

const char* kI8Wrap = R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 / 2
)";

// Exo tests/test_schedules.py::test_simple_bind_expr: x[i] + y[i] bound to a new scalar z_tmp.
TEST(BindExpr, SimpleBindExpr) {
  Proc bar = parse_proc(R"(def bar(n: size, x: i8[n] @ DRAM, y: i8[n] @ DRAM, z: i8[n] @ DRAM):
    for i in seq(0, n):
        z[i] = x[i] + y[i]
)");
  Proc q = bind_expr(bar, "x[_] + y[_]", "z_tmp");
  EXPECT_TRUE(has(q, "z_tmp = x[i] + y[i]")) << q;
  EXPECT_TRUE(has(q, "z[i] = z_tmp")) << q;
  expect_equivalent(bar, q, {{"n", 4}});
}

// Exo tests/test_schedules.py::test_bind_lhs: with cse, every read of inp[...] / out[...] in the
// body is bound.
TEST(BindExpr, BindLhs) {
  Proc p = parse_proc(R"(def myfunc_cpu(inp: i32[1, 1, 16] @ DRAM, out: i32[1, 1, 16] @ DRAM):
    for ii in seq(0, 1):
        for jj in seq(0, 1):
            for kk in seq(0, 16):
                out[ii, jj, kk] = out[ii, jj, kk] + inp[ii, jj, kk]
                out[ii, jj, kk] = out[ii, jj, kk] * inp[ii, jj, kk]
)");
  Proc q = bind_expr(p, "inp[_]", "inp_ram");
  EXPECT_TRUE(has(q, "inp_ram = inp[ii, jj, kk]")) << q;
  expect_equivalent(p, q);
}

// Exo tests/test_schedules.py::test_bind_expr_cse_2: one constant in two loops is bound once,
// before the first loop (the innermost list holding both). Exo's golden types the temporary R;
// exocpp gives it the literal's own precision (docs/exo-differences.md).
TEST(BindExpr, BindExprAcrossTwoLoops) {
  Proc foo = parse_proc(R"(def foo(x: i8[5] @ DRAM, y: i8[5] @ DRAM):
    for i in seq(0, 5):
        x[i] = 2.0
    for i in seq(0, 5):
        y[i] = 2.0
)");
  std::vector<CursorLike> twos;
  for (const Cursor& c : foo.find_all("2.0")) twos.push_back(c);
  Proc q = bind_expr(foo, twos, "two");
  std::string text = to_string(q);
  EXPECT_LT(text.find("two = 2.0"), text.find("for i")) << q;
  EXPECT_TRUE(has(q, "x[i] = two")) << q;
  EXPECT_TRUE(has(q, "y[i] = two")) << q;
  expect_equivalent(foo, q);
}

// Ported from Exo tests/test_schedules.py.
// Hoisted across lists, the binding still needs the value unchanged up to its last use.
TEST(BindExpr, BindExprAcrossLoopsRefusesAValueWrittenBetween) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, x: f32[5] @ DRAM, y: f32[5] @ DRAM):
    for i in seq(0, 5):
        x[i] = 2.0 * a
    a = 1.0
    for i in seq(0, 5):
        y[i] = 2.0 * a
)");
  std::vector<CursorLike> both;
  for (const Cursor& c : foo.find_all("2.0 * a")) both.push_back(c);
  EXPECT_THROW(bind_expr(foo, both, "t"), SchedulingError);
}

// Exo tests/test_schedules.py::test_bind_cursor_arg: binding the constant 1.0.
TEST(BindExpr, BindCursorArg) {
  Proc foo = parse_proc(R"(def foo(a: R):
    a = 1.0
)");
  Proc q = bind_expr(foo, foo.find("1.0"), "const");
  EXPECT_EQ(to_string(q), R"(def foo(a: R @ DRAM):
    const: R @ DRAM
    const = 1.0
    a = const
)");
  expect_equivalent(foo, q);
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(BindExpr, BindExprRefusesBadNames) {
  Proc p = parse_proc(kNamesSrc);
  expect_all_refused("bind_expr",
                     [&](const std::string& n) { bind_expr(p, p.find("A[_] = _").rhs(), n); });
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(BindExpr, NewVariableNamedLikeACalleeIsRefused) {
  Proc p = parse_module(kNamesCaller).proc("top");
  expect_refused([&] { bind_expr(p, p.find("A[_] = _").rhs(), "leaf"); }, "bind_expr",
                 ErrorCode::BadArgument, "arg.name", "calls a proc of that name");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
// Redteam 05: binding `x[i] * 2` (computed in 32-bit int) into an i8 temporary wrapped it.
TEST(BindExpr, BindExprIntegerArithmeticGetsI32Temporary) {
  Proc p = parse_proc(kI8Wrap);
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(BindExpr, BindExprReadKeepsItsOwnType) {
  Proc p = parse_proc(kI8Wrap);
  Proc q = bind_expr(p, p.find("x[_]"), "t");
  EXPECT_NE(to_string(q).find("t: i8 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
// `x[i] * 2` reaches the i8 store only through a sum: the store keeps the result modulo 2^8,
// which the i8 temporary's wrap does not change, so the temporary stays i8.
TEST(BindExpr, BindExprWrapsIntoAStoreNoWiderThanItsType) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, y: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 + y[i]
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i8 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
  expect_equivalent(p, q, {}, near_limits(-128, 127));
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
// Halide's uint16 sums: `(a + b) + c` stored into ui16, `a + b` bound into ui16.
TEST(BindExpr, BindExprKeepsAWrappingUnsignedSumInItsType) {
  Proc p = parse_proc(R"(
def f(x: ui16[4] @ DRAM, a: ui16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] + x[3 - i] - x[i] * x[i]
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: ui16 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits(40000, 65535));
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
// Into an i32 store the i8 wrap would change the result: the temporary is i32.
TEST(BindExpr, BindExprIntoAWiderStoreKeepsTheValue) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, y: i8[4] @ DRAM, a: i32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 + y[i]
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
// Under a division the operand's high bits matter: the temporary is i32.
TEST(BindExpr, BindExprUnderADivisionKeepsTheValue) {
  Proc p = parse_proc(R"(
def f(x: ui16[4] @ DRAM, a: ui16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = (x[i] + x[i]) / 3
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits(40000, 65535));
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(BindExpr, BindExprUnsignedArithmeticGetsI32) {
  Proc p = parse_proc(R"(
def f(x: ui8[4] @ DRAM, a: ui16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = (x[i] + x[i]) / 3
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  expect_equivalent(p, q, {}, near_limits(100, 250));
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(BindExpr, BindExprFloatKeepsType) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, a: f32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 3.0 + 1.0
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: f32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q);
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(BindExpr, BindExprRefusesInexactLiteral) {
  Proc p = parse_proc(R"(
def f(x: f16[4] @ DRAM, a: f16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 0.1
)");
  expect_refused([&] { return bind_expr(p, p.find("a[_] = _").rhs().child(1), "t"); },
                 "no buffer precision");
}

// Trust (well-formed): every accepted result passes the front end.
// bind_expr of the same buffer argument: refused for the same reason.
TEST(BindExpr, BindExprRefusesACallsBufferArgument) {
  Module m = parse_module(kCallWritesScalar);
  Proc p = m.proc("f");
  Cursor arg = p.find("sub(_)").args()[0];
  expect_refused([&] { bind_expr(p, arg, "t"); }, "bind_expr", ErrorCode::BadArgument,
                 "target.wrong_kind", "is a buffer argument of the call");
}

}  // namespace
