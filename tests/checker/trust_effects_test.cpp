// Issue 11, class 1 (expressions evaluated twice), checker side: the effect analysis records
// the config reads of every evaluated expression (window statements, indices, call arguments,
// callee asserts, allocation sizes), and value_unchanged_by decides whether code in between
// changes what an expression reads.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

const char* kCfg = R"(
config C:
    k: index
    n: index
)";

int config_reads(const Effects& e, const std::string& field) {
  int n = 0;
  for (const Access& a : e.accesses)
    if (a.is_config() && a.field == field && a.kind == AccessKind::Read) ++n;
  return n;
}

TEST(TrustEffects, WindowStatementReadsTheConfigsOfItsBounds) {
  Proc p = parse_proc(std::string(kCfg) + R"(
def f(A: f32[8] @ DRAM):
    w = A[C.k:C.k + 2]
    w[0] = 1.0
)");
  Effects e = effects_of(Context::top(p), Block{p.body()[0]});
  EXPECT_EQ(config_reads(e, "k"), 2);
}

TEST(TrustEffects, IndexExpressionsOfAssignmentsReadConfigs) {
  Proc p = parse_proc(std::string(kCfg) + R"(
def f(A: f32[8] @ DRAM, B: f32[8] @ DRAM):
    A[C.k] = B[C.n]
)");
  Effects e = effects_of(Context::top(p), p.body());
  EXPECT_EQ(config_reads(e, "k"), 1);
  EXPECT_EQ(config_reads(e, "n"), 1);
}

TEST(TrustEffects, WindowArgumentBoundsAndCalleeAssertsReadConfigs) {
  Proc p = parse_proc(std::string(kCfg) + R"(
def g(a: [f32][2] @ DRAM):
    assert C.n >= 0
    a[0] = 1.0

def f(A: f32[8] @ DRAM):
    g(A[C.k:C.k + 2])
)");
  Effects e = effects_of(Context::top(p), p.body());
  EXPECT_EQ(config_reads(e, "k"), 2);
  EXPECT_EQ(config_reads(e, "n"), 1);
}

TEST(TrustEffects, ValueUnchangedWhenNothingWritesWhatItReads) {
  Proc p = parse_proc(std::string(kCfg) + R"(
def f(A: f32[8] @ DRAM):
    C.k = 2
    for i in seq(0, C.k):
        A[i] = 1.0
)");
  const ForNode* l = loop(p, "i").as<ForNode>();
  Answer a = value_unchanged_by(Context::at(p, loop(p, "i")), l->hi, Block{loop(p, "i")});
  EXPECT_TRUE(a.proved()) << to_string(a);
}

TEST(TrustEffects, ValueChangesWhenTheCodeWritesItsConfig) {
  Proc p = parse_proc(std::string(kCfg) + R"(
def f(A: f32[8] @ DRAM):
    C.k = 2
    for i in seq(0, C.k):
        C.k = 1
        A[i] = 1.0
)");
  const ForNode* l = loop(p, "i").as<ForNode>();
  Answer a = value_unchanged_by(Context::at(p, loop(p, "i")), l->hi, Block{loop(p, "i")});
  ASSERT_TRUE(a.refuted()) << to_string(a);
  EXPECT_NE(a.counterexample.find("writes C.k"), std::string::npos) << a.counterexample;
}

TEST(TrustEffects, ValueChangesWhenACalleeWritesItsConfig) {
  Proc p = parse_proc(std::string(kCfg) + R"(
def g():
    C.k = 5

def f(A: f32[8] @ DRAM):
    C.k = 1
    g()
    A[C.k] = 1.0
)");
  Expr e = p.body()[2].as<AssignNode>()->idx[0];
  Answer a = value_unchanged_by(Context::at(p, p.body()[1]), e, Block{p.body()[1]});
  ASSERT_TRUE(a.refuted()) << to_string(a);
  EXPECT_NE(a.counterexample.find("a call writes C.k"), std::string::npos) << a.counterexample;
}

TEST(TrustEffects, DataValueChangesOnlyWhenTheSameLocationIsWritten) {
  Proc p = parse_proc(R"(
def f(A: f32[8] @ DRAM, x: f32 @ DRAM):
    x = A[1] * 2.0
    for i in seq(2, 8):
        A[i] = 0.0
    A[1] = 3.0
)");
  Expr e = p.body()[0].as<AssignNode>()->rhs;
  Answer disjoint = value_unchanged_by(Context::at(p, p.body()[1]), e, Block{p.body()[1]});
  EXPECT_TRUE(disjoint.proved()) << to_string(disjoint);
  Answer same = value_unchanged_by(Context::at(p, p.body()[1]), e, Block{p.body()[1], p.body()[2]});
  ASSERT_TRUE(same.refuted()) << to_string(same);
  EXPECT_NE(same.counterexample.find("writes A[1]"), std::string::npos) << same.counterexample;
}

}  // namespace
}  // namespace exocpp::checker::testing
