// inline_proc: f(args) -> the body of f with the arguments substituted.
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

// Each source defines the callees first; the caller is the last proc.

TEST(InlineProc, SubstitutesSizesAndTensors) {
  Proc p = parse_proc(R"(def scale(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = 2.0 * x[i]

def f(N: size, A: f32[N + 1] @ DRAM, B: f32[N + 1] @ DRAM):
    scale(N + 1, A, B)
)");
  Proc q = inline_proc(p, "scale(_)");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(InlineProc, SubstitutesAnIndexExpressionAndSimplifies) {
  Proc p = parse_proc(R"(def row(r: index, A: f32[8, 4] @ DRAM):
    assert r < 8
    for j in seq(0, 4):
        A[r + 1 - 1, j] = 0.0

def f(A: f32[8, 4] @ DRAM):
    for k in seq(0, 4):
        row(2 * k + 1, A)
)");
  Proc q = inline_proc(p, "row(_)");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(InlineProc, ComposesWindowsWithPointDimensionsAndOffsets) {
  Proc p = parse_proc(R"(def copy2(m: size, dst: [f32][2, m] @ DRAM, src: [f32][2, m] @ DRAM):
    for a in seq(0, 2):
        for b in seq(0, m):
            dst[a, b] = src[a, b]

def f(A: f32[4, 6, 8] @ DRAM, B: f32[8, 4] @ DRAM):
    for k in seq(0, 4):
        copy2(3, A[k, 1:3, 2:5], B[k:k + 2, 1:4])
)");
  Proc q = inline_proc(p, "copy2(_)");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(InlineProc, StrideOfAWindowBecomesTheCallersStride) {
  Proc p = parse_proc(R"(def mark(x: [f32][4] @ DRAM):
    if stride(x, 0) == 1:
        x[0] = 1.0
    else:
        x[0] = 2.0

def f(A: f32[4, 5] @ DRAM):
    mark(A[0:4, 3])
    mark(A[1, 0:4])
)");
  Proc q = inline_proc(inline_proc(p, "mark(_) #0"), "mark(_)");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(InlineProc, WindowsPassedOnToNestedCallsAreComposed) {
  Proc p = parse_proc(R"(def inner(v: [f32][3] @ DRAM):
    for t in seq(0, 3):
        v[t] += 1.0

def outer(x: [f32][2, 3] @ DRAM):
    inner(x[1, 0:3])
    inner(x[0, 0:3])

def f(A: f32[4, 2, 5] @ DRAM):
    for i in seq(0, 4):
        outer(A[i, 0:2, 1:4])
)");
  Proc q = inline_proc(p, "outer(_)");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(InlineProc, RenamesCalleeNamesVisibleAtTheCall) {
  Proc p = parse_proc(R"(def clear(n: size, x: [f32][n] @ DRAM):
    tmp: f32 @ DRAM
    tmp = 0.0
    for i in seq(0, n):
        x[i] = tmp

def f(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        tmp: f32[8] @ DRAM
        clear(8, A[i, 0:8])
)");
  Proc q = inline_proc(p, "clear(_)");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(InlineProc, TwoInlinedCopiesGetTheirOwnSymbols) {
  Proc p = parse_proc(R"(def bump(n: size, x: [f32][n] @ DRAM):
    for i in seq(0, n):
        x[i] += 1.0

def f(A: f32[8] @ DRAM):
    bump(4, A[0:4])
    bump(4, A[4:8])
)");
  Proc q = inline_proc(inline_proc(p, "bump(_) #0"), "bump(_)");
  expect_golden(to_string(q));
  const auto* l0 = q.body()[0].as<ForNode>();
  const auto* l1 = q.body()[1].as<ForNode>();
  ASSERT_TRUE(l0 && l1);
  EXPECT_NE(l0->iter, l1->iter);
  expect_equivalent(p, q);
}

TEST(InlineProc, SubstitutesInTheShapesOfCalleeAllocations) {
  Proc p = parse_proc(R"(def acc(n: size, x: f32[n] @ DRAM):
    t: f32[n] @ DRAM
    for i in seq(0, n):
        t[i] = x[i]
    for i in seq(0, n):
        x[i] = t[i] + t[i]

def f(N: size, A: f32[N] @ DRAM):
    acc(N, A)
)");
  Proc q = inline_proc(p, "acc(_)");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(InlineProc, AScalarArgumentBecomesTheElementPassed) {
  Proc p = parse_proc(R"(def incr(x: f32 @ DRAM):
    x = x + 1.0

def f(A: f32[4, 4] @ DRAM):
    for i in seq(0, 4):
        incr(A[i, 2])
)");
  Proc q = inline_proc(p, "incr(_)");
  EXPECT_EQ(to_string(q.body()), "for i in seq(0, 4):\n    A[i, 2] = A[i, 2] + 1.0\n");
  expect_equivalent(p, q);
}

TEST(InlineProc, ArgumentsPassedOnToNestedCallsAreSubstituted) {
  Proc p = parse_proc(R"(def leaf(n: size, v: [f32][n] @ DRAM):
    for t in seq(0, n):
        v[t] = 0.0

def mid(n: size, x: f32[n, 8] @ DRAM):
    for r in seq(0, n):
        leaf(8, x[r, 0:8])

def f(N: size, A: f32[N, 8] @ DRAM):
    mid(N, A)
)");
  Proc q = inline_proc(p, "mid(_)");
  EXPECT_EQ(to_string(q.body()), "for r in seq(0, N):\n    leaf(8, A[r, 0:8])\n");
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(InlineProc, DropsTheCalleesAsserts) {
  Proc p = parse_proc(R"(def g(n: size, x: [f32][n] @ DRAM):
    assert n >= 2
    x[1] = 0.0

def f(A: f32[8] @ DRAM):
    g(3, A[2:5])
)");
  Proc q = inline_proc(p, "g(_)");
  EXPECT_EQ(to_string(q.body()), "A[3] = 0.0\n");
  expect_equivalent(p, q);
}

TEST(InlineProc, ForwardsTheCallToTheInlinedBlock) {
  Proc p = parse_proc(R"(def two(x: [f32][2] @ DRAM):
    x[0] = 1.0
    x[1] = 2.0

def f(A: f32[2] @ DRAM, B: f32[1] @ DRAM):
    two(A[0:2])
    B[0] = 3.0
)");
  Cursor call = p.body_cursor()[0];
  Cursor after = p.body_cursor()[1];
  Cursor arg = call.args()[0];
  Proc q = inline_proc(p, call);
  Cursor fc = q.forward(call);
  ASSERT_TRUE(fc.is_block());
  EXPECT_EQ(fc.size(), 2);
  EXPECT_EQ(fc[1].to_string(), "A[1] = 2.0");
  EXPECT_EQ(q.forward(after).to_string(), "B[0] = 3.0");
  EXPECT_FALSE(q.forward(arg).is_valid());
  expect_equivalent(p, q);
}

TEST(InlineProc, RefusesAStatementThatIsNotACall) {
  Proc p = parse_proc(R"(def f(A: f32[2] @ DRAM):
    A[0] = 1.0
)");
  expect_refused([&] { inline_proc(p, p.body_cursor()[0]); }, "inline_proc", ErrorCode::BadArgument,
                 "target.wrong_kind");
}

TEST(InlineProc, RefusesAPatternMatchingNothing) {
  Proc p = parse_proc(R"(def f(A: f32[2] @ DRAM):
    A[0] = 1.0
)");
  expect_refused([&] { inline_proc(p, "g(_)"); }, "inline_proc", ErrorCode::NotFound,
                 "target.no_match", "g(_)");
}

// A dense window given for a tensor parameter: the body's accesses are offset into the window.
TEST(InlineProc, DenseWindowForATensorParameter) {
  Proc p = parse_proc(R"(def copy8(dst: f32[8] @ DRAM, src: f32[8] @ DRAM):
    for i in seq(0, 8):
        dst[i] = src[i]

def rows(N: size, A: f32[N, 8] @ DRAM, B: f32[N, 8] @ DRAM):
    for r in seq(0, N):
        copy8(B[r, 0:8], A[r, 0:8])
)");
  Proc q = inline_proc(p, "copy8(_)");
  EXPECT_NE(to_string(q).find("B[r, i] = A[r, i]"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 3}});
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_simple_inline
TEST(InlineProc, SimpleInline) {
  Module m = parse_module(R"(def foo(x: i8, y: i8, z: i8):
    z = x + y

def bar(n: size, src: i8[n], dst: i8[n]):
    for i in seq(0, n):
        tmp_src1: i8
        tmp_src2: i8
        tmp_src1 = src[i]
        tmp_src2 = src[i]
        tmp_dst: i8
        tmp_dst = dst[i]
        foo(tmp_src1, tmp_src2, tmp_dst)
)");
  Proc bar = m.proc("bar");
  Proc q = inline_proc(bar, "foo(_)");
  EXPECT_EQ(to_string(q), R"(def bar(n: size, src: i8[n] @ DRAM, dst: i8[n] @ DRAM):
    for i in seq(0, n):
        tmp_src1: i8 @ DRAM
        tmp_src2: i8 @ DRAM
        tmp_src1 = src[i]
        tmp_src2 = src[i]
        tmp_dst: i8 @ DRAM
        tmp_dst = dst[i]
        tmp_dst = tmp_src1 + tmp_src2
)");
  expect_equivalent(bar, q, {{"n", 5}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(InlineProc, InlineProcRefusesAnArgumentTheCalleeChanges) {  // redteam 08
  Proc p = eval_once_proc(R"(
def g(n: index, A: f32[8] @ DRAM):
    assert 0 <= n and n < 4
    C.k = 5
    A[n] = 1.0

def f(A: f32[8] @ DRAM):
    C.k = 1
    g(C.k, A)
)");
  expect_refused([&] { inline_proc(p, "g(_)"); }, "inline_proc", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.k");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(InlineProc, InlineProcRefusesAWindowArgumentTheCalleeChanges) {
  Proc p = eval_once_proc(R"(
def g(a: [f32][2] @ DRAM):
    C.k = 5
    a[1] = 1.0

def f(A: f32[8] @ DRAM):
    C.k = 1
    g(A[C.k:C.k + 2])
)");
  expect_refused([&] { inline_proc(p, "g(_)"); }, "inline_proc", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.k");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(InlineProc, InlineProcAcceptsArgumentsTheCalleeLeavesAlone) {
  Proc p = eval_once_proc(R"(
def g(n: index, A: f32[8] @ DRAM):
    assert 0 <= n and n < 4
    C.n = 5
    A[n] = 1.0

def f(A: f32[8] @ DRAM):
    C.k = 1
    g(C.k, A)
)");
  Proc q = inline_proc(p, "g(_)");
  expect_equivalent(p, q);
}

}  // namespace
