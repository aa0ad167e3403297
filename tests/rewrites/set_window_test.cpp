// Tests of set_window: a tensor argument becomes a window argument, and back when the asserts
// allow dense strides.
#include "exo_schedules_port_util.h"
#include "rewrites/fixtures.h"
#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace exocpp::testing {
namespace {

TEST(SetWindow, TensorToWindow) {
  Proc p = parse_proc(R"(
def foo(n: size, A: f32[n, 4] @ DRAM):
    for i in seq(0, n):
        A[i, 0] = 1.0
)");
  Proc q = set_window(p, "A", true);
  expect_golden(to_string(q));
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
  expect_refused([&] { set_window(p, "A", false); }, "set_window", ErrorCode::NotProved,
                 "checker.refuted", "dense strides");
}

TEST(SetWindow, AllocationIsRefused) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    t[0] = x[0]
)");
  expect_refused([&] { set_window(p, "t", true); }, "set_window", ErrorCode::BadArgument,
                 "target.wrong_kind", "only arguments can be windows");
}

TEST(SetWindow, ScalarIsRefused) {
  Proc p = parse_proc(R"(
def foo(x: f32 @ DRAM):
    x = 1.0
)");
  expect_refused([&] { set_window(p, "x", true); }, "set_window", ErrorCode::BadArgument,
                 "target.wrong_kind", "not a tensor argument");
}

}  // namespace
}  // namespace exocpp::testing

namespace {

// Exo tests/test_schedules.py::test_set_precision_for_tensors_and_windows, the set_window half: y
// becomes a window; the window statement and both calls keep their types.
TEST(SetWindow, SetWindowForTensorsAndWindows) {
  Proc foo = parse_module(kTensorsAndWindows).proc("foo");
  Cursor call1 = foo.find("bar(_)");
  Proc q = set_window(foo, "y", true);
  EXPECT_EQ(to_string(q), R"(def foo(n: size, y: [i8][n] @ DRAM):
    assert n > 1
    a = y[0:n - 1]
    bar(n, y)
    bar(n - 1, y[0:n - 1])
)");
  EXPECT_TRUE(q.forward(call1).stmt().is<CallNode>());
  expect_equivalent(foo, q, {{"n", 4}});
}

}  // namespace
