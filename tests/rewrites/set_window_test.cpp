// Tests of set_window: a tensor argument becomes a window argument, and back when the asserts
// allow dense strides.
#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {
namespace {

TEST(SetWindow, TensorToWindow) {
  Proc p = parse_proc(R"(
def foo(n: size, A: f32[n, 4] @ DRAM):
    for i in seq(0, n):
        A[i, 0] = 1.0
)");
  Proc q = set_window(p, "A", true);
  expect_golden("SetWindow_ToWindow", to_string(q));
  expect_equivalent(p, q);
}

TEST(SetWindow, WindowToTensorWithUnitInnerStride) {
  Proc p = parse_proc(R"(
def foo(n: size, A: [f32][n, 4] @ DRAM):
    assert stride(A, 1) == 1
    for i in seq(0, n):
        A[i, 0] = 1.0
)");
  Proc q = set_window(p, "A", false);
  EXPECT_EQ(to_string(q.args()[1].type), "f32[n, 4]");
  expect_equivalent(p, q);
}

TEST(SetWindow, WindowToTensorAgainstStrideAssertIsRefused) {
  Proc p = parse_proc(R"(
def foo(n: size, A: [f32][n, 4] @ DRAM):
    assert stride(A, 0) == 1
    A[0, 0] = 1.0
)");
  expect_refused([&] { set_window(p, "A", false); }, "set_window", "dense strides");
}

TEST(SetWindow, AllocationIsRefused) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    t[0] = x[0]
)");
  expect_refused([&] { set_window(p, "t", true); }, "set_window", "only arguments can be windows");
}

TEST(SetWindow, ScalarIsRefused) {
  Proc p = parse_proc(R"(
def foo(x: f32 @ DRAM):
    x = 1.0
)");
  expect_refused([&] { set_window(p, "x", true); }, "set_window", "not a tensor argument");
}

}  // namespace
}  // namespace exocpp::testing
