// Ports of Exo's rewrite_expr, partial_eval, specialize, reorder_stmts and related cases of
// tests/test_schedules.py (the statement cases are in exo_exprs_port_test.cpp). Each test names the
// Exo case it ports; the expected text is Exo's golden in our printer's layout, or, where we
// deliberately differ, our result with the reason.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// test_rewrite_expr: n % 4 is 2 under the assert, so the bound is 6 either way.
TEST(ExoExprsPort, RewriteExpr) {
  Proc foo = parse_proc(R"(def foo(n: size):
    assert n % 4 == 2
    for i in seq(0, 4 + n % 4):
        pass
)");
  const char* golden = R"(def foo(n: size):
    assert n % 4 == 2
    for i in seq(0, 6):
        pass
)";
  Proc q = rewrite_expr(foo, "n % 4", "2");
  EXPECT_EQ(to_string(simplify(q)), golden);
  Proc q2 = rewrite_expr(foo, "4 + n % 4", "6");
  EXPECT_EQ(to_string(q2), golden);
  expect_equivalent(foo, q, {{"n", 2}});
  expect_equivalent(foo, q2, {{"n", 6}});
}

// test_rewrite_expr_2. Exo's golden is the simplified proc with the bound `n - n / 4 * 4`, which
// is what rewrite_expr gives here; our simplify prints `X - k * (X / k)` as `X % k`
// (docs/exo-differences.md, divide_with_recompute's inner bound), so after it the bound reads
// `n % 4` again.
TEST(ExoExprsPort, RewriteExpr2) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0, n % 4):
        pass
)");
  Proc q = rewrite_expr(foo, "n % 4", "n - n/4 * 4");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    for i in seq(0, n - n / 4 * 4):
        pass
)");
  EXPECT_EQ(to_string(simplify(q)), R"(def foo(n: size):
    for i in seq(0, n % 4):
        pass
)");
  expect_equivalent(foo, q, {{"n", 3}});
  expect_equivalent(foo, q, {{"n", 9}});
}

// test_rewrite_expr_fail: n + n % 4 differs from n. Exo: "Expressions are not equivalent:".
TEST(ExoExprsPort, RewriteExprFail) {
  Proc foo = parse_proc(R"(def foo(n: size):
    for i in seq(0, n):
        pass
)");
  expect_refused([&] { rewrite_expr(foo, "n", "n + n%4"); }, "rewrite_expr",
                 "requires that 'n' == 'n + n % 4', but `n == n + n % 4` does not always hold");
}

// test_commute2: `y[0] + x[1]` is no subexpression of x[0] + y[0] + x[1] + y[1] (it parses as
// ((x[0] + y[0]) + x[1]) + y[1]). Exo: "failed to find matches".
TEST(ExoExprsPort, Commute2FindsNoMatch) {
  Proc foo = parse_proc(R"(def foo(x: R[3], y: R[3], z: R):
    z = x[0] + y[0] + x[1] + y[1]
)");
  expect_refused([&] { commute_expr(foo, {"y[0] + x[1]"}); }, "commute_expr",
                 "no match for pattern 'y[0] + x[1]'");
}

// test_bind_cursor_arg: binding the constant 1.0.
TEST(ExoExprsPort, BindCursorArg) {
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

// test_simple_partial_eval: n fixed to 10.
TEST(ExoExprsPort, SimplePartialEval) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n]):
    tmp: i8[n]
    for i in seq(0, n):
        tmp[i] = A[i]
)");
  Proc q = partial_eval(bar, {{"n", 10}});
  EXPECT_EQ(to_string(q), R"(def bar(A: i8[10] @ DRAM):
    tmp: i8[10] @ DRAM
    for i in seq(0, 10):
        tmp[i] = A[i]
)");
}

// test_bool_partial_eval: b fixed to False.
TEST(ExoExprsPort, BoolPartialEval) {
  Proc bar = parse_proc(R"(def bar(b: bool, n: size, A: i8[n]):
    tmp: i8[n]
    for i in seq(0, n):
        if b == True:
            tmp[i] = A[i]
)");
  Proc q = partial_eval(bar, {{"b", 0}});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM):
    tmp: i8[n] @ DRAM
    for i in seq(0, n):
        if False == True:
            tmp[i] = A[i]
)");
}

// test_specialize: one copy per condition plus the default.
TEST(ExoExprsPort, Specialize) {
  Proc foo = parse_proc(R"(def foo(x: f32[4] @ DRAM):
    for i in seq(0, 4):
        x[i] += 1.0
)");
  Proc q = specialize(foo, "x[i] += 1.0", {"i == 0", "i == 1", "i == 2", "i == 3"});
  EXPECT_EQ(to_string(q), R"(def foo(x: f32[4] @ DRAM):
    for i in seq(0, 4):
        if i == 0:
            x[i] += 1.0
        else:
            if i == 1:
                x[i] += 1.0
            else:
                if i == 2:
                    x[i] += 1.0
                else:
                    if i == 3:
                        x[i] += 1.0
                    else:
                        x[i] += 1.0
)");
  expect_equivalent(foo, q);
}

// test_specialize_sizes.
TEST(ExoExprsPort, SpecializeSizes) {
  Proc gemm = parse_proc(R"(def gemm(
    M: size,
    N: size,
    K: size,
    C: f32[M, N] @ DRAM,
    A: f32[M, K] @ DRAM,
    B: f32[K, N] @ DRAM,
    alpha: f32,
):
    for i in seq(0, M):
        for j in seq(0, N):
            for k in seq(0, K):
                C[i, j] += alpha * A[i, k] * B[k, j]
)");
  Proc q = simplify(specialize(gemm, "for i in _:_", {"N <= 64", "N <= 128", "N <= 512"}));
  EXPECT_EQ(to_string(q),
            R"(def gemm(M: size, N: size, K: size, C: f32[M, N] @ DRAM, A: f32[M, K] @ DRAM,
         B: f32[K, N] @ DRAM, alpha: f32 @ DRAM):
    if N <= 64:
        for i in seq(0, M):
            for j in seq(0, N):
                for k in seq(0, K):
                    C[i, j] += alpha * A[i, k] * B[k, j]
    else:
        if N <= 128:
            for i in seq(0, M):
                for j in seq(0, N):
                    for k in seq(0, K):
                        C[i, j] += alpha * A[i, k] * B[k, j]
        else:
            if N <= 512:
                for i in seq(0, M):
                    for j in seq(0, N):
                        for k in seq(0, K):
                            C[i, j] += alpha * A[i, k] * B[k, j]
            else:
                for i in seq(0, M):
                    for j in seq(0, N):
                        for k in seq(0, K):
                            C[i, j] += alpha * A[i, k] * B[k, j]
)");
  expect_equivalent(gemm, q, {{"M", 2}, {"N", 3}, {"K", 2}});
  expect_equivalent(gemm, q, {{"M", 1}, {"N", 70}, {"K", 1}});
}

// test_specialize_blocks: the whole body, its allocation included.
TEST(ExoExprsPort, SpecializeBlocks) {
  Proc foo = parse_proc(R"(def foo(n: size, a: f32):
    b: f32
    a = 1.0
    a = 2.0
    b = 1.2
)");
  Proc q = specialize(foo, foo.body_cursor(), {"n > 0"});
  EXPECT_EQ(to_string(q), R"(def foo(n: size, a: f32 @ DRAM):
    if n > 0:
        b: f32 @ DRAM
        a = 1.0
        a = 2.0
        b = 1.2
    else:
        b: f32 @ DRAM
        a = 1.0
        a = 2.0
        b = 1.2
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 3}});
}

// test_specialize_data: a condition on the data argument alpha. Exo: "Invalid specialization
// condition".
TEST(ExoExprsPort, SpecializeData) {
  Proc gemm = parse_proc(R"(def gemm(
    M: size,
    N: size,
    K: size,
    C: f32[M, N] @ DRAM,
    A: f32[M, K] @ DRAM,
    B: f32[K, N] @ DRAM,
    alpha: f32,
):
    for i in seq(0, M):
        for j in seq(0, N):
            for k in seq(0, K):
                C[i, j] += alpha * A[i, k] * B[k, j]
)");
  expect_refused(
      [&] {
        specialize(gemm, "for i in _:_", {"alpha == 0.0", "alpha == 1.0", "alpha == -1.0"});
      },
      "specialize",
      "the condition 'alpha == 0.0' must be a condition, but it reads the data value 'alpha' "
      "(f32)");
}

// test_specialize_alloc_fails: the block declares a, which is used after it. Exo: "Block
// contains allocations".
TEST(ExoExprsPort, SpecializeAllocFails) {
  Proc foo = parse_proc(R"(def foo(n: size):
    a: f32
    a = 1.0
)");
  expect_refused([&] { specialize(foo, foo.body_cursor()[0], {"n > 0"}); }, "specialize",
                 "the block declares 'a', which is used after it");
}

// test_reorder_stmts: f[100] = 1.0 moves before the loop writing f[0:100].
TEST(ExoExprsPort, ReorderStmts) {
  Proc bar = parse_proc(R"(def bar(g: R[100] @ DRAM):
    f: R[101] @ DRAM
    for i in seq(0, 100):
        f[i] = 1.0
    f[100] = 1.0
    for i in seq(0, 100):
        g[i] = f[i] + f[i + 1]
)");
  Proc q = reorder_stmts(bar, "for i in _:_ ;\nf[_] = _");
  EXPECT_EQ(to_string(q), R"(def bar(g: R[100] @ DRAM):
    f: R[101] @ DRAM
    f[100] = 1.0
    for i in seq(0, 100):
        f[i] = 1.0
    for i in seq(0, 100):
        g[i] = f[i] + f[i + 1]
)");
  expect_equivalent(bar, q);
}

// test_new_expr_multi_vars: the index i is the loop's, not the later allocation `i: R`.
TEST(ExoExprsPort, NewExprMultiVars) {
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

// test_set_precision_illegal_precision_type: Exo passes a Procedure where the precision goes
// (a TypeError); in C++ the precision is a string, so the nearest port is a string that names
// no data type.
TEST(ExoExprsPort, SetPrecisionIllegalPrecisionType) {
  Proc bar = parse_proc(R"(def bar(n: size, x: R[n]):
    pass
)");
  expect_refused([&] { set_precision(bar, bar.arg_cursors()[1], "bar"); }, "set_precision",
                 "'bar' is not a data type");
}

}  // namespace
