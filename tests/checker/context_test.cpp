// Contexts: located by path (exact), and refused when found by a node that occurs twice.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "checker/checker.h"

using namespace exocpp;
using namespace exocpp::checker;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        if i < 4:
            A[i] = 1.0
        else:
            A[i] = 2.0
)";

TEST(ContextAtPath, CollectsLoopsConditionsAndAllocationsOnTheWay) {
  Proc p = parse_module(kSrc).proc("f");
  Context c = Context::at(p, {{0, BlockField::Body}, {1, BlockField::Orelse}}, 0);
  ASSERT_EQ(c.scopes().size(), 3u);
  EXPECT_EQ(c.scopes()[0].kind, Scope::Loop);
  EXPECT_EQ(c.scopes()[1].kind, Scope::Alloc);
  EXPECT_EQ(c.scopes()[2].kind, Scope::Cond);
  EXPECT_TRUE(c.scopes()[2].negated);
}

TEST(ContextAtPath, ElseBranchContextRefutesTheThenCondition) {
  Proc p = parse_module(kSrc).proc("f");
  Context c = Context::at(p, {{0, BlockField::Body}, {1, BlockField::Orelse}}, 0);
  std::vector<ScopeVar> scope = {{p.args()[0].name, p.args()[0].type},
                                 {p.body()[0].as<ForNode>()->iter, Type(ScalarKind::Index)}};
  EXPECT_TRUE(always_true(c, parse_expr("i >= 4", scope)).proved());
}

TEST(ContextAtNode, RefusesAStatementThatOccursTwice) {
  Proc p = parse_module(kSrc).proc("f");
  Stmt loop = p.body()[0];
  auto twice = std::make_shared<ProcNode>(*p.get());
  twice->body = {loop, loop};
  Proc q(twice);
  Stmt inner = loop.as<ForNode>()->body[1];
  try {
    (void)Context::at(q, inner);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("occurs at several places"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(Context::at(q, {{1, BlockField::Body}}, 1).scopes().size(), 2u);
}

}  // namespace
