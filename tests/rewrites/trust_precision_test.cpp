// Issue 11, class 3: rewrites that bind, inline, split, merge or regroup data expressions keep
// integer values exactly (the interpreter's promotion to 32-bit int and wrap at the store) and
// never round a value to a narrower precision (rewrites/internal/precision.h).
#include <gtest/gtest.h>

#include "rewrite_test_util.h"

namespace exocpp::testing {
namespace {

// Integer inputs near the limits of i8 (products and sums overflow i8 but not i32).
CompareProcsOptions near_limits(int lo = 64, int hi = 120) {
  CompareProcsOptions o;
  o.trials = 4;
  o.inputs.lo = lo;
  o.inputs.hi = hi;
  return o;
}

void expect_refused(const std::function<Proc()>& op, const std::string& phrase) {
  try {
    Proc q = op();
    ADD_FAILURE() << "accepted:\n" << q;
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
}

const char* kI8Wrap = R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 / 2
)";

// Redteam 05: binding `x[i] * 2` (computed in 32-bit int) into an i8 temporary wrapped it.
TEST(TrustPrecision, BindExprIntegerArithmeticGetsI32Temporary) {
  Proc p = parse_proc(kI8Wrap);
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
}

TEST(TrustPrecision, BindExprReadKeepsItsOwnType) {
  Proc p = parse_proc(kI8Wrap);
  Proc q = bind_expr(p, p.find("x[_]"), "t");
  EXPECT_NE(to_string(q).find("t: i8 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
}

// `x[i] * 2` reaches the i8 store only through a sum: the store keeps the result modulo 2^8,
// which the i8 temporary's wrap does not change, so the temporary stays i8.
TEST(TrustPrecision, BindExprWrapsIntoAStoreNoWiderThanItsType) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, y: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 + y[i]
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i8 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
  expect_equivalent(p, q, {}, near_limits(-128, 127));
}

// Halide's uint16 sums: `(a + b) + c` stored into ui16, `a + b` bound into ui16.
TEST(TrustPrecision, BindExprKeepsAWrappingUnsignedSumInItsType) {
  Proc p = parse_proc(R"(
def f(x: ui16[4] @ DRAM, a: ui16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] + x[3 - i] - x[i] * x[i]
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: ui16 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits(40000, 65535));
}

// Into an i32 store the i8 wrap would change the result: the temporary is i32.
TEST(TrustPrecision, BindExprIntoAWiderStoreKeepsTheValue) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, y: i8[4] @ DRAM, a: i32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 + y[i]
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits());
}

// Under a division the operand's high bits matter: the temporary is i32.
TEST(TrustPrecision, BindExprUnderADivisionKeepsTheValue) {
  Proc p = parse_proc(R"(
def f(x: ui16[4] @ DRAM, a: ui16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = (x[i] + x[i]) / 3
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: i32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q, {}, near_limits(40000, 65535));
}

TEST(TrustPrecision, BindExprUnsignedArithmeticGetsI32) {
  Proc p = parse_proc(R"(
def f(x: ui8[4] @ DRAM, a: ui16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = (x[i] + x[i]) / 3
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  expect_equivalent(p, q, {}, near_limits(100, 250));
}

TEST(TrustPrecision, BindExprFloatKeepsType) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, a: f32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 3.0 + 1.0
)");
  Proc q = bind_expr(p, p.find("a[_] = _").rhs().child(0), "t");
  EXPECT_NE(to_string(q).find("t: f32 @ DRAM"), std::string::npos) << q;
  expect_equivalent(p, q);
}

TEST(TrustPrecision, BindExprRefusesInexactLiteral) {
  Proc p = parse_proc(R"(
def f(x: f16[4] @ DRAM, a: f16[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 0.1
)");
  expect_refused([&] { return bind_expr(p, p.find("a[_] = _").rhs().child(1), "t"); },
                 "no buffer precision");
}

// The mirror of redteam 05: inlining a wrapping i8 temporary.
TEST(TrustPrecision, InlineAssignRefusesWrappingTemporary) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        t: i8 @ DRAM
        t = x[i] * 2
        a[i] = t / 2
)");
  expect_refused([&] { return inline_assign(p, "t = _"); }, "does not hold the value");
}

TEST(TrustPrecision, InlineAssignRefusesNarrowingFloatTemporary) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, a: f32[4] @ DRAM):
    for i in seq(0, 4):
        t: f16 @ DRAM
        t = x[i]
        a[i] = t
)");
  expect_refused([&] { return inline_assign(p, "t = _"); }, "does not hold the value");
}

TEST(TrustPrecision, InlineAssignAcceptsWideTemporary) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        t: i32 @ DRAM
        t = x[i] * 2
        a[i] = t / 2
)");
  Proc q = inline_assign(p, "t = _");
  expect_equivalent(p, q, {}, near_limits());
}

TEST(TrustPrecision, MergeWritesRefusesFloatValueIntoIntegerBuffer) {
  Proc p = parse_proc(R"(
def f(x: R[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] / 2.0
        a[i] += x[i] / 2.0
)");
  expect_refused([&] { return merge_writes(p, "a[_] = _"); }, "rounds or wraps");
}

TEST(TrustPrecision, MergeWritesIntegerSumsWrapAlike) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2
        a[i] += x[i] * 3
)");
  Proc q = merge_writes(p, "a[_] = _");
  expect_equivalent(p, q, {}, near_limits());
}

TEST(TrustPrecision, SplitWriteRefusesFloatPartIntoIntegerBuffer) {
  Proc p = parse_proc(R"(
def f(x: R[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] / 2.0 + x[i] / 2.0
)");
  expect_refused([&] { return split_write(p, "a[_] = _"); }, "would round or wrap");
}

TEST(TrustPrecision, SplitWriteIntegerSumsWrapAlike) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 + x[i] * 3
)");
  Proc q = split_write(p, "a[_] = _");
  expect_equivalent(p, q, {}, near_limits());
}

TEST(TrustPrecision, FoldIntoReduceRefusesNarrowerExpression) {
  // `a[i] + x[i]` is f32 (R unifies), rounded before the store into the R buffer.
  Proc q = parse_proc(R"(
def g(x: f32[4] @ DRAM, a: R[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = a[i] + x[i]
)");
  expect_refused([&] { return fold_into_reduce(q, "a[_] = _"); }, "a reduction would not round it");
}

TEST(TrustPrecision, FoldIntoReduceIntegerAccepted) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = a[i] + x[i] * 3
)");
  Proc q = fold_into_reduce(p, "a[_] = _");
  expect_equivalent(p, q, {}, near_limits());
}

TEST(TrustPrecision, LeftReassociateIntegerWrapsAlike) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, y: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * (y[i] * x[i])
)");
  Proc q = left_reassociate_expr(p, p.find("a[_] = _").rhs());
  expect_equivalent(p, q, {}, near_limits());
}

TEST(TrustPrecision, SetPrecisionLeavesEquivalenceClass) {
  Proc f = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        t: i32 @ DRAM
        t = x[i] * 2
        a[i] = t / 2
)");
  Proc g = set_precision(f, "t", "i8");
  EXPECT_FALSE(procs_equivalent(f, g));
  EXPECT_TRUE(procs_equivalent(f, set_precision(f, "t", "i32")));
}

}  // namespace
}  // namespace exocpp::testing
