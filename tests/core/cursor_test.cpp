// Cursor navigation, tree access and forwarding through derived procs.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

using namespace exocpp;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = A[i] * 2.0
    for j in seq(0, N):
        if j < 3:
            A[j] += B[j]
        else:
            pass
)";

Proc parse_f() { return parse_module(kSrc).proc("f"); }

TEST(Cursor, BodyIsABlockOfTopLevelStatements) {
  Cursor b = parse_f().body_cursor();
  EXPECT_TRUE(b.is_block());
  EXPECT_EQ(b.size(), 2);
  EXPECT_EQ(b[1].name(), "j");
}

TEST(Cursor, EqualWhenTheSamePlaceOfTheSameProc) {
  Proc f = parse_f();
  EXPECT_TRUE(f.find_loop("i") == f.body_cursor()[0]);
  EXPECT_TRUE(f.find_loop("i").body()[0].parent() == f.find_loop("i"));
  EXPECT_FALSE(f.find_loop("i") == f.find_loop("j"));
  // The same text parsed again is another proc: its cursors are not this one's.
  EXPECT_FALSE(f.find_loop("i") == parse_f().find_loop("i"));
}

TEST(Cursor, NextPrevAndParentNavigate) {
  Cursor i_loop = parse_f().body_cursor()[0];
  Cursor first = i_loop.body()[0];
  EXPECT_EQ(first.name(), "A");
  EXPECT_EQ(first.next().name(), "B");
  EXPECT_FALSE(first.next(2).is_valid());
  EXPECT_EQ(first.next().prev().loc(), first.loc());
  EXPECT_EQ(first.parent().loc(), i_loop.loc());
}

TEST(Cursor, OrelseAndExpressionChildren) {
  Cursor if_stmt = parse_f().body_cursor()[1].body()[0];
  EXPECT_EQ(if_stmt.orelse()[0].stmt().kind(), StmtKind::Pass);
  EXPECT_EQ(if_stmt.cond().to_string(), "j < 3");
  EXPECT_EQ(if_stmt.body()[0].rhs().to_string(), "B[j]");
  EXPECT_EQ(if_stmt.cond().child(0).parent().to_string(), "j < 3");
}

TEST(Cursor, ExpandAndSliceBlocks) {
  Cursor a = parse_f().body_cursor()[0].body()[0];
  EXPECT_EQ(a.expand(0, 1).size(), 2);
  EXPECT_EQ(a.expand().size(), 2);
  EXPECT_EQ(a.expand().slice(1, 2)[0].name(), "B");
  EXPECT_THROW(a.expand().slice(1, 3), InvalidCursorError);
}

TEST(Cursor, InvalidCursorSaysSo) {
  Cursor past = parse_f().body_cursor()[1].next();
  EXPECT_FALSE(past.is_valid());
  try {
    (void)past.stmt();
    FAIL() << "expected InvalidCursorError";
  } catch (const InvalidCursorError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid cursor"), std::string::npos) << e.what();
  }
}

// A hand-made rewrite: wrap the top-level j loop in `if N > 0:`, recording fwd_wrap.
Proc wrap_second_loop(const Proc& p) {
  Stmt j_loop = p.body()[1];
  Sym n = p.args()[0].name;
  Expr cond = BinOpNode::make(BinOpKind::Gt, ReadNode::make(n, {}, ScalarKind::Size),
                              ConstNode::make_int(0));
  Stmt wrapped = IfNode::make(cond, {j_loop}, {});
  return derive_proc(p, replace_stmts(p.body(), {}, 1, 2, {wrapped}), fwd_wrap({}, 1, 2));
}

TEST(CursorForwarding, StatementInsideWrappedRegionMovesDown) {
  Proc p = parse_f();
  Cursor a_red = p.body_cursor()[1].body()[0].body()[0];
  Proc q = wrap_second_loop(p);
  Cursor fwd = q.forward(a_red);
  ASSERT_TRUE(fwd.is_valid());
  EXPECT_EQ(fwd.to_string(), "A[j] += B[j]");
  EXPECT_EQ(fwd.parent().parent().parent().stmt().kind(), StmtKind::If);
}

TEST(CursorForwarding, StatementBeforeRegionIsUnchanged) {
  Proc p = parse_f();
  Cursor i_loop = p.body_cursor()[0];
  Proc q = wrap_second_loop(p);
  EXPECT_EQ(q.forward(i_loop).loc(), i_loop.loc());
}

TEST(CursorForwarding, ComposesOverSeveralRewrites) {
  Proc p = parse_f();
  Cursor b_assign = p.body_cursor()[1].body()[0].body()[0];
  Proc q = wrap_second_loop(wrap_second_loop(p));
  EXPECT_EQ(q.forward(b_assign).to_string(), "A[j] += B[j]");
}

TEST(CursorForwarding, DeletedStatementForwardsToInvalid) {
  Proc p = parse_f();
  Cursor j_loop = p.body_cursor()[1];
  Proc q = derive_proc(p, replace_stmts(p.body(), {}, 1, 2, {}), fwd_replace({}, 1, 2, 0));
  EXPECT_FALSE(q.forward(j_loop).is_valid());
  EXPECT_TRUE(q.forward(p.body_cursor()[0]).is_valid());
}

TEST(CursorForwarding, CursorFromUnrelatedProcIsRefused) {
  Proc p = parse_f(), other = parse_f();
  EXPECT_THROW(other.forward(p.body_cursor()[0]), InvalidCursorError);
}

TEST(CursorForwarding, UnwrapSplicesBodyIntoParentList) {
  Proc p = parse_f();
  Cursor b_assign = p.body_cursor()[0].body()[1];
  Cursor j_loop = p.body_cursor()[1];
  const ForNode* i_loop = p.body()[0].as<ForNode>();
  Proc q = derive_proc(p, replace_stmts(p.body(), {}, 0, 1, i_loop->body), fwd_unwrap({}, 0, 2));
  EXPECT_EQ(q.forward(b_assign).loc().block.size(), 0u);
  EXPECT_EQ(q.forward(b_assign).loc().lo, 1);
  EXPECT_EQ(q.forward(j_loop).loc().lo, 2);
  EXPECT_FALSE(q.forward(p.body_cursor()[0]).is_valid());
}

TEST(TreeAccess, ReplaceExprRebuildsOnlyThePath) {
  Proc p = parse_f();
  Stmt s = p.body()[0].as<ForNode>()->body[1];
  Stmt t = replace_expr(s, {1, 1}, ConstNode::make_float(3.0));
  EXPECT_EQ(to_string(t), "B[i] = A[i] * 3.0\n");
  EXPECT_TRUE(expr_at(t, {0}).same_as(expr_at(s, {0})));
}

}  // namespace
