// Tests of specialize: one and two conditions (golden + equivalence), refusals (no condition,
// a non-boolean condition) and forwarding.
#include <gtest/gtest.h>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)";

TEST(Specialize, TwoConditions) {
  Proc p = parse_proc(kSrc);
  Proc q = specialize(p, p.body_cursor()[0], {"N == 4", "N > 8"});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(Specialize, InsideALoopUsingItsVariable) {
  Proc p = parse_proc(kSrc);
  Proc q = specialize(p, p.body_cursor()[0].body()[0], {"i < 2"});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

// A condition reading an index argument's elements (control values, typed int as the proc
// parser types them): a CSR row split by its length.
TEST(Specialize, OnAConditionReadingAnIndexArgument) {
  Proc p = parse_proc(R"(def f(m: size, nnz: size, rowptr: i32[m + 1] @ DRAM in range(0, nnz + 1),
      val: f32[nnz] @ DRAM, y: f32[m] @ DRAM):
    for i in seq(0, m):
        for j in seq(rowptr[i], rowptr[i + 1]):
            y[i] += val[j]
)");
  Proc q = specialize(p, p.find_loop("j"), {"rowptr[i] + 4 <= rowptr[i + 1]"});
  EXPECT_NE(to_string(q).find("if rowptr[i] + 4 <= rowptr[i + 1]:"), std::string::npos) << q;
  expect_equivalent(p, q);
}

// The condition is evaluated where the block starts: a read there must be in bounds.
TEST(Specialize, RefusesAConditionReadingOutOfBounds) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { specialize(p, p.find_loop("i"), {"A[N] > 0.0"}); }, "specialize",
                 ErrorCode::NotProved, "expr.unsafe_to_move",
                 "the read of A at index 'N' (dimension 0) lies in the buffer where the block "
                 "starts");
}

TEST(Specialize, RefusesNoConditions) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { specialize(p, p.body_cursor()[0], {}); }, "specialize",
                 ErrorCode::BadArgument, "arg.invalid", "at least one condition");
}

TEST(Specialize, RefusesANonBooleanCondition) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { specialize(p, p.body_cursor()[0], {"N + 1"}); }, "specialize",
                 ErrorCode::BadArgument, "arg.expression",
                 "must be a condition, but it has type size");
}

TEST(Specialize, ForwardsTheBlockToTheFirstCopy) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0];
  Proc q = specialize(p, p.body_cursor()[0], {"N == 4"});
  EXPECT_EQ(q.forward(body).loc(), q.body_cursor()[0].body()[0].body()[0].loc());
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_specialize: one copy per condition plus the default.
TEST(Specialize, Specialize) {
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

// Exo tests/test_schedules.py::test_specialize_sizes.
TEST(Specialize, SpecializeSizes) {
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

// Exo tests/test_schedules.py::test_specialize_blocks: the whole body, its allocation included.
TEST(Specialize, SpecializeBlocks) {
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

// Exo tests/test_schedules.py::test_specialize_data: a condition on the data argument alpha. Exo
// refuses it ("Invalid specialization condition"); exocpp's conditions may compare data
// (docs/exo-differences.md), and every branch is the same block, so the result is equivalent.
TEST(Specialize, SpecializeData) {
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
  Proc q = specialize(gemm, "for i in _:_", {"alpha == 0.0", "alpha == 1.0", "alpha == -1.0"});
  EXPECT_TRUE(has(q, "    if alpha == 0.0:\n")) << q;
  EXPECT_TRUE(has(q, "        if alpha == 1.0:\n")) << q;
  expect_equivalent(gemm, q);
}

// Exo tests/test_schedules.py::test_specialize_alloc_fails: the block declares a, which is used
// after it. Exo: "Block contains allocations".
TEST(Specialize, SpecializeAllocFails) {
  Proc foo = parse_proc(R"(def foo(n: size):
    a: f32
    a = 1.0
)");
  expect_refused([&] { specialize(foo, foo.body_cursor()[0], {"n > 0"}); }, "specialize",
                 ErrorCode::NotProved, "scope.escapes",
                 "the block declares 'a', which is used after it");
}

// Trust (structure): every use is seen, declarations stay in scope.
// specialize copied the allocation into both branches while a use stayed after the `if`.
TEST(Specialize, SpecializeRefusesDeclarationUsedAfterBlock) {
  Proc p = parse_proc(R"(
def f(n: size, a: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, 4):
        t[i] = 1.0
    for i in seq(0, 4):
        a[i] = t[i]
)");
  expect_refused(
      [&] { return specialize(p, p.body_cursor()[0].as_block().expand(0, 1), {"n > 2"}); },
      "used after it");
}

// Trust (structure): every use is seen, declarations stay in scope.
TEST(Specialize, SpecializeAcceptsWholeLifetime) {
  Proc p = parse_proc(R"(
def f(n: size, a: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, 4):
        t[i] = 1.0
    for i in seq(0, 4):
        a[i] = t[i]
)");
  Proc q = specialize(p, p.body_cursor(), {"n > 2"});
  expect_equivalent(p, q, {{"n", 1}});
  expect_equivalent(p, q, {{"n", 3}});
}

}  // namespace
