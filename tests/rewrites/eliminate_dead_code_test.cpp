// eliminate_dead_code: branches and loops the checker proves never run.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < N:
            A[i] = 1.0
        else:
            A[i] = 2.0
        if i >= N + 1:
            A[i] = 3.0
)";

Cursor loop_stmt(const Proc& p, int k) { return p.body_cursor()[0].body()[k]; }

TEST(EliminateDeadCode, KeepsTheBranchThatAlwaysRuns) {
  Proc p = parse_proc(kSrc);
  Proc q = eliminate_dead_code(p, loop_stmt(p, 0));
  expect_golden("EliminateDeadCode_KeepsTheBranchThatAlwaysRuns", to_string(q));
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, RemovesAnIfThatNeverRuns) {
  Proc p = parse_proc(kSrc);
  Proc q = eliminate_dead_code(p, loop_stmt(p, 1));
  EXPECT_EQ(q.body()[0].as<ForNode>()->body.size(), 1u);
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, KeepsTheElseBranchOfAFalseCondition) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    if N < 1:
        A[0] = 1.0
    else:
        A[0] = 2.0
)");
  Proc q = eliminate_dead_code(p, p.body_cursor()[0]);
  EXPECT_EQ(to_string(q.body()), "A[0] = 2.0\n");
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, RemovesAnEmptyLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    A[0] = 0.0
    for i in seq(N, N):
        A[i] = 1.0
)");
  Proc q = eliminate_dead_code(p, p.body_cursor()[1]);
  EXPECT_EQ(to_string(q.body()), "A[0] = 0.0\n");
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, LeavesAPassInAnEmptiedBody) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, i - i):
            A[i] = 1.0
)");
  Proc q = eliminate_dead_code(p, p.body_cursor()[0].body()[0]);
  EXPECT_EQ(to_string(q.body()), "for i in seq(0, N):\n    pass\n");
  expect_equivalent(p, q);
}

TEST(EliminateDeadCode, RefusesAConditionThatVaries) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < 2:
            A[i] = 1.0
)");
  expect_refused([&] { eliminate_dead_code(p, p.body_cursor()[0].body()[0]); },
                 "eliminate_dead_code", "may be true or false");
}

TEST(EliminateDeadCode, RefusesALoopThatMayRun) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { eliminate_dead_code(p, p.body_cursor()[0]); }, "eliminate_dead_code",
                 "never runs");
}

TEST(EliminateDeadCode, RefusesAnAssignment) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    A[0] = 1.0
)");
  expect_refused([&] { eliminate_dead_code(p, p.body_cursor()[0]); }, "eliminate_dead_code",
                 ErrorCode::BadArgument, "target.wrong_kind");
}

TEST(EliminateDeadCode, ForwardsTheKeptBranch) {
  Proc p = parse_proc(kSrc);
  Cursor kept = loop_stmt(p, 0).body()[0];
  Cursor dropped = loop_stmt(p, 0).orelse()[0];
  Proc q = eliminate_dead_code(p, loop_stmt(p, 0));
  EXPECT_EQ(q.forward(kept).to_string(), "A[i] = 1.0");
  EXPECT_EQ(q.forward(kept).loc().block.size(), 1u);
  EXPECT_FALSE(q.forward(dropped).is_valid());
}

TEST(EliminateDeadCode, AcceptsAnIfPattern) {
  Proc p = parse_proc(kSrc);
  EXPECT_EQ(to_string(eliminate_dead_code(p, "if _: _ #1")),
            to_string(eliminate_dead_code(p, loop_stmt(p, 1))));
}

}  // namespace
