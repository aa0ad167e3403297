// Tests of mult_loops: golden + equivalence, refusals (non-constant inner bound, not a single
// nested loop, nonzero start, name in use) and forwarding.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 4):
            A[i, j] = 1.0
)";

TEST(MultLoops, ConstantInnerBound) {
  Proc p = parse_proc(kSrc);
  Proc q = mult_loops(p, p.body_cursor()[0], "k");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(MultLoops, RefusesANonConstantInnerBound) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            A[i, j] = 1.0
)");
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "k"); }, "mult_loops",
                 ErrorCode::NotProved, "loop.bound_not_constant", "positive integer constant");
}

TEST(MultLoops, RefusesALoopHoldingMore) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        A[i, 0] = 0.0
        for j in seq(0, 4):
            A[i, j] = 1.0
)");
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "k"); }, "mult_loops",
                 ErrorCode::BadArgument, "target.wrong_kind",
                 "is not one loop: it holds 2 statements");
}

TEST(MultLoops, RefusesANonZeroStart) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        for j in seq(1, 4):
            A[i, j] = 1.0
)");
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "k"); }, "mult_loops",
                 ErrorCode::NotProved, "loop.lower_bound_not_zero");
}

TEST(MultLoops, RefusesANameInUse) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { mult_loops(p, p.body_cursor()[0], "j"); }, "mult_loops",
                 ErrorCode::BadArgument, "arg.name", "'j' is already used");
}

TEST(MultLoops, ForwardsTheBodyUpOneLevel) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0].body()[0];
  Proc q = mult_loops(p, p.body_cursor()[0], "k");
  EXPECT_EQ(q.forward(body).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(body).to_string(), "A[k / 4, k % 4] = 1.0");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_product_loop
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(MultLoops, ProductLoop) {
  Proc foo = parse_proc(R"(def foo(n: size):
    x: R[n, 30]
    for i in seq(0, n):
        for j in seq(0, 30):
            x[i, j] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    x: R[n, 30] @ DRAM
    for ij in seq(0, 30 * n):
        x[ij / 30, ij % 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 3}});
}

// Exo tests/test_schedules.py::test_product_loop2
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(MultLoops, ProductLoop2) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n, 30]):
    for i in seq(0, n):
        for j in seq(0, 30):
            x[i, j] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n, 30] @ DRAM):
    for ij in seq(0, 30 * n):
        x[ij / 30, ij % 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 3}});
}

// Exo tests/test_schedules.py::test_product_loop3: the inner bound m is not a constant. Exo:
// "expected the inner loop to have a constant bound".
TEST(MultLoops, ProductLoop3RefusesANonConstantInnerBound) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    x: R[n, m]
    for i in seq(0, n):
        for j in seq(0, m):
            x[i, j] = 0.0
)");
  expect_refused([&] { mult_loops(foo, "i j", "ij"); }, "mult_loops", ErrorCode::NotProved,
                 "loop.bound_not_constant",
                 "expected the bound of loop j to be a positive integer constant, got 'm'");
}

// Exo tests/test_schedules.py::test_product_loop4
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(MultLoops, ProductLoop4) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    for i in seq(0, n):
        for j in seq(0, 30):
            x[i] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    for ij in seq(0, 30 * n):
        x[ij / 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 3}});
}

// Exo tests/test_schedules.py::test_product_loop5: the loops write through a window.
// Exo's golden prints the merged bound as built, `n * 30`; exocpp's operations print the
// expressions they build simplified, constant first (docs/exo-differences.md, "Printing").
TEST(MultLoops, ProductLoop5) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: R[n, 100]):
    assert m < n
    x2 = x[0:m, 0:30]
    for i in seq(0, m):
        for j in seq(0, 30):
            x2[i, j] = 0.0
)");
  Proc q = mult_loops(foo, "i j", "ij");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: R[n, 100] @ DRAM):
    assert m < n
    x2 = x[0:m, 0:30]
    for ij in seq(0, 30 * m):
        x2[ij / 30, ij % 30] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 2}, {"m", 1}});
  expect_equivalent(foo, q, {{"n", 5}, {"m", 3}});
}

// Exo tests/test_schedules.py::test_product_loop_nonzero_lo. Exo: "expected the inner and outer
// loops to have a constant lower bound of 0".
TEST(MultLoops, ProductLoopNonzeroLoIsRefused) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n, 30]):
    for i in seq(1, n):
        for j in seq(0, 30):
            x[i, j] = 0.0
)");
  expect_refused([&] { mult_loops(foo, "i j", "ij"); }, "mult_loops", ErrorCode::NotProved,
                 "loop.lower_bound_not_zero", "expected both loops i and j to start at 0");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(MultLoops, MultLoopsRefusesBadNames) {
  Proc p = parse_proc(kNamesTwoLoops);
  expect_all_refused("mult_loops", [&](const std::string& n) { mult_loops(p, "i", n); });
}

// Par loops: a par result's iterations must be proved independent.
TEST(MultLoops, MultLoopsRefusesAParLoopOverADependentSeqLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: i32[N, 5] @ DRAM):
    for i in par(0, N):
        for j in seq(0, 4):
            A[i, j + 1] += A[i, j]
)");
  expect_refused([&] { mult_loops(p, "for i in _: _", "k"); }, "mult_loops", ErrorCode::NotProved,
                 "checker.par_conflict", kParLoopNeedle);
}

// Par loops: a par result's iterations must be proved independent.
TEST(MultLoops, MultLoopsMergesTwoParLoops) {
  Proc p = parse_proc(R"(def f(N: size, A: i32[N, 4] @ DRAM):
    for i in par(0, N):
        for j in par(0, 4):
            A[i, j] = A[i, j] * 2
)");
  Proc q = mult_loops(p, "for i in _: _", "k");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

}  // namespace
