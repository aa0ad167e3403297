// Window views and bindings (core/window_alias.h): roots, parents, chains and the names of a
// buffer's storage; composition of nested windows; points dropping dimensions; root_dim; the
// view a call argument hands its callee; bind/unbind.
#include "core/window_alias.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "core/printer.h"

using namespace exocpp;

namespace {

const char* kSrc = R"(
def g(n: size, x: [f32][2] @ DRAM, e: f32 @ DRAM):
    pass

def f(N: size, A: f32[N, 16, 8] @ DRAM, B: f32[16] @ DRAM):
    w = A[2:N, 3, 0:8]
    v = w[1:3, 4]
    u = B[4:12]
    g(N, v[0:2], A[0, 1, 2])
    g(N, u[0:2], w[1, 2])
    g(N, B[0:2], B[5])
)";

struct Names {
  Proc f;
  Sym N, A, B, w, v, u;
};

Names names() {
  Names n;
  n.f = parse_module(kSrc).proc("f");
  n.N = n.f.args()[0].name;
  n.A = n.f.args()[1].name;
  n.B = n.f.args()[2].name;
  n.w = n.f.body()[0].as<WindowStmtNode>()->name;
  n.v = n.f.body()[1].as<WindowStmtNode>()->name;
  n.u = n.f.body()[2].as<WindowStmtNode>()->name;
  return n;
}

// Argument `arg` of the `k`th call of f (statements 3, 4, 5).
Expr call_arg(const Names& n, size_t k, size_t arg) {
  return n.f.body()[3 + k].as<CallNode>()->args[arg];
}

std::vector<std::string> texts(const std::vector<Expr>& es) {
  std::vector<std::string> out;
  for (const Expr& e : es) out.push_back(to_string(e));
  return out;
}

// Each access as "lo" (a point) or "lo:hi" (an interval).
std::vector<std::string> texts(const std::vector<WAccess>& as) {
  std::vector<std::string> out;
  for (const WAccess& a : as)
    out.push_back(a.is_interval ? to_string(a.lo) + ":" + to_string(a.hi) : to_string(a.lo));
  return out;
}

using Strings = std::vector<std::string>;

TEST(WindowAliases, AnUnboundNameIsItsOwnRootAndParent) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  EXPECT_EQ(al.root(n.A), n.A);
  EXPECT_EQ(al.parent(n.A), n.A);
  EXPECT_TRUE(al.view(n.A).is_identity());
}

TEST(WindowAliases, AWindowOfABufferHasItAsRootAndParent) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  EXPECT_EQ(al.root(n.w), n.A);
  EXPECT_EQ(al.parent(n.w), n.A);
}

TEST(WindowAliases, AWindowOfAWindowHasTheBufferAsRootAndTheWindowAsParent) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  EXPECT_EQ(al.root(n.v), n.A);
  EXPECT_EQ(al.parent(n.v), n.w);
}

TEST(WindowAliases, TheChainRunsFromTheNameToItsRoot) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  EXPECT_EQ(al.chain(n.v), (std::vector<Sym>{n.v, n.w, n.A}));
  EXPECT_EQ(al.chain(n.B), (std::vector<Sym>{n.B}));
}

TEST(WindowAliases, NamesOfABufferAreItThenItsWindowsInBindingOrder) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  EXPECT_EQ(al.names_of(n.A), (std::vector<Sym>{n.A, n.w, n.v}));
  EXPECT_EQ(al.names_of(n.B), (std::vector<Sym>{n.B, n.u}));
}

TEST(WindowView, ANestedWindowComposesItsOffsetsOntoTheRoot) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  // v = w[1:3, 4] with w = A[2:N, 3, 0:8]: A[2 + 1 : 2 + 3, 3, 4].
  EXPECT_EQ(texts(al.view(n.v).dims), (Strings{"2 + 1:2 + 3", "3", "4"}));
}

TEST(WindowView, APointDropsItsDimension) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  EXPECT_EQ(al.view(n.w).rank(), 2);
  EXPECT_EQ(al.view(n.w).kept(), (std::vector<int>{0, 2}));
  EXPECT_EQ(al.view(n.v).rank(), 1);
  EXPECT_EQ(al.view(n.v).kept(), (std::vector<int>{0}));
}

TEST(WindowView, RootDimSkipsThePointsOfTheView) {
  Names n = names();
  WindowView w = WindowAliases::of_proc(n.f).view(n.w);
  EXPECT_EQ(w.root_dim(0), 0);
  EXPECT_EQ(w.root_dim(1), 2);
  EXPECT_EQ(w.root_dim(2), std::nullopt);
}

TEST(WindowView, RootDimOfTheIdentityViewIsTheDimItself) {
  WindowView whole{Sym("A"), {}};
  EXPECT_EQ(whole.root_dim(1), 1);
  EXPECT_EQ(whole.rank(), -1);
}

TEST(WindowView, ToRootOffsetsIntervalsAndKeepsPoints) {
  Names n = names();
  WindowView w = WindowAliases::of_proc(n.f).view(n.w);
  std::vector<Expr> idx{ConstNode::make_int(5), ConstNode::make_int(0)};
  // w[5, 0] is A[2 + 5, 3, 0]: the constant 0 added is dropped.
  EXPECT_EQ(texts(w.to_root(idx)), (Strings{"2 + 5", "3", "0"}));
}

TEST(WindowView, ComposeAddsWithTheGivenArithmetic) {
  Names n = names();
  WindowView w = WindowAliases::of_proc(n.f).view(n.w);
  IndexAdd fold = [](const Expr& a, const Expr& b) -> Expr {
    const ConstNode* x = a.as<ConstNode>();
    const ConstNode* y = b.as<ConstNode>();
    if (x && y) return ConstNode::make_int(x->int_val() + y->int_val());
    return add_offset(a, b);
  };
  std::vector<WAccess> inner{WAccess::interval(ConstNode::make_int(1), ConstNode::make_int(3)),
                             WAccess::point(ConstNode::make_int(4))};
  EXPECT_EQ(texts(w.compose(inner, fold).dims), (Strings{"3:5", "3", "4"}));
}

TEST(WindowAliases, ViewOfAWholeBufferArgumentIsTheIdentity) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  Expr whole = ReadNode::make(n.A, {}, n.f.args()[1].type);
  std::optional<WindowView> v = al.view_of_arg(whole);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->root, n.A);
  EXPECT_TRUE(v->is_identity());
}

TEST(WindowAliases, ViewOfAWindowVariableArgumentIsItsView) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  Expr whole_w = ReadNode::make(n.w, {}, n.f.body()[0].as<WindowStmtNode>()->rhs.type());
  std::optional<WindowView> v = al.view_of_arg(whole_w);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->root, n.A);
  EXPECT_EQ(texts(v->dims), (Strings{"2:N", "3", "0:8"}));
}

TEST(WindowAliases, ViewOfAWindowArgumentComposesItWithItsName) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  // u[0:2] with u = B[4:12].
  std::optional<WindowView> v = al.view_of_arg(call_arg(n, 1, 1));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->root, n.B);
  EXPECT_EQ(texts(v->dims), (Strings{"4:4 + 2"}));
}

TEST(WindowAliases, ViewOfAnElementArgumentIsAllPoints) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  // w[1, 2] with w = A[2:N, 3, 0:8]: A[2 + 1, 3, 2].
  std::optional<WindowView> v = al.view_of_arg(call_arg(n, 1, 2));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->root, n.A);
  EXPECT_EQ(texts(v->dims), (Strings{"2 + 1", "3", "2"}));
  EXPECT_EQ(v->rank(), 0);
}

TEST(WindowAliases, AControlArgumentHasNoView) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  EXPECT_FALSE(al.view_of_arg(call_arg(n, 0, 0)).has_value());  // N
  EXPECT_FALSE(al.view_of_arg(ConstNode::make_int(3)).has_value());
}

TEST(WindowAliases, UnbindMakesTheNameItsOwnRootAgain) {
  Names n = names();
  WindowAliases al = WindowAliases::of_proc(n.f);
  al.unbind(n.u);
  EXPECT_EQ(al.root(n.u), n.u);
  EXPECT_EQ(al.names_of(n.B), (std::vector<Sym>{n.B}));
}

TEST(WindowAliases, ABindingIsResolvedWhenItIsMade) {
  Names n = names();
  WindowAliases al;
  al.bind(n.w, *n.f.body()[0].as<WindowStmtNode>()->rhs.as<WindowExprNode>());
  al.bind(n.v, *n.f.body()[1].as<WindowStmtNode>()->rhs.as<WindowExprNode>());
  al.unbind(n.w);  // v's bounds were evaluated through w's binding: v still views A
  EXPECT_EQ(al.root(n.v), n.A);
}

TEST(WindowAliases, ACalleeParameterBoundToAViewHasItsRootAsParent) {
  Names n = names();
  Sym x("x");
  WindowAliases al;
  al.bind(x, WindowView{n.A,
                        {WAccess::point(ConstNode::make_int(0)),
                         WAccess::interval(ConstNode::make_int(0), ConstNode::make_int(16)),
                         WAccess::point(ConstNode::make_int(1))}});
  EXPECT_EQ(al.root(x), n.A);
  EXPECT_EQ(al.parent(x), n.A);
  EXPECT_EQ(al.view(x).root_dim(0), 1);
}

}  // namespace
