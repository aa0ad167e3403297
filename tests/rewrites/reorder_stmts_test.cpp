// reorder_stmts: two statements swapped when the checker proves they commute.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

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
  expect_golden("ReorderStmts_SwapsIndependentStatements", to_string(q));
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
                 "the two statements commute");
}

TEST(ReorderStmts, RefusesAReadAfterWrite) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = A[i]
)");
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].body()[0]); }, "reorder_stmts",
                 "commute");
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
                 "no statement after");
}

TEST(ReorderStmts, RefusesABlockOfThree) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { reorder_stmts(p, p.body_cursor()[0].body()); }, "reorder_stmts",
                 "block has 3");
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
