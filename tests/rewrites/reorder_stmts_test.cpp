// reorder_stmts: two statements swapped when the checker proves they commute.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = 2.0
        B[i] += A[i]
)";

TEST(ReorderStmts, SwapsIndependentStatements) {
  Proc p = parse_proc(kSrc);
  Proc q = reorder_stmts(p, p.body_cursor()[0].body().slice(0, 2));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(ReorderStmts, AStatementMeansItAndTheNext) {
  Proc p = parse_proc(kSrc);
  Proc q = reorder_stmts(p, p.body_cursor()[0].body()[0]);
  EXPECT_EQ(to_string(q), to_string(reorder_stmts(p, p.body_cursor()[0].body().slice(0, 2))));
}

TEST(ReorderStmts, RefusesDependentStatements) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].body().slice(1, 3)); }, "reorder_stmts",
                 ErrorCode::NotProved, "checker.refuted", "the two statements commute");
}

TEST(ReorderStmts, RefusesAReadAfterWrite) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = A[i]
)");
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].body()[0]); }, "reorder_stmts",
                 ErrorCode::NotProved, "checker.refuted", "commute");
}

// Found by the soak's cross-precision accumulations: a float addend into an integer buffer
// truncates each sum, so two such reductions do not commute (from 0, `+= 1.75` then `+= -0.75`
// gives 0, the other order 1).
TEST(ReorderStmts, RefusesReductionsThatTruncateTheirSums) {
  Proc p = parse_proc(R"(def f(A: f32[2] @ DRAM, X: i8[1] @ DRAM):
    X[0] += A[0]
    X[0] += A[1]
)");
  expect_refused([&] { return reorder_stmts(p, p.body_cursor()[0]); }, "reorder_stmts",
                 ErrorCode::NotProved, "checker.refuted");
}

TEST(ReorderStmts, SwapsIntegerReductionsIntoAnIntegerBuffer) {
  Proc p = parse_proc(R"(def f(Y: i32[2] @ DRAM, X: i8[1] @ DRAM):
    X[0] += Y[0] * 3
    X[0] += Y[1]
)");  // sums modulo 2^8 in any order
  Proc q = reorder_stmts(p, p.body_cursor()[0]);
  expect_equivalent(p, q);
}

TEST(ReorderStmts, RefusesTheLastStatementAlone) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].body()[2]); }, "reorder_stmts",
                 ErrorCode::NotProved, "stmt.no_next", "no statement after");
}

TEST(ReorderStmts, RefusesABlockOfThree) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].body()); }, "reorder_stmts",
                 ErrorCode::BadArgument, "target.wrong_kind", "block has 3");
}

TEST(ReorderStmts, ForwardsBothStatements) {
  Proc p = parse_proc(kSrc);
  Cursor a = p.body_cursor()[0].body()[0];
  Cursor b = p.body_cursor()[0].body()[1];
  Proc q = reorder_stmts(p, a);
  EXPECT_EQ(q.forward(a).loc().lo, 1);
  EXPECT_EQ(q.forward(b).loc().lo, 0);
  EXPECT_EQ(q.forward(a).to_string(), "A[i] = 1.0");
}

TEST(ReorderStmts, AcceptsABlockPattern) {
  Proc p = parse_proc(kSrc);
  Proc q = reorder_stmts(p, "A[_] = _ ; B[_] = _");
  EXPECT_EQ(to_string(q), to_string(reorder_stmts(p, p.body_cursor()[0].body()[0])));
}

// Refusals name their reason (core/reasons.h): a structural condition is NotProved stmt.*.
TEST(ReorderStmts, TheLastStatementAloneIsNotProvedStmtNoNext) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].body()[2]); }, "reorder_stmts",
                 ErrorCode::NotProved, "stmt.no_next");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_reorder_stmts: f[100] = 1.0 moves before the loop writing
// f[0:100].
TEST(ReorderStmts, ReorderStmts) {
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

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(ReorderStmts, ReorderStmtsSeesTheReadsOfAWindowStatement) {
  Proc p = eval_once_proc(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    w = A[C.k:C.k + 2]
    C.k = 4
    w[0] = 1.0
)");
  expect_refused([&] { reorder_stmts(p, "w = _ ; C.k = _"); }, "reorder_stmts",
                 ErrorCode::NotProved, "checker.refuted", "");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(ReorderStmts, ReorderStmtsNeverDecidesAViewWithALaterConfigValue) {
  // w[0] is A[0] (C.k was 0 at the window statement), not A[4]: swapping the two writes is
  // wrong, and the checker must not read w's bounds with C.k's later value.
  Proc p = eval_once_proc(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    w = A[C.k:C.k + 2]
    C.k = 4
    A[0] = 2.0
    w[0] = 1.0
)");
  expect_refused([&] { reorder_stmts(p, "A[_] = _ ; w[_] = _"); }, "reorder_stmts",
                 ErrorCode::Unknown, "checker.unknown", "");
}

}  // namespace

namespace {

// The counterexample names the outcome of the data condition it assumed, at the element it read.
TEST(ReorderStmts, RefusesAWriteUnderADataConditionNamingTheOutcome) {
  Proc p = parse_proc(R"(def g(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        if x[i] > 0.0:
            y[i] = 1.0
    for i in seq(0, n):
        x[i] = 2.0
)");
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].as_block().expand(0, 1)); },
                 "reorder_stmts", ErrorCode::NotProved, "checker.refuted", "> 0.0) = ");
}

}  // namespace
