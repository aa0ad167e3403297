// effects_of and Context: accesses with windows resolved, callee effects substituted, config
// fields, guards and private allocations; contexts collecting what encloses a statement.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

std::string idx_text(const Access& a) {
  std::string s;
  for (const Expr& e : a.idx) s += (s.empty() ? "" : ", ") + to_string(e);
  return a.buffer.name() + "[" + s + "]";
}

TEST(Effects, AssignReadsItsRightHandSideAndWritesItsTarget) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    x[1] = y[2] + y[3]
)");
  Effects e = effects_of(Context::top(p), p.body());
  ASSERT_EQ(e.accesses.size(), 3u);
  EXPECT_EQ(e.accesses[0].kind, AccessKind::Read);
  EXPECT_EQ(idx_text(e.accesses[0]), "y[2]");
  EXPECT_EQ(idx_text(e.accesses[1]), "y[3]");
  EXPECT_EQ(e.accesses[2].kind, AccessKind::Write);
  EXPECT_EQ(idx_text(e.accesses[2]), "x[1]");
}

TEST(Effects, WindowAccessIsResolvedToTheParentBuffer) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, 16] @ DRAM):
    for i in seq(0, n):
        w = x[i, 4:12]
        v = w[2:6]
        v[1] += 1.0
)");
  const Block& body = loop(p, "i").as<ForNode>()->body;
  Effects e = effects_of(Context::at(p, body[2]), Block{body[2]});
  ASSERT_EQ(e.accesses.size(), 1u);
  EXPECT_EQ(e.accesses[0].kind, AccessKind::Reduce);
  EXPECT_EQ(idx_text(e.accesses[0]), "x[i, 4 + 2 + 1]");
}

TEST(Effects, CalleeEffectsUseTheCallsArguments) {
  Proc p = parse_proc(R"(
def scale(m: size, a: [f32][m] @ DRAM, s: f32 @ DRAM):
    assert m % 2 == 0
    for k in seq(0, m):
        a[k] = a[k] * s
def f(n: size, x: f32[n, 8] @ DRAM, t: f32[4] @ DRAM):
    for i in seq(0, n):
        scale(8, x[i, 0:8], t[3])
)");
  Stmt call = nth(p, StmtKind::Call);
  Effects e = effects_of(Context::at(p, call), call);
  ASSERT_EQ(e.accesses.size(), 3u);
  EXPECT_EQ(idx_text(e.accesses[0]), "x[i, k]");
  EXPECT_EQ(idx_text(e.accesses[1]), "t[3]");
  EXPECT_EQ(idx_text(e.accesses[2]), "x[i, k]");
  EXPECT_EQ(e.accesses[2].kind, AccessKind::Write);
  ASSERT_EQ(e.accesses[2].loops.size(), 1u);
  EXPECT_EQ(to_string(e.accesses[2].loops[0].hi), "8");
  ASSERT_EQ(e.accesses[2].guards.size(), 1u);
  EXPECT_EQ(to_string(e.accesses[2].guards[0].cond), "8 % 2 == 0");
  EXPECT_TRUE(e.accesses[2].through_call);
}

TEST(Effects, ConfigFieldsAreLocationsWithoutIndices) {
  Proc p = parse_proc(R"(
config Cfg:
    a: f32
def f(x: f32[8] @ DRAM):
    Cfg.a = x[0]
    x[1] = Cfg.a
)");
  Effects e = effects_of(Context::top(p), p.body());
  ASSERT_EQ(e.accesses.size(), 4u);
  EXPECT_TRUE(e.accesses[1].is_config());
  EXPECT_EQ(e.accesses[1].kind, AccessKind::Write);
  EXPECT_EQ(e.accesses[1].field, "a");
  EXPECT_TRUE(e.accesses[2].is_config());
  EXPECT_EQ(e.accesses[2].kind, AccessKind::Read);
  EXPECT_TRUE(e.accesses[1].same_location_as(e.accesses[2]));
  EXPECT_FALSE(e.accesses[0].same_location_as(e.accesses[1]));
}

TEST(Effects, IfBranchesBecomeGuards) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[8] @ DRAM):
    if n < 4:
        x[0] = 1.0
    else:
        x[1] = 1.0
)");
  Effects e = effects_of(Context::top(p), p.body());
  ASSERT_EQ(e.accesses.size(), 2u);
  ASSERT_EQ(e.accesses[0].guards.size(), 1u);
  EXPECT_FALSE(e.accesses[0].guards[0].negated);
  ASSERT_EQ(e.accesses[1].guards.size(), 1u);
  EXPECT_TRUE(e.accesses[1].guards[0].negated);
  EXPECT_EQ(to_string(e.accesses[1].guards[0].cond), "n < 4");
}

TEST(Effects, AllocationsAndTopLevelPositionsAreRecorded) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM):
    t: f32[2] @ DRAM
    for k in seq(0, 2):
        t[k] = x[k]
    x[2] = t[1]
)");
  Effects e = effects_of(Context::top(p), p.body());
  EXPECT_TRUE(e.allocates(e.accesses[1].buffer));
  EXPECT_EQ(e.accesses[1].top, 1);
  EXPECT_EQ(e.accesses.back().top, 2);
  EXPECT_TRUE(e.uses(e.accesses[1].buffer));
}

TEST(Context, CollectsLoopsConditionsWindowsAndAllocations) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, 8] @ DRAM):
    t: f32 @ DRAM
    for i in seq(0, n):
        w = x[i, 0:8]
        if i < 3:
            pass
        else:
            w[0] = 1.0
)");
  Stmt target = nth(p, StmtKind::Assign);
  Context c = Context::at(p, target);
  ASSERT_EQ(c.scopes().size(), 4u);
  EXPECT_EQ(c.scopes()[0].kind, Scope::Alloc);
  EXPECT_EQ(c.scopes()[1].kind, Scope::Loop);
  EXPECT_EQ(c.scopes()[2].kind, Scope::Window);
  EXPECT_EQ(c.scopes()[3].kind, Scope::Cond);
  EXPECT_TRUE(c.scopes()[3].negated);
  ASSERT_NE(c.type_of(c.scopes()[2].name), nullptr);
  EXPECT_EQ(c.type_of(c.scopes()[2].name)->rank(), 1);
}

TEST(Context, StatementOutsideTheProcIsAnInternalError) {
  Proc p = parse_proc(R"(
def f(x: f32[8] @ DRAM):
    x[0] = 1.0
)");
  Proc q = parse_proc(R"(
def g(x: f32[8] @ DRAM):
    x[0] = 1.0
)");
  EXPECT_THROW(Context::at(p, q.body()[0]), InternalError);
}

}  // namespace
}  // namespace exocpp::checker::testing
