// expand_dim (rewrites/expand_dim.cpp): its results, its refusals and the interpreter equivalence
// of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <regex>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

// Exo tests/test_schedules.py::test_expand_dim1_bad_scope: the index names i, which is not in scope
// at the allocation. Exo raises a ParseFragmentError ("i not found in"); ours is expand_dim's
// refusal.
TEST(ExpandDim, ExpandDim1BadScope) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8):
    a: i8
    for i in seq(0, n):
        for j in seq(0, m):
            x = a
)");
  expect_refused([&] { expand_dim(foo, "a : i8", "n", "i"); }, "expand_dim", ErrorCode::BadArgument,
                 "arg.parse_or_type", "undefined variable 'i'");
}

// Exo tests/test_schedules.py::test_expand_dim2_bad_scope: k is bound only in a later loop (Exo: "k
// not found in").
TEST(ExpandDim, ExpandDim2BadScope) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8):
    for i in seq(0, n):
        a: i8
        for j in seq(0, m):
            x = a
    for i in seq(0, n):
        for k in seq(0, m):
            pass
)");
  expect_refused([&] { expand_dim(foo, "a : i8", "n", "k"); }, "expand_dim", ErrorCode::BadArgument,
                 "arg.parse_or_type", "undefined variable 'k'");
}

// Exo tests/test_schedules.py::test_expand_dim3: the i in scope at the allocation is the second
// loop's. Exo's golden is the C code (a = malloc(n), *x = a[i]); this is the same proc as we print
// it.
TEST(ExpandDim, ExpandDim3) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8):
    for i in seq(0, n):
        for j in seq(0, m):
            pass
    for i in seq(0, n):
        a: i8
        for j in seq(0, m):
            x = a
    for i in seq(0, n):
        for j in seq(0, m):
            pass
)");
  Proc q = expand_dim(foo, "a : i8", "n", "i");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: i8 @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            pass
    for i in seq(0, n):
        a: i8[n] @ DRAM
        for j in seq(0, m):
            x = a[i]
    for i in seq(0, n):
        for j in seq(0, m):
            pass
)");
  expect_equivalent(foo, q, {{"n", 2}, {"m", 3}});
  expect_equivalent(foo, q, {{"n", 3}, {"m", 1}});
}

// Exo tests/test_schedules.py::test_expand_dim5: a scalar in a loop becomes one entry per
// iteration.
TEST(ExpandDim, ExpandDim5) {
  Proc foo = parse_proc(R"(def foo(n: size, x: i8 @ DRAM):
    for i in seq(0, n):
        a: i8 @ DRAM
        a = x
)");
  Proc q = expand_dim(foo, "a : _", "n", "i");
  EXPECT_TRUE(has(q, "a: i8[n]")) << q;
  EXPECT_TRUE(has(q, "a[i] = x")) << q;
  expect_equivalent(foo, q, {{"n", 3}});
}

// Exo tests/test_schedules.py::test_expand_dim_bad_scope: i is not in scope at a's allocation.
TEST(ExpandDim, ExpandDimBadScope) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8 @ DRAM):
    a: i8 @ DRAM
    for i in seq(0, n):
        for j in seq(0, m):
            x = a
)");
  EXPECT_ANY_THROW(expand_dim(foo, "a : _", "n", "i"));
}

// Exo tests/test_schedules.py::test_expand_dim4: the accepted and refused dimension / index pairs.
TEST(ExpandDim, ExpandDim4) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: i8 @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            pass
    for q in seq(0, 30):
        for i in seq(0, n):
            for j in seq(0, m):
                a: i8 @ DRAM
                x = a
    for i in seq(0, n):
        for j in seq(0, m):
            pass
)");
  EXPECT_ANY_THROW(expand_dim(foo, "a : _", "10 - 20", "10"));  // negative size
  EXPECT_ANY_THROW(expand_dim(foo, "a : _", "n - m", "i"));     // may be out of bounds
  EXPECT_ANY_THROW(expand_dim(foo, "a : _", "hoge", "i"));      // no such name
  EXPECT_ANY_THROW(expand_dim(foo, "a : _", "n", "i - j"));     // may be negative
  std::map<std::string, int64_t> sizes{{"n", 3}, {"m", 2}};
  Proc q1 = expand_dim(foo, "a : _", "n", "i");
  EXPECT_TRUE(has(q1, "a: i8[n]")) << q1;
  EXPECT_TRUE(has(q1, "x = a[i]")) << q1;
  expect_equivalent(foo, q1, sizes);
  Proc q2 = expand_dim(foo, "a : _", "40 + 1", "10");
  EXPECT_TRUE(has(q2, "x = a[10]")) << q2;
  expect_equivalent(foo, q2, sizes);
  Proc q3 = expand_dim(foo, "a : _", "n + m", "i");
  EXPECT_TRUE(has(q3, "a: i8[n + m]")) << q3;
  expect_equivalent(foo, q3, sizes);
  Proc q4 = expand_dim(foo, "a : _", "n", "n - 1");
  EXPECT_TRUE(has(q4, "x = a[n - 1]")) << q4;
  expect_equivalent(foo, q4, sizes);
}

// Exo tests/test_schedules.py::test_new_expr_multi_vars: the index i is the loop's, not the later
// allocation `i: R`.
TEST(ExpandDim, NewExprMultiVars) {
  Proc bar = parse_proc(R"(def bar(n: size, arr: R[n] @ DRAM):
    for i in seq(0, n):
        tmp: R @ DRAM
        tmp = 1.0
        arr[i] = tmp
    i: R @ DRAM
    i = 1.0
)");
  Proc q = expand_dim(bar, "tmp : _", "n", "i");
  EXPECT_EQ(to_string(q), R"(def bar(n: size, arr: R[n] @ DRAM):
    for i in seq(0, n):
        tmp: R[n] @ DRAM
        tmp[i] = 1.0
        arr[i] = tmp[i]
    i: R @ DRAM
    i = 1.0
)");
  expect_equivalent(bar, q, {{"n", 1}});
  expect_equivalent(bar, q, {{"n", 4}});
}

// Exo tests/test_schedules.py::test_expand_dim6: accesses and a window passed to a call get the new
// index.
TEST(ExpandDim, ExpandDimWithAWindowPassedToACall) {
  // Exo declares this parameter a tensor and passes it a window; our type checker asks for a
  // window parameter (core/typecheck_calls.cpp), so it is declared [i8][...] here.
  Module m = parse_module(R"(def bar(m: size, a: [i8][m]):
    a[0] += 1.0

def foo(n: size, m: size, x: i8):
    for i in seq(0, n):
        for j in seq(0, m):
            a: i8[m]
            a[j] = a[j] + 1.0
            a[j] += 1.0
            bar(m, a[0:m])
)");
  Proc foo = m.proc("foo");
  Proc q = expand_dim(foo, "a : _", "n", "i");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: i8 @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            a: i8[n, m] @ DRAM
            a[i, j] = a[i, j] + 1.0
            a[i, j] += 1.0
            bar(m, a[i, 0:m])
)");
  expect_equivalent(foo, q, {{"n", 2}, {"m", 3}});
}

// Exo tests/test_schedules.py::test_expand_dim7: the whole buffer passed to a tensor parameter
// cannot take a new dimension (it would have to become a window of the new buffer).
TEST(ExpandDim, ExpandDimRefusesAWholeBufferPassedToACall) {
  Module m = parse_module(R"(def bar(m: size, a: i8[m]):
    a[0] += 1.0

def foo(n: size, m: size, x: i8):
    for i in seq(0, n):
        for j in seq(0, m):
            a: i8[m]
            a[j] = a[j] + 1.0
            bar(m, a)
)");
  expect_refused([&] { expand_dim(m.proc("foo"), "a : _", "n", "i"); }, "expand_dim",
                 ErrorCode::NotProved, "buffer.layout_use", "passed whole to a call");
}

TEST(ExpandDim, AddsALeadingDimensionIndexedByTheLoop) {
  Proc p = parse_proc(kTmpRows);
  Proc q = expand_dim(p, tmp_alloc(p), "N", "i");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(ExpandDim, RefusesAnIndexOutOfRange) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "N", "i + 1"); }, "expand_dim",
                 ErrorCode::NotProved, "checker.refuted", "is in [0, N)");
}

TEST(ExpandDim, RefusesANonPositiveSize) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "N - N", "0"); }, "expand_dim",
                 ErrorCode::NotProved, "checker.refuted", "is positive");
}

TEST(ExpandDim, RefusesASizeDependingOnALoopVariable) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "i + 1", "0"); }, "expand_dim",
                 ErrorCode::NotProved, "alloc.size",
                 "must be built from size arguments and constants, but it uses 'i'");
}

TEST(ExpandDim, RefusesAnArgument) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { expand_dim(p, p.arg_cursors()[1], "4", "0"); }, "expand_dim",
                 ErrorCode::BadArgument, "target.wrong_kind", "is an argument");
}

TEST(ExpandDim, RefusesANameOutOfScope) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { expand_dim(p, tmp_alloc(p), "4", "k"); }, "expand_dim",
                 ErrorCode::BadArgument, "arg.parse_or_type", "k");
}

TEST(ExpandDim, KeepsCursorsInPlace) {
  Proc p = parse_proc(kTmpRows);
  Cursor loop = p.body_cursor()[0].body()[2];
  Proc q = expand_dim(p, tmp_alloc(p), "N", "i");
  EXPECT_EQ(q.forward(loop).loc(), loop.loc());
  EXPECT_EQ(q.forward(loop.body()[0]).to_string(), "B[i, k] = t[i, k]");
}

// A buffer name with an underscore is a name, not a pattern with a `_` wildcard.
TEST(ExpandDim, NameWithUnderscoreIsABufferName) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        t_reg: f32[4] @ DRAM
        for k in seq(0, 4):
            t_reg[k] = A[i, k]
        for k in seq(0, 4):
            A[i, k] = t_reg[k] + 1.0
)");
  Proc q = expand_dim(p, "t_reg", "N", "i");
  EXPECT_NE(to_string(q).find("t_reg: f32[N, 4] @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(ExpandDim, AStrideOfTheBufferKeepsItsValue) {
  Proc p = parse_proc(R"(def f(B: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for i in seq(0, 4):
        x[i] = 1.0
        if stride(x, 0) == 1:
            x[i] = 2.0
    for i in seq(0, 4):
        B[i] = x[i]
)");
  Proc q = expand_dim(p, "x : _", "3", "1");
  EXPECT_TRUE(has(q, "stride(x, 1) == 1")) << q;
  expect_equivalent(p, q);
}

}  // namespace
