// Cursor inspection (core/cursor_inspection.h): Exo's stdlib navigation on exocpp's cursors.
#include "core/cursor_inspection.h"

#include <gtest/gtest.h>

#include "core/parser.h"
#include "core/printer.h"

using namespace exocpp;

namespace {

// for i: [ x = ..., for j: [ if j < 3: [ A[i, j] = ... ], for k: pass ] ]
Proc proc() {
  return parse_module(R"(def f(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        A[i, 0] = 1.0
        for j in seq(0, 8):
            if j < 3:
                A[i, j] = A[i, j] + 2.0
            for k in seq(0, 2):
                pass
    A[0, 0] = 3.0
)")
      .procs.back();
}

Cursor assign_in_if(const Proc& p) { return p.body_cursor()[0].body()[1].body()[0].body()[0]; }

TEST(CursorInspection, AStatementIsAnAncestorOfItselfItsBodyAndItsExpressions) {
  Proc p = proc();
  Cursor i = p.body_cursor()[0], a = assign_in_if(p);
  EXPECT_TRUE(is_ancestor_of(i, i));
  EXPECT_TRUE(is_ancestor_of(i, a));
  EXPECT_TRUE(is_ancestor_of(i, a.rhs()));
  EXPECT_TRUE(is_ancestor_of(a, a.rhs().child(0)));
  EXPECT_FALSE(is_ancestor_of(a, i));
  EXPECT_FALSE(is_ancestor_of(p.body_cursor()[1], a));
  EXPECT_FALSE(is_ancestor_of(a.rhs().child(1), a.rhs().child(0)));
}

TEST(CursorInspection, TheLowestCommonAncestorIsTheInnermostStatementAroundBoth) {
  Proc p = proc();
  Cursor j = p.body_cursor()[0].body()[1];
  Cursor k_pass = j.body()[1].body()[0];
  EXPECT_EQ(get_lca(assign_in_if(p), k_pass).loc(), j.loc());
  EXPECT_EQ(get_lca(assign_in_if(p), assign_in_if(p).rhs()).loc(), assign_in_if(p).loc());
  EXPECT_THROW(get_lca(p.body_cursor()[0], p.body_cursor()[1]), InvalidCursorError);
}

TEST(CursorInspection, EnclosingLoopsAndIfsAreFoundByCountAndName) {
  Proc p = proc();
  Cursor a = assign_in_if(p);
  EXPECT_EQ(get_enclosing_loop(a).name(), "j");
  EXPECT_EQ(get_enclosing_loop(a, 2).name(), "i");
  EXPECT_EQ(get_enclosing_if(a).loc(), a.parent().loc());
  EXPECT_EQ(get_enclosing_loop_by_name(a, "i").loc(), p.body_cursor()[0].loc());
  EXPECT_EQ(get_enclosing_loop_by_name(p.body_cursor()[0], "i").loc(), p.body_cursor()[0].loc());
  EXPECT_THROW(get_enclosing_loop(a, 3), InvalidCursorError);
  EXPECT_THROW(get_enclosing_loop_by_name(a, "k"), InvalidCursorError);
}

TEST(CursorInspection, DepthAndTopLevelStatement) {
  Proc p = proc();
  Cursor a = assign_in_if(p);
  EXPECT_EQ(get_depth(p.body_cursor()[0]), 1);
  EXPECT_EQ(get_depth(a), 4);
  EXPECT_EQ(get_depth(a.rhs()), 5);
  EXPECT_EQ(get_top_level_stmt(a.rhs()).loc(), p.body_cursor()[0].loc());
}

TEST(CursorInspection, PositionsInABody) {
  Proc p = proc();
  Cursor body = p.body_cursor()[0].body();
  EXPECT_EQ(get_index_in_body(body[1]), 1);
  EXPECT_EQ(get_index_in_body(body[1], false), -1);
  EXPECT_TRUE(is_start_of_body(body[0]));
  EXPECT_FALSE(is_end_of_body(body[0]));
  EXPECT_TRUE(is_end_of_body(body[1]));
}

TEST(CursorInspection, InnerLoopsAreCountedAmongTheBodysStatements) {
  Proc p = proc();
  EXPECT_EQ(get_inner_loop(p.body_cursor()[0]).name(), "j");
  EXPECT_EQ(get_inner_loop(p.body_cursor()[0].body()[1]).name(), "k");
  EXPECT_THROW(get_nth_inner_loop(p.body_cursor()[0], 1), InvalidCursorError);
}

}  // namespace

namespace {

// Exo's ArgCursor / AllocCursor queries and BinOp operands.
TEST(CursorInspection, AnArgumentCursorGivesItsTypeMemoryAndShape) {
  Proc p = proc();
  Cursor a = p.find_alloc_or_arg("A");
  EXPECT_EQ(a.mem(), "DRAM");
  EXPECT_TRUE(a.is_tensor());
  ASSERT_EQ(a.shape().size(), 2u);
  EXPECT_EQ(to_string(a.shape()[1]), "8");
  EXPECT_EQ(a.type().base, ScalarKind::F32);
  EXPECT_FALSE(p.find_alloc_or_arg("N").is_tensor());
}

TEST(CursorInspection, AnAllocationCursorGivesItsMemoryAndShape) {
  Proc p = parse_module(R"(def g(N: size):
    t: i32[N, 4] @ DRAM_STACK
    t[0, 0] = 1
)")
               .procs.back();
  Cursor t = p.find_alloc_or_arg("t");
  EXPECT_EQ(t.mem(), "DRAM_STACK");
  EXPECT_EQ(t.shape().size(), 2u);
  EXPECT_EQ(t.type().base, ScalarKind::I32);
}

TEST(CursorInspection, ABinaryOperationHasALeftAndARightOperand) {
  Proc p = proc();
  Cursor sum = assign_in_if(p).rhs();
  EXPECT_EQ(sum.lhs().to_string(), "A[i, j]");
  EXPECT_EQ(sum.rhs().to_string(), "2.0");
  EXPECT_THROW(sum.lhs().lhs(), InvalidCursorError);
  EXPECT_THROW(assign_in_if(p).mem(), InvalidCursorError);
}

}  // namespace
