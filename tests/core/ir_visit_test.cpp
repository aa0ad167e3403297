// One-off walks (core/ir_visit.h): for_each_expr and for_each_stmt reach every node IRVisitor
// reaches, each node before its children, in program order; map_exprs rewrites what its
// function replaces and shares the rest.
#include "core/ir_visit.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "core/printer.h"

using namespace exocpp;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    t: f32[N + 1] @ DRAM
    for i in seq(0, N):
        if i < 2:
            A[i] = B[i] * 2.0
        w = B[i:N]
)";

std::vector<std::string> printed_exprs(const Block& b) {
  std::vector<std::string> out;
  for_each_expr(b, [&](const Expr& e) { out.push_back(to_string(e)); });
  return out;
}

TEST(ForEachExpr, VisitsEachExpressionBeforeItsChildrenInProgramOrder) {
  Proc p = parse_module(kSrc).proc("f");
  std::vector<std::string> want = {"N + 1", "N",          "1",    "0", "N",   "i < 2",  "i", "2",
                                   "i",     "B[i] * 2.0", "B[i]", "i", "2.0", "B[i:N]", "i", "N"};
  EXPECT_EQ(printed_exprs(p.body()), want);
}

TEST(ForEachExpr, WalksASingleExpression) {
  Proc p = parse_module(kSrc).proc("f");
  const Expr& rhs = p.body()[1].as<ForNode>()->body[0].as<IfNode>()->body[0].as<AssignNode>()->rhs;
  int reads = 0;
  for_each_expr(rhs, [&](const Expr& e) { reads += e.is<ReadNode>(); });
  EXPECT_EQ(reads, 2);  // B[i] and i
}

TEST(ForEachStmt, VisitsEachStatementBeforeItsBody) {
  Proc p = parse_module(kSrc).proc("f");
  std::vector<StmtKind> kinds;
  for_each_stmt(p.body(), [&](const Stmt& s) { kinds.push_back(s.kind()); });
  EXPECT_EQ(kinds, (std::vector<StmtKind>{StmtKind::Alloc, StmtKind::For, StmtKind::If,
                                          StmtKind::Assign, StmtKind::WindowStmt}));
}

// Every read of the loop iterator i becomes i + 1: in indices, conditions and window bounds.
TEST(MapExprs, ReplacesEveryMatchingExpression) {
  Proc p = parse_module(kSrc).proc("f");
  const Sym i = p.body()[1].as<ForNode>()->iter;
  Block b = map_exprs(p.body(), [&](const Expr& e) -> std::optional<Expr> {
    const ReadNode* r = e.as<ReadNode>();
    if (!r || r->name != i) return std::nullopt;
    return BinOpNode::make(BinOpKind::Add, e, ConstNode::make_int(1));
  });
  std::string out = to_string(b);
  EXPECT_NE(out.find("if i + 1 < 2:"), std::string::npos) << out;
  EXPECT_NE(out.find("A[i + 1] = B[i + 1] * 2.0"), std::string::npos) << out;
  EXPECT_NE(out.find("w = B[i + 1:N]"), std::string::npos) << out;
}

// A replacement is not walked again: replacing i by i + 1 once does not loop forever or nest.
TEST(MapExprs, DoesNotEnterAReplacement) {
  Proc p = parse_module(kSrc).proc("f");
  const Sym i = p.body()[1].as<ForNode>()->iter;
  int calls = 0;
  Expr e = BinOpNode::make(BinOpKind::Mul, ReadNode::make(i, {}, Type(ScalarKind::Index)),
                           ConstNode::make_int(2));
  Expr m = map_exprs(e, [&](const Expr& x) -> std::optional<Expr> {
    ++calls;
    if (x.is<ReadNode>()) return BinOpNode::make(BinOpKind::Add, x, ConstNode::make_int(1));
    return std::nullopt;
  });
  EXPECT_EQ(to_string(m), "(i + 1) * 2");
  EXPECT_EQ(calls, 3);  // the product, the read (replaced), the constant
}

// What the function leaves alone is shared, not copied.
TEST(MapExprs, SharesWhatItDoesNotChange) {
  Proc p = parse_module(kSrc).proc("f");
  Block b = map_exprs(p.body(), [](const Expr&) -> std::optional<Expr> { return std::nullopt; });
  EXPECT_TRUE(same_nodes(b, p.body()));
}

}  // namespace
