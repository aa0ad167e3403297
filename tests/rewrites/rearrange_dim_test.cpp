// rearrange_dim (rewrites/rearrange_dim.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <regex>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

const char* kGrid = R"(def g(A: f32[2, 3, 4] @ DRAM):
    t: f32[2, 3, 4] @ DRAM
    for a in seq(0, 2):
        for b in seq(0, 3):
            for c in seq(0, 4):
                t[a, b, c] = A[a, b, c]
    for a in seq(0, 2):
        for b in seq(0, 3):
            for c in seq(0, 4):
                A[a, b, c] = t[a, b, c] + 1.0
)";

// ---- strides a layout change must keep (rw::require_layout_observations_kept) -----------------

// A callee that asserts a unit stride, and one that only writes its window.
const char* kUnitCallee = R"(def g(dst: [f32][8] @ DRAM):
    assert stride(dst, 0) == 1
    for k in seq(0, 8):
        dst[k] = 1.0
)";

const char* kPlainCallee = R"(def g(dst: [f32][8] @ DRAM):
    for k in seq(0, 8):
        dst[k] = 2.0
)";

Proc with_callee(const char* callee, const std::string& f) {
  return parse_module(std::string(callee) + "\n" + f).proc("f");
}

const char* kWindowToCallee = R"(def f(B: f32[4, 8] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        g(x[i, 0:8])
    for i in seq(0, 4):
        for j in seq(0, 8):
            B[i, j] = x[i, j]
)";

const char* kStrideInCondition = R"(def f(B: f32[4] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        w = x[i, 0:8]
        if stride(w, 0) == 1:
            B[i] = 1.0
        else:
            B[i] = 2.0
)";

// Exo tests/test_schedules.py::test_pattern_match: "x : _" then "x : _ #1" rearranges both x's; "x
// : R[N1, M1, K1]" only the first, so the results differ.
TEST(RearrangeDim, PatternMatch) {
  Proc foo = parse_proc(R"(def foo(N1: size, M1: size, K1: size, N2: size, M2: size, K2: size):
    x: R[N1, M1, K1]
    x: R[N2, M2, K2]
)");
  Proc res1 = rearrange_dim(foo, "x : _", {2, 1, 0});
  res1 = rearrange_dim(res1, "x : _ #1", {2, 1, 0});
  Proc res2 = rearrange_dim(foo, "x : R[N1, M1, K1]", {2, 1, 0});
  EXPECT_NE(to_string(res1), to_string(res2));
}

// Exo tests/test_schedules.py::test_rearrange_dim: three permutations of a copy buffer.
TEST(RearrangeDim, RearrangeDim) {
  Proc foo = parse_proc(R"(def foo(N: size, M: size, K: size, x: i8[N, M, K] @ DRAM):
    a: i8[N, M, K] @ DRAM
    for n in seq(0, N):
        for m in seq(0, M):
            for k in seq(0, K):
                a[n, m, k] = x[n, m, k]
)");
  Proc q = rearrange_dim(foo, "a : _", {1, 2, 0});
  EXPECT_TRUE(has(q, "a: i8[M, K, N]")) << q;
  EXPECT_TRUE(has(q, "a[m, k, n] = x[n, m, k]")) << q;
  expect_equivalent(foo, q, {{"N", 2}, {"M", 3}, {"K", 4}});

  Proc baz = parse_proc(R"(def baz(N: size, M: size, x: i8[N, M] @ DRAM):
    a: i8[N, M] @ DRAM
    for n in seq(0, N):
        for m in seq(0, M):
            a[n, m] = x[n, m]
)");
  Proc r = rearrange_dim(baz, "a : _", {1, 0});
  EXPECT_TRUE(has(r, "a: i8[M, N]")) << r;
  EXPECT_TRUE(has(r, "a[m, n] = x[n, m]")) << r;
  expect_equivalent(baz, r, {{"N", 2}, {"M", 3}});
}

// Exo tests/test_schedules.py::test_rearrange_dim_fail: [1, 1, 0] is not a permutation.
TEST(RearrangeDim, RearrangeDimFail) {
  Proc foo = parse_proc(R"(def foo(N: size, M: size, K: size, x: i8[N, M, K] @ DRAM):
    a: i8[N, M, K] @ DRAM
    for n in seq(0, N):
        for m in seq(0, M):
            for k in seq(0, K):
                a[n, m, k] = x[n, m, k]
)");
  expect_refused(
      [&] {
        rearrange_dim(foo, "a : _", {1, 1, 0});
      },
      "rearrange_dim", ErrorCode::BadArgument, "arg.invalid", "permutation");
}

// Exo tests/test_schedules.py::test_rearrange_dim_2: a transposing copy, with the stride read
// following the permutation.
TEST(RearrangeDim, RearrangeDim2) {
  Proc foo = parse_proc(R"(def foo():
    a: i8[10, 10] @ DRAM
    for i in seq(0, 10):
        for j in seq(0, 10):
            a[i, j] = a[j, i]
)");
  Proc q = rearrange_dim(foo, "a : _", {1, 0});
  EXPECT_TRUE(has(q, "a[j, i] = a[i, j]")) << q;
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_rearrange_dim_2. Difference (not in
// docs/scheduling/buffers.md): Exo permutes the dimension of a stride passed to a call
// (`bar(stride(a, 1))` -> `bar(stride(a, 0))`); our rearrange_dim refuses a buffer whose stride is
// taken.
TEST(RearrangeDim, RearrangeDimRefusesAStridePassedToACall) {
  Module m = parse_module(R"(def bar(s: stride):
    pass

def foo():
    a: i8[10, 10]
    for i in seq(0, 10):
        for j in seq(0, 10):
            a[i, j] = a[j, i]
            bar(stride(a, 1))
)");
  expect_refused(
      [&] {
        rearrange_dim(m.proc("foo"), "a : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "buffer.layout_use", "stride of 'a'");
}

// Exo tests/test_schedules.py::test_rearrange_dim_fail2: a buffer passed to a call as a window, or
// viewed by a window statement, cannot be permuted.
TEST(RearrangeDim, RearrangeDimRefusesBuffersSeenThroughWindows) {
  Module m = parse_module(R"(def bar(m: size, a: [i8][m, m]):
    a[0, 0] += 1.0

def foo1():
    a: i8[10, 10]
    bar(10, a[0:10, 0:10])

def foo2():
    a: i8[10, 10]
    x = a[0:10, 0:10]
)");
  expect_refused(
      [&] {
        rearrange_dim(m.proc("foo1"), "a : i8[_]", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "buffer.layout_use", "window");
  expect_refused(
      [&] {
        rearrange_dim(m.proc("foo2"), "a : i8[_]", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "buffer.layout_use", "window");
}

TEST(RearrangeDim, PermutesDimensionsAndIndices) {
  Proc p = parse_proc(kGrid);
  Proc q = rearrange_dim(p, p.body_cursor()[0], {2, 0, 1});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(RearrangeDim, RefusesANonPermutation) {
  Proc p = parse_proc(kGrid);
  expect_refused(
      [&] {
        rearrange_dim(p, p.body_cursor()[0], {0, 0, 1});
      },
      "rearrange_dim", ErrorCode::BadArgument, "arg.invalid", "not a permutation");
  expect_refused(
      [&] {
        rearrange_dim(p, p.body_cursor()[0], {1, 0});
      },
      "rearrange_dim", ErrorCode::BadArgument, "arg.invalid", "not a permutation");
}

TEST(RearrangeDim, RefusesTransposingAWindow) {
  Proc p = parse_proc(R"(def f(A: f32[4, 4] @ DRAM):
    t: f32[4, 4] @ DRAM
    w = t[0:4, 0:4]
    for a in seq(0, 4):
        for b in seq(0, 4):
            w[a, b] = A[a, b]
)");
  expect_refused(
      [&] {
        rearrange_dim(p, p.body_cursor()[0], {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "buffer.layout_use", "transposed");
}

TEST(RearrangeDim, ForwardsCursorsToTheRewrittenAccesses) {
  Proc p = parse_proc(kGrid);
  Cursor use = p.body_cursor()[2].body()[0].body()[0].body()[0];
  Proc q = rearrange_dim(p, p.body_cursor()[0], {2, 0, 1});
  EXPECT_EQ(q.forward(use).to_string(), "A[a, b, c] = t[c, a, b] + 1.0");
}

TEST(RearrangeDim, RefusesAWindowWhoseCalleeAssertsItsStride) {
  Proc p = with_callee(kUnitCallee, kWindowToCallee);
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, RefusesChangingAWindowStrideReadInACondition) {
  Proc p = parse_proc(kStrideInCondition);
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, TheRefusalNamesTheStrideAndItsValues) {
  Proc p = parse_proc(kStrideInCondition);
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed",
      "stride(w, 0) (at 'if stride(w, 0) == 1:') keeps its value (1 before the "
      "change, 4 after)");
}

TEST(RearrangeDim, RefusesChangingTheStrideOfAWindowOfAWindow) {
  Proc p = parse_proc(R"(def f(B: f32[4] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        w = x[i, 0:8]
        v = w[2:6]
        B[i] = 0.0
        if stride(v, 0) == 1:
            B[i] = 1.0
)");
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, RefusesAStrideHandedToACalleeAsAValue) {
  Proc p = parse_module(R"(def h(s: stride, y: f32[1] @ DRAM):
    if s == 1:
        y[0] = 1.0

def f(B: f32[4, 1] @ DRAM):
    x: f32[4, 8] @ DRAM
    for i in seq(0, 4):
        w = x[i, 0:8]
        h(stride(w, 0), B[i, 0:1])
)")
               .proc("f");
  expect_refused(
      [&] {
        rearrange_dim(p, "x : _", {1, 0});
      },
      "rearrange_dim", ErrorCode::NotProved, "layout.stride_changed");
}

TEST(RearrangeDim, KeepsAWindowWhoseStrideNobodyObserves) {
  Proc p = with_callee(kPlainCallee, kWindowToCallee);
  Proc q = rearrange_dim(p, "x : _", {1, 0});
  EXPECT_TRUE(has(q, "g(x[0:8, i])")) << q;
  expect_equivalent(p, q);
}

}  // namespace
