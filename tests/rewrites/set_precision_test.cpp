// Tests of set_precision: a buffer's element type changes, and every access follows.
#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {
namespace {

TEST(SetPrecision, AllocationAndItsWindows) {
  Proc p = parse_proc(R"(
def foo(x: f32[8] @ DRAM):
    t: f32[8] @ DRAM
    w = t[4:8]
    for i in seq(0, 4):
        t[i] = x[i]
        w[i] = x[i + 4]
    for i in seq(0, 8):
        x[i] += t[i]
)");
  Proc q = set_precision(p, "t", "f64");
  expect_golden("SetPrecision_Alloc", to_string(q));
  expect_equivalent(p, q);
}

TEST(SetPrecision, Argument) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = x[1] + 1.0
)");
  Proc q = set_precision(p, "x", "f64");
  EXPECT_EQ(to_string(q.args()[0].type), "f64[4]");
  EXPECT_EQ(q.body()[0].as<AssignNode>()->type, ScalarKind::F64);
}

TEST(SetPrecision, ControlTypeIsRefused) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { set_precision(p, "x", "index"); }, "set_precision",
                 "'index' is not a data type");
}

TEST(SetPrecision, CalleeOfAnotherPrecisionIsRefused) {
  Proc p = parse_proc(R"(
def copy(dst: [f32][4] @ DRAM, src: [f32][4] @ DRAM):
    for i in seq(0, 4):
        dst[i] = src[i]

def foo(x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    copy(t[0:4], x[0:4])
)");
  expect_refused([&] { set_precision(p, "t", "f64"); }, "set_precision", "'t' cannot become f64");
}

// A precision that is not a data type is the user's mistake: BadArgument arg.type.
TEST(SetPrecision, AControlTypeIsABadArgumentArgType) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { set_precision(p, "x", "index"); }, "set_precision", ErrorCode::BadArgument,
                 "arg.type");
}

}  // namespace
}  // namespace exocpp::testing
