// same_constant: the one definition of "the same constant" (core/ir.h), and expr_equal and the
// pattern matcher, which compare constants through it.
#include <gtest/gtest.h>

#include <cmath>

#include "core/ir.h"
#include "core/ir_visit.h"

namespace exocpp {
namespace {

TEST(SameConstant, ZeroAndNegativeZeroDiffer) {
  EXPECT_FALSE(same_constant(0.0, -0.0));
  EXPECT_TRUE(same_constant(-0.0, -0.0));
}

TEST(SameConstant, NaNEqualsNothing) { EXPECT_FALSE(same_constant(std::nan(""), std::nan(""))); }

TEST(SameConstant, InfinitiesEqualThemselvesOnly) {
  EXPECT_TRUE(same_constant(INFINITY, INFINITY));
  EXPECT_FALSE(same_constant(INFINITY, -INFINITY));
}

TEST(SameConstant, TypesMustAgree) {
  EXPECT_FALSE(same_constant(*ConstNode::make_float(2.0, ScalarKind::F32).as<ConstNode>(),
                             *ConstNode::make_float(2.0, ScalarKind::R).as<ConstNode>()));
}

TEST(SameConstant, ExprEqualTellsZeroFromNegativeZero) {
  EXPECT_FALSE(expr_equal(ConstNode::make_float(0.0), ConstNode::make_float(-0.0)));
  EXPECT_TRUE(expr_equal(ConstNode::make_float(-0.0), ConstNode::make_float(-0.0)));
}

}  // namespace
}  // namespace exocpp
