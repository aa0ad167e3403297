// Tests of fuse: loops and ifs (golden + equivalence), refusals (different bounds, a reversed
// dependence, not adjacent, mixed kinds, different conditions) and forwarding.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kLoops = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    for j in seq(0, N):
        B[j] = A[j] * 2.0
)";

TEST(Fuse, TwoLoops) {
  Proc p = parse_proc(kLoops);
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(Fuse, TwoIfs) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    if N > 2:
        x = 1.0
    else:
        x = 2.0
    if N > 2:
        y = 3.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(Fuse, RefusesDifferentBounds) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    for j in seq(0, N - 1):
        B[j] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.refuted", "different bounds");
}

TEST(Fuse, RefusesAReversedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    for j in seq(0, N):
        B[j] = A[j + 1]
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.refuted", "can be fused, but");
}

TEST(Fuse, RefusesStatementsThatAreNotAdjacent) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    x = 1.0
    for j in seq(0, N):
        A[j] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[2]); }, "fuse",
                 ErrorCode::BadArgument, "target.not_adjacent");
}

TEST(Fuse, RefusesALoopAndAnIf) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
    if N > 1:
        x = 1.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::BadArgument, "target.wrong_kind", "expected two loops or two ifs");
}

TEST(Fuse, RefusesDifferentConditions) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM):
    if N > 1:
        x = 1.0
    if N > 2:
        x = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.refuted",
                 "requires that the conditions 'N > 1' and 'N > 2' are equal");
}

// Written differently, equal everywhere: proved, then fused (Exo's solver decides it too).
TEST(Fuse, IfsWhoseConditionsAreProvedEqualAreFused) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    if N > 1:
        x = 1.0
    if 1 < N:
        y = 2.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.body().size(), 1u) << q;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 3}});
}

// Equal only under the proc's assert: the checker uses it.
TEST(Fuse, IfsWhoseConditionsAreEqualUnderAnAssertAreFused) {
  Proc p = parse_proc(R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    assert N % 4 == 0
    if N > 2:
        x = 1.0
    if N >= 4:
        y = 2.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.body().size(), 1u) << q;
  expect_equivalent(p, q);
}

TEST(Fuse, ForwardsTheSecondBodyIntoTheFusedLoop) {
  Proc p = parse_proc(kLoops);
  Cursor second_body = p.body_cursor()[1].body()[0];
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.forward(second_body).loc(), q.body_cursor()[0].body()[1].loc());
  EXPECT_EQ(q.forward(second_body).to_string(), "B[i] = A[i] * 2.0");
  EXPECT_FALSE(q.forward(p.body_cursor()[1]).is_valid());
}

}  // namespace

// Exo's test_fuse_loop_commute_config: both loops store the same constant into a config field,
// so the reordered stores leave the same value; the fused loop prints as Exo's golden.
TEST(Fuse, LoopsStoringTheSameConstantIntoAConfigAreFused) {
  Module m = parse_module(R"(config CFG:
    j: index

def foo(n: size, x: R[n]):
    y: R[n]
    for i in seq(0, n):
        CFG.j = 0
    for j in seq(0, n):
        CFG.j = 0
)");
  Proc p = m.proc("foo");
  Proc q = fuse(p, "for i in _:_", "for j in _:_");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    y: R[n] @ DRAM
    for i in seq(0, n):
        CFG.j = 0
        CFG.j = 0
)");
  expect_equivalent(p, q);
}

TEST(Fuse, RefusesLoopsStoringDifferentConstantsIntoOneElement) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[0] = 1.0
    for j in seq(0, N):
        A[0] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.refuted", "can be fused, but");
}

// 0.0 and -0.0 compare equal as numbers but are different stored values.
TEST(Fuse, RefusesLoopsStoringZeroAndNegativeZeroIntoOneElement) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[0] = 0.0
    for j in seq(0, N):
        A[0] = -0.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.refuted", "can be fused, but");
}

// The equal stores commute, but a store of another value to the same element between them
// does not.
TEST(Fuse, RefusesEqualStoresWhenTheSecondLoopAlsoStoresAnotherValue) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[0] = 1.0
    for j in seq(0, N):
        A[0] = 1.0
        A[j] = 2.0
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.refuted", "can be fused, but");
}

namespace {

// Exo tests/test_schedules.py::test_fuse_loop
TEST(Fuse, FuseLoop) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    y: R[n]
    for i in seq(0, n):
        y[i] = x[i]
    for j in seq(0, n):
        x[j] = y[j] + 1.0
)");
  Proc q = fuse(foo, "for i in _:_", "for j in _:_");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    y: R[n] @ DRAM
    for i in seq(0, n):
        y[i] = x[i]
        x[i] = y[i] + 1.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 5}});
}

// Exo tests/test_schedules.py::test_fuse_loop2: nonzero lower bounds.
TEST(Fuse, FuseLoop2) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    assert n > 3
    y: R[n]
    for i in seq(3, n):
        y[i] = x[i]
    for j in seq(3, n):
        x[j] = y[j] + 1.0
)");
  Proc q = fuse(foo, "for i in _:_", "for j in _:_");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    assert n > 3
    y: R[n] @ DRAM
    for i in seq(3, n):
        y[i] = x[i]
        x[i] = y[i] + 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}});
  expect_equivalent(foo, q, {{"n", 8}});
}

// Exo tests/test_schedules.py::test_fuse_loop_fail: iteration j reads y[j + 1], which the first
// loop writes in iteration j + 1 (later, once fused). Exo: "Cannot fission loop".
TEST(Fuse, FuseLoopFail) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n + 1]):
    y: R[n + 1]
    y[0] = x[0]
    for i in seq(0, n):
        y[i + 1] = x[i]
    for j in seq(0, n):
        x[j + 1] = y[j + 1] + 1.0
)");
  expect_refused([&] { fuse(foo, "for i in _:_", "for j in _:_"); }, "fuse", ErrorCode::NotProved,
                 "checker.refuted", "loops i and j can be fused");
}

// Exo tests/test_schedules.py::test_fuse_if: `a == b` and `a - b == 0` are proved equal.
TEST(Fuse, FuseIf) {
  Proc foo = parse_proc(R"(def foo(x: R, a: index, b: index):
    if a == b:
        x += 1.0
    if a - b == 0:
        x += 2.0
    else:
        x += 3.0
)");
  Proc q = fuse(foo, "if a==b:_", "if _==0: _");
  EXPECT_EQ(to_string(q), R"(def foo(x: R @ DRAM, a: index, b: index):
    if a == b:
        x += 1.0
        x += 2.0
    else:
        x += 3.0
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_fuse_if_fail: `a == b` and `a + b == 0` differ. Exo:
// "Expressions are not equivalent".
TEST(Fuse, FuseIfFail) {
  Proc foo = parse_proc(R"(def foo(x: R, a: index, b: index):
    if a == b:
        x += 1.0
    if a + b == 0:
        x += 2.0
)");
  expect_refused([&] { fuse(foo, "if a==b:_", "if _==0: _"); }, "fuse", ErrorCode::NotProved,
                 "checker.refuted", "the conditions 'a == b' and 'a + b == 0' are equal");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(Fuse, FuseRefusesSecondBoundsTheFirstLoopWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, 8):
        C.n = 4
        A[i] = 1.0
    for j in seq(0, C.n):
        B[j] = 2.0
)");
  expect_refused([&] { fuse(p, "for i in _: _", "for j in _: _"); }, "fuse", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.n");
}

// Par loops: a par result's iterations must be proved independent.
// The soak's case: a seq stencil that reads ahead of itself, fused into a par producer loop.
TEST(Fuse, FuseRefusesASeqStencilIntoAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, U: i32[N] @ DRAM, Z: i32[N + 2] @ DRAM):
    for i in par(0, N):
        U[i] = 3 * U[i]
    for j in seq(0, N):
        Z[j] += Z[j + 2]
)");
  expect_refused([&] { fuse(p, p.body_cursor()[0], p.body_cursor()[1]); }, "fuse",
                 ErrorCode::NotProved, "checker.par_conflict", kParLoopNeedle);
}

// Par loops: a par result's iterations must be proved independent.
TEST(Fuse, FuseKeepsParWhenTheFusedIterationsAreIndependent) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in par(0, N):
        A[i] = 1.0
    for j in seq(0, N):
        B[j] = A[j] * 2.0
)");
  Proc q = fuse(p, p.body_cursor()[0], p.body_cursor()[1]);
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

}  // namespace
