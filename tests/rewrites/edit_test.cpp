// rw::Edit: each verb changes the body and forwards cursors to match, so a cursor taken on the
// input and forwarded to the result names the statement the verb says it became.
#include "rewrites/internal/edit.h"

#include "core/printer.h"
#include "rewrite_test_util.h"
#include "rewrites/internal/expr_build.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kThree = R"(def f(x: f32[4] @ DRAM):
    x[0] = 1.0
    x[1] = 2.0
    x[2] = 3.0
)";

// The first line of what cursor `c` of the input names in `q`.
std::string now(const Proc& q, const Cursor& c) { return q.forward(c).current_line(); }

TEST(EditBuilder, InsertShiftsTheStatementsAfter) {
  Proc p = parse_proc(kThree);
  Cursor second = p.body_cursor()[1];
  Proc q = rw::Edit(p).insert({}, 1, {PassNode::make()}).done();
  EXPECT_EQ(q.body().size(), 4u);
  EXPECT_EQ(now(q, second), "x[1] = 2.0");
  EXPECT_EQ(q.forward(second).loc().lo, 2);
}

TEST(EditBuilder, RemoveInvalidatesTheRemovedStatement) {
  Proc p = parse_proc(kThree);
  Cursor first = p.body_cursor()[0], third = p.body_cursor()[2];
  Proc q = rw::Edit(p).remove({}, 0, 1).done();
  EXPECT_FALSE(q.forward(first).is_valid());
  EXPECT_EQ(now(q, third), "x[2] = 3.0");
}

TEST(EditBuilder, SwapTradesThePlacesOfTwoRanges) {
  Proc p = parse_proc(kThree);
  Cursor first = p.body_cursor()[0], third = p.body_cursor()[2];
  Proc q = rw::Edit(p).swap({}, 0, 1, 3).done();
  EXPECT_EQ(to_string(q.body()[0], 0).substr(0, 10), "x[1] = 2.0");
  EXPECT_EQ(now(q, first), "x[0] = 1.0");
  EXPECT_EQ(q.forward(first).loc().lo, 2);
  EXPECT_EQ(now(q, third), "x[2] = 3.0");
}

TEST(EditBuilder, WrapMovesTheStatementsOneLevelDown) {
  Proc p = parse_proc(kThree);
  Cursor second = p.body_cursor()[1];
  Proc q = rw::Edit(p)
               .wrap({}, 1, 3,
                     [](const Block& b) {
                       return ForNode::make(Sym("k"), rw::int_const(0), rw::int_const(1), b,
                                            LoopMode::Seq);
                     })
               .done();
  EXPECT_EQ(q.body().size(), 2u);
  EXPECT_EQ(now(q, second), "x[1] = 2.0");
  EXPECT_EQ(q.forward(second).loc().block.size(), 1u);
}

TEST(EditBuilder, AWrapperThatDropsStatementsIsAnInternalError) {
  Proc p = parse_proc(kThree);
  EXPECT_THROW(rw::Edit(p).wrap({}, 0, 2,
                                [](const Block& b) {
                                  return ForNode::make(Sym("k"), rw::int_const(0), rw::int_const(1),
                                                       {b[0]}, LoopMode::Seq);
                                }),
               InternalError);
}

TEST(EditBuilder, UnwrapSplicesABodyInPlace) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM):
    if 1 < 2:
        x[0] = 1.0
        x[1] = 2.0
    x[2] = 3.0
)");
  Cursor inner = p.body_cursor()[0].body()[1];
  Cursor after = p.body_cursor()[1];
  Proc q = rw::Edit(p).unwrap({}, 0).done();
  EXPECT_EQ(q.body().size(), 3u);
  EXPECT_EQ(now(q, inner), "x[1] = 2.0");
  EXPECT_EQ(now(q, after), "x[2] = 3.0");
}

TEST(EditBuilder, MoveCarriesAStatementIntoAnotherList) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM):
    x[0] = 1.0
    for i in seq(0, 4):
        x[i] = 2.0
)");
  Cursor first = p.body_cursor()[0];
  Proc q = rw::Edit(p).move({}, 0, {{0, BlockField::Body}}, 1).done();
  EXPECT_EQ(q.body().size(), 1u);
  EXPECT_EQ(now(q, first), "x[0] = 1.0");
  EXPECT_EQ(q.forward(first).loc().block.size(), 1u);
}

TEST(EditBuilder, RewriteInPlaceKeepsItsCount) {
  Proc p = parse_proc(kThree);
  EXPECT_THROW(rw::Edit(p).rewrite({}, 0, 2, {PassNode::make()}), InternalError);
  Cursor second = p.body_cursor()[1];
  Proc q = rw::Edit(p).rewrite({}, 1, 2, {PassNode::make()}).done();
  EXPECT_EQ(now(q, second), "pass");
}

TEST(EditBuilder, AnExpressionEditForwardsItsSubexpressionsAsTold) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM, y: f32[4] @ DRAM):
    x[0] = y[0] + y[1]
)");
  Cursor sum = p.find("y[0] + y[1]");
  Cursor lhs = sum.child(0);
  const BinOpNode* b = sum.expr().as<BinOpNode>();
  Expr swapped = BinOpNode::make(b->op, b->rhs, b->lhs);
  auto operands_swapped = [](std::vector<int> below) -> std::optional<std::vector<int>> {
    below[0] = 1 - below[0];
    return below;
  };
  Proc q = rw::Edit(p).expr(sum.loc(), swapped, operands_swapped).done();
  EXPECT_EQ(now(q, lhs), "y[0]");
  EXPECT_EQ(q.forward(lhs).loc().expr.back(), 1);
  Proc r = rw::Edit(p).expr(sum.loc(), swapped).done();
  EXPECT_FALSE(r.forward(lhs).is_valid());
}

// ---- The verbs that restructure statements: a cursor before, inside and after the edited
// statement each forward as the verb's rule in edit.h says.

const char* kLoop = R"(def f(x: f32[8] @ DRAM):
    x[0] = 0.0
    for i in seq(0, 4):
        x[i] = 1.0
        x[i + 4] = 2.0
    x[1] = 3.0
)";

Loc stmt_loc(BlockPath path, int at) {
  return Loc{CursorKind::Stmt, std::move(path), at, at + 1, {}};
}

TEST(EditBuilder, SplitSendsEachSideOfTheGapToItsCopy) {
  Proc p = parse_proc(kLoop);
  Cursor before = p.body_cursor()[0], loop = p.body_cursor()[1], after = p.body_cursor()[2];
  Cursor first = loop.body()[0], second = loop.body()[1];
  Cursor gap = second.before(), bound = loop.hi();
  const ForNode* f = loop.stmt().as<ForNode>();
  Stmt a = ForNode::make(f->iter, f->lo, f->hi, {f->body[0]}, f->mode);
  Stmt b = ForNode::make(f->iter, f->lo, f->hi, {f->body[1]}, f->mode);
  Proc q = rw::Edit(p).split({}, 1, BlockField::Body, 1, a, b).done();
  EXPECT_EQ(q.forward(before).loc(), stmt_loc({}, 0));
  EXPECT_EQ(q.forward(first).loc(), stmt_loc({{1, BlockField::Body}}, 0));
  EXPECT_EQ(q.forward(second).loc(), stmt_loc({{2, BlockField::Body}}, 0));
  EXPECT_EQ(now(q, second), "x[i + 4] = 2.0");
  EXPECT_EQ(q.forward(gap).loc(), (Loc{CursorKind::Gap, {}, 2, 2, {}}));
  EXPECT_EQ(q.forward(loop).loc(), stmt_loc({}, 1));  // the statement: its first copy
  EXPECT_EQ(q.forward(bound).loc().lo, 1);
  EXPECT_EQ(q.forward(after).loc(), stmt_loc({}, 3));
  EXPECT_THROW(rw::Edit(p).split({}, 1, BlockField::Body, 1, loop.stmt(), b), InternalError);
}

const char* kTwoLoops = R"(def f(x: f32[8] @ DRAM):
    x[0] = 0.0
    for i in seq(0, 4):
        x[2] = 1.0
    for j in seq(0, 4):
        x[3] = 2.0
    x[1] = 3.0
)";

TEST(EditBuilder, MergeAppendsTheSecondBodyAfterTheFirst) {
  Proc p = parse_proc(kTwoLoops);
  Cursor before = p.body_cursor()[0], l1 = p.body_cursor()[1], l2 = p.body_cursor()[2];
  Cursor after = p.body_cursor()[3];
  Cursor in1 = l1.body()[0], in2 = l2.body()[0];
  const ForNode *f1 = l1.stmt().as<ForNode>(), *f2 = l2.stmt().as<ForNode>();
  Stmt merged = ForNode::make(f1->iter, f1->lo, f1->hi, {f1->body[0], f2->body[0]}, f1->mode);
  Proc q = rw::Edit(p).merge({}, 1, merged).done();
  EXPECT_EQ(q.forward(before).loc(), stmt_loc({}, 0));
  EXPECT_EQ(q.forward(l1).loc(), stmt_loc({}, 1));
  EXPECT_EQ(q.forward(in1).loc(), stmt_loc({{1, BlockField::Body}}, 0));
  EXPECT_EQ(q.forward(in2).loc(), stmt_loc({{1, BlockField::Body}}, 1));
  EXPECT_EQ(now(q, in2), "x[3] = 2.0");
  EXPECT_FALSE(q.forward(l2).is_valid());
  EXPECT_FALSE(q.forward(l2.before()).is_valid());  // the gap between the two
  EXPECT_EQ(q.forward(after).loc(), stmt_loc({}, 2));
}

TEST(EditBuilder, MergeDroppingTheSecondInvalidatesItsBody) {
  Proc p = parse_proc(kTwoLoops);
  Cursor l1 = p.body_cursor()[1], l2 = p.body_cursor()[2], after = p.body_cursor()[3];
  Cursor in1 = l1.body()[0], in2 = l2.body()[0];
  const ForNode* f1 = l1.stmt().as<ForNode>();
  Stmt joined = ForNode::make(f1->iter, f1->lo, rw::int_const(8), f1->body, f1->mode);
  EXPECT_THROW(rw::Edit(p).merge({}, 1, joined), InternalError);  // not the two bodies
  Proc q = rw::Edit(p).merge({}, 1, joined, rw::Edit::Second::Dropped).done();
  EXPECT_EQ(q.forward(in1).loc(), stmt_loc({{1, BlockField::Body}}, 0));
  EXPECT_FALSE(q.forward(in2).is_valid());
  EXPECT_FALSE(q.forward(l2).is_valid());
  EXPECT_EQ(q.forward(after).loc(), stmt_loc({}, 2));
}

TEST(EditBuilder, InterchangeTradesTheTwoHeads) {
  Proc p = parse_proc(R"(def f(x: f32[8] @ DRAM):
    x[0] = 0.0
    for i in seq(0, 4):
        for j in seq(0, 2):
            x[i] = 1.0
    x[1] = 3.0
)");
  Cursor before = p.body_cursor()[0], outer = p.body_cursor()[1], after = p.body_cursor()[2];
  Cursor inner = outer.body()[0], in = inner.body()[0], outer_hi = outer.hi();
  const ForNode *o = outer.stmt().as<ForNode>(), *i = inner.stmt().as<ForNode>();
  Stmt with = ForNode::make(i->iter, i->lo, i->hi,
                            {ForNode::make(o->iter, o->lo, o->hi, i->body, o->mode)}, i->mode);
  Proc q = rw::Edit(p).interchange({}, 1, BlockField::Body, with).done();
  EXPECT_EQ(q.forward(outer).loc(), stmt_loc({{1, BlockField::Body}}, 0));
  EXPECT_EQ(now(q, outer), "for i in seq(0, 4):");
  EXPECT_EQ(now(q, outer_hi), "4");
  EXPECT_EQ(q.forward(inner).loc(), stmt_loc({}, 1));
  EXPECT_EQ(now(q, inner), "for j in seq(0, 2):");
  EXPECT_EQ(q.forward(in).loc(), in.loc());
  EXPECT_EQ(q.forward(before).loc(), before.loc());
  EXPECT_EQ(q.forward(after).loc(), after.loc());
}

TEST(EditBuilder, ExpandCoversTheNewStatementsWithTheOldOne) {
  Proc p = parse_proc(kThree);
  Cursor before = p.body_cursor()[0], call = p.body_cursor()[1], after = p.body_cursor()[2];
  Cursor rhs = call.rhs();
  Proc q = rw::Edit(p).expand({}, 1, {PassNode::make(), PassNode::make()}).done();
  EXPECT_EQ(q.forward(call).loc(), (Loc{CursorKind::Block, {}, 1, 3, {}}));
  EXPECT_FALSE(q.forward(rhs).is_valid());
  EXPECT_EQ(q.forward(before).loc(), before.loc());
  EXPECT_EQ(q.forward(after).loc(), stmt_loc({}, 3));
}

TEST(EditBuilder, CutKeepsTheInsideInTheFirstPart) {
  Proc p = parse_proc(kLoop);
  Cursor before = p.body_cursor()[0], loop = p.body_cursor()[1], after = p.body_cursor()[2];
  Cursor in = loop.body()[1];
  const ForNode* f = loop.stmt().as<ForNode>();
  Stmt a = ForNode::make(f->iter, f->lo, rw::int_const(2), f->body, f->mode);
  Stmt b = ForNode::make(f->iter.copy(), rw::int_const(2), f->hi, {PassNode::make()}, f->mode);
  Proc q = rw::Edit(p).cut({}, 1, a, b).done();
  EXPECT_EQ(q.forward(loop).loc(), stmt_loc({}, 1));
  EXPECT_EQ(q.forward(loop.as_block()).loc(), (Loc{CursorKind::Block, {}, 1, 3, {}}));
  EXPECT_EQ(q.forward(in).loc(), in.loc());
  EXPECT_EQ(q.forward(before).loc(), before.loc());
  EXPECT_EQ(q.forward(after).loc(), stmt_loc({}, 3));
  EXPECT_EQ(q.forward(loop.after()).loc(), (Loc{CursorKind::Gap, {}, 3, 3, {}}));
}

TEST(EditBuilder, SurroundShiftsTheStatementsPastWhatComesBefore) {
  Proc p = parse_proc(kThree);
  Cursor before = p.body_cursor()[0], mid = p.body_cursor()[1], after = p.body_cursor()[2];
  Cursor rhs = mid.rhs();
  Proc q = rw::Edit(p)
               .surround({}, 1, 2, {PassNode::make(), PassNode::make()}, {mid.stmt()},
                         {PassNode::make()})
               .done();
  EXPECT_EQ(q.body().size(), 6u);
  EXPECT_EQ(q.forward(mid).loc(), stmt_loc({}, 3));
  EXPECT_EQ(now(q, rhs), "2.0");
  EXPECT_EQ(q.forward(mid.as_block()).loc(), (Loc{CursorKind::Block, {}, 1, 5, {}}));
  EXPECT_EQ(q.forward(mid.before()).loc(), (Loc{CursorKind::Gap, {}, 1, 1, {}}));
  EXPECT_EQ(q.forward(mid.after()).loc(), (Loc{CursorKind::Gap, {}, 5, 5, {}}));
  EXPECT_EQ(q.forward(before).loc(), before.loc());
  EXPECT_EQ(q.forward(after).loc(), stmt_loc({}, 5));
}

const char* kSums = R"(def f(x: f32[4] @ DRAM, y: f32[4] @ DRAM):
    x[0] = y[0] + y[1]
    x[1] = y[2] * y[3]
    x[2] = y[0]
)";

TEST(EditBuilder, KeepChildMovesTheChildUpAndDropsTheRest) {
  Proc p = parse_proc(kSums);
  Cursor sum = p.find("y[0] + y[1]"), lhs = sum.child(0), rhs = sum.child(1);
  Cursor index = p.body_cursor()[0].idx()[0];
  Cursor before_stmt = p.body_cursor()[0], after = p.body_cursor()[1].rhs().child(0);
  Proc q = rw::Edit(p).keep_child(sum.loc(), 1).done();
  EXPECT_EQ(q.body_cursor()[0].current_line(), "x[0] = y[1]");
  EXPECT_EQ(q.forward(rhs).loc(), sum.loc());
  EXPECT_EQ(now(q, rhs), "y[1]");
  EXPECT_FALSE(q.forward(lhs).is_valid());
  EXPECT_FALSE(q.forward(sum).is_valid());
  EXPECT_EQ(q.forward(index).loc(), index.loc());
  EXPECT_EQ(q.forward(before_stmt).loc(), before_stmt.loc());
  EXPECT_EQ(now(q, after), "y[2]");
}

TEST(EditBuilder, RewriteExprsKeepsWhatDidNotChange) {
  Proc p = parse_proc(kSums);
  Cursor s0 = p.body_cursor()[0], s1 = p.body_cursor()[1], s2 = p.body_cursor()[2];
  Cursor sum = s0.rhs(), lhs = sum.child(0), index = s0.idx()[0];
  Cursor product_lhs = s1.rhs().child(0), after = s2.rhs();
  const AssignNode* a = s0.stmt().as<AssignNode>();
  Stmt changed = AssignNode::make(a->name, a->type, a->idx, a->rhs.as<BinOpNode>()->rhs);
  Proc q = rw::Edit(p).rewrite_exprs({}, 0, 2, {changed, s1.stmt()}).done();
  EXPECT_EQ(q.forward(s0).loc(), s0.loc());
  EXPECT_EQ(now(q, sum), "y[1]");  // a top-level expression stays, changed or not
  EXPECT_FALSE(q.forward(lhs).is_valid());
  EXPECT_EQ(q.forward(index).loc(), index.loc());
  EXPECT_EQ(now(q, product_lhs), "y[2]");  // inside an unchanged expression
  EXPECT_EQ(now(q, after), "y[0]");
  EXPECT_THROW(rw::Edit(p).rewrite_exprs({}, 0, 2, {changed}), InternalError);
}

TEST(EditBuilder, TheHeaderChangesThroughNode) {
  Proc p = parse_proc(kThree);
  rw::Edit edit(p);
  edit.node().name = "g";
  Proc q = edit.done();
  EXPECT_EQ(q.name(), "g");
  EXPECT_EQ(p.name(), "f");
  EXPECT_TRUE(q.parent().same_as(p));
}

TEST(ProcNodeMake, AnArgumentBoundTwiceIsAnInternalError) {
  Proc p = parse_proc(kThree);
  std::vector<FnArg> args = p.args();
  args.push_back(args[0]);
  EXPECT_THROW(ProcNode::make("g", args, {}, p.body()), InternalError);
}

TEST(ProcNodeMake, ADataArgumentWithoutAMemoryIsAnInternalError) {
  Proc p = parse_proc(kThree);
  std::vector<FnArg> args = p.args();
  args[0].mem = "";
  EXPECT_THROW(ProcNode::make("g", args, {}, p.body()), InternalError);
}

TEST(ProcNodeMake, AFreshNodeStartsItsOwnEquivalenceClass) {
  Proc p = parse_proc(kThree);
  auto n = ProcNode::make("g", p.args(), {}, p.body());
  EXPECT_NE(n->eqv_class, p->eqv_class);
}

}  // namespace
