// rw::Edit: each verb changes the body and forwards cursors to match, so a cursor taken on the
// input and forwarded to the result names the statement the verb says it became.
#include "core/printer.h"
#include "rewrite_test_util.h"
#include "rewrites/internal/edit.h"
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
