// Validation mode (rewrites/validate.h): every accepted operation is checked against its input
// in the interpreter; a test-only operation that changes what a proc computes is caught.
#include "core/ir_visit.h"
#include "rewrite_test_util.h"
#include "rewrites/configs.h"
#include "rewrites/internal/operation.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// A broken "operation": replaces every data literal `from` by `to`, through run_op and
// derive_proc like every real one.
Proc change_constant(const Proc& p, double from, double to,
                     const std::string& op = "change_constant") {
  return rw::run_op(op, [&]() -> Proc {
    struct M : IRMutator {
      double from, to;
      Expr mutate_Const(const ConstNode* n, const Expr& e) override {
        if (n->val != from || n->type.base == ScalarKind::Int || n->type.base == ScalarKind::Bool)
          return e;
        return ConstNode::make_float(to, n->type.base, e.srcinfo());
      }
    } m;
    m.from = from;
    m.to = to;
    return derive_proc(p, m.mutate(p.body()), fwd_identity());
  });
}

// A broken "operation" for integer precision: `x * 2 / 2` --> `x` (wrong when x * 2 wraps at 32
// bits, that is for i32 values near the limits only).
Proc drop_mul_div(const Proc& p) {
  return rw::run_op("drop_mul_div", [&]() -> Proc {
    struct M : IRMutator {
      Expr mutate_BinOp(const BinOpNode* n, const Expr& e) override {
        if (n->op == BinOpKind::Div)
          if (const BinOpNode* l = n->lhs.as<BinOpNode>(); l && l->op == BinOpKind::Mul)
            return l->lhs;
        return IRMutator::mutate_BinOp(n, e);
      }
    } m;
    return derive_proc(p, m.mutate(p.body()), fwd_identity());
  });
}

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 2.0
)";

TEST(ValidationMode, CatchesAnOperationThatChangesAConstant) {
  ValidationScope on;
  Proc p = parse_proc(kSrc);
  try {
    change_constant(p, 2.0, 3.0);
    FAIL() << "the broken operation was not caught";
  } catch (const InternalError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("validation: change_constant changed what proc 'f' computes"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("A[0] is 2 before and 3 after"), std::string::npos) << msg;
    EXPECT_NE(msg.find("seed"), std::string::npos) << msg;
    EXPECT_NE(msg.find("N = "), std::string::npos) << msg;
  }
}

TEST(ValidationMode, OffByDefaultInAScope) {
  ValidationScope off(false);
  Proc p = parse_proc(kSrc);
  EXPECT_NO_THROW(change_constant(p, 2.0, 3.0));
}

TEST(ValidationMode, ScopeRestoresThePreviousSetting) {
  bool before = validation_enabled();
  {
    ValidationScope on;
    EXPECT_TRUE(validation_enabled());
    {
      ValidationScope off(false);
      EXPECT_FALSE(validation_enabled());
    }
    EXPECT_TRUE(validation_enabled());
  }
  EXPECT_EQ(validation_enabled(), before);
}

TEST(ValidationMode, EnvironmentVariableTurnsItOn) {
  const char* env = std::getenv("EXOCPP_VALIDATE");
  if (env && *env && std::string(env) != "0")
    EXPECT_TRUE(validation_enabled());
  else
    EXPECT_FALSE(validation_enabled());
}

TEST(ValidationMode, AcceptsASoundOperationAndCountsIt) {
  ValidationScope on;
  Proc p = parse_proc(kSrc);
  ValidationStats s0 = validation_stats();
  Proc q = divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Cut});
  ValidationStats s1 = validation_stats();
  EXPECT_EQ(s1.operations, s0.operations + 1);  // the composite's inner steps are not counted
  EXPECT_EQ(s1.compared, s0.compared + 1);
  EXPECT_GT(s1.trials, s0.trials);
  expect_equivalent(p, q);
}

TEST(ValidationMode, NestedOperationsValidateOnceAtTheOuterLevel) {
  ValidationScope on;
  Proc p = parse_proc(kSrc);
  ValidationStats s0 = validation_stats();
  try {
    rw::run_op("outer_op", [&]() -> Proc {
      Proc q = change_constant(p, 2.0, 3.0, "inner_op");  // not validated here
      return change_constant(q, 3.0, 2.0, "inner_op");    // and the net effect is none
    });
  } catch (const InternalError& e) {
    FAIL() << e.what();
  }
  EXPECT_EQ(validation_stats().operations, s0.operations + 1);
  try {
    rw::run_op("outer_op", [&]() -> Proc { return change_constant(p, 2.0, 5.0, "inner_op"); });
    FAIL() << "not caught";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("validation: outer_op changed"), std::string::npos)
        << e.what();
  }
}

TEST(ValidationMode, IntegerValuesNearTheirLimitsAreTried) {
  ValidationScope on;
  Proc p = parse_proc(R"(def f(x: i32[4] @ DRAM, a: i32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 / 2
)");
  try {
    drop_mul_div(p);
    FAIL() << "not caught";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("drop_mul_div changed what proc 'f' computes: a["),
              std::string::npos)
        << e.what();
  }
}

TEST(ValidationMode, ConfigReadsBeforeAnyWriteAreGivenInitialValues) {
  ValidationScope on;
  Module m = parse_module(R"(config C:
    n: index

def f(A: f32[8] @ DRAM):
    assert C.n <= 8
    for i in seq(0, C.n):
        A[i] = 2.0
)");
  try {
    change_constant(m.proc("f"), 2.0, 3.0);
    FAIL() << "not caught";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("initial configs: C.n = "), std::string::npos) << e.what();
  }
}

TEST(ValidationMode, NoFalseAlarmWhenTheInputCannotRun) {
  ValidationScope on;
  // Out of bounds for every N: the input proc never runs, so nothing can be compared.
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    A[N] = 2.0
)");
  EXPECT_NO_THROW(change_constant(p, 2.0, 3.0));
}

TEST(ValidationMode, ResultThatFailsWhereTheInputRunsIsCaught) {
  ValidationScope on;
  Proc p = parse_proc(kSrc);
  try {
    rw::run_op("widen_loop", [&]() -> Proc {
      Stmt s = p.body()[0];
      const ForNode* f = s.as<ForNode>();
      Expr hi = BinOpNode::make(BinOpKind::Add, f->hi, ConstNode::make_int(1));
      Stmt loop = ForNode::make(f->iter, f->lo, hi, f->body, f->mode, s.srcinfo());
      return derive_proc(p, Block{loop}, fwd_identity());
    });
    FAIL() << "not caught";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("the result fails where the input runs"),
              std::string::npos)
        << e.what();
  }
}

TEST(ValidationMode, SetPrecisionIsNotCompared) {
  ValidationScope on;
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32 @ DRAM
    t = A[0] * 100.0
    A[1] = t
)");
  EXPECT_NO_THROW(set_precision(p, "t", "i8"));
}

TEST(ValidationMode, DeleteConfigMayChangeTheFinalConfigState) {
  ValidationScope on;
  Module m = parse_module(R"(config C:
    n: index

def f(A: f32[8] @ DRAM):
    A[0] = 1.0
    C.n = 3
)");
  Proc q = delete_config(m.proc("f"), "C.n = _");
  EXPECT_EQ(q.body().size(), 1u);
}

}  // namespace
