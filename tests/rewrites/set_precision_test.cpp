// Tests of set_precision: a buffer's element type changes, and every access follows.
#include <gtest/gtest.h>

#include "exo_schedules_port_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

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
  expect_golden(to_string(q));
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
  expect_refused([&] { set_precision(p, "x", "index"); }, "set_precision", ErrorCode::BadArgument,
                 "arg.type", "'index' is not a data type");
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
  expect_refused([&] { set_precision(p, "t", "f64"); }, "set_precision", ErrorCode::NotProved,
                 "result.ill_typed", "'t' cannot become f64");
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

namespace {

// Exo tests/test_schedules.py::test_set_precision_illegal_precision_type: Exo passes a Procedure
// where the precision goes (a TypeError); in C++ the precision is a string, so the nearest port is
// a string that names no data type.
TEST(SetPrecision, SetPrecisionIllegalPrecisionType) {
  Proc bar = parse_proc(R"(def bar(n: size, x: R[n]):
    pass
)");
  expect_refused([&] { set_precision(bar, bar.arg_cursors()[1], "bar"); }, "set_precision",
                 ErrorCode::BadArgument, "arg.type", "'bar' is not a data type");
}

// Exo tests/test_schedules.py::test_simple_typ_and_mem, the older form of the case (body `pass`):
// precision, then memory, then window-ness of an argument.
TEST(SetPrecision, SimpleTypAndMemOnAnUnusedArgument) {
  register_port_memories();
  Proc bar = parse_proc(R"(def bar(n: size, A: R[n]):
    pass
)");
  Proc q = set_precision(bar, bar.arg_cursors()[1], "i32");
  q = set_memory(q, "A", "GEMM_SCRATCH");
  EXPECT_EQ(to_string(q), "def bar(n: size, A: i32[n] @ GEMM_SCRATCH):\n    pass\n");
  q = set_window(q, "A", true);
  EXPECT_EQ(to_string(q), "def bar(n: size, A: [i32][n] @ GEMM_SCRATCH):\n    pass\n");
}

// Exo tests/test_schedules.py::test_simple_typ_and_mem: as in Exo, set_memory accepts a memory
// plain code may not touch while the plain `A[0] += 1.0` still writes A (codegen and the check of
// the finished proc refuse it later). Exo also checks the reduce statement's type after
// set_precision.
TEST(SetPrecision, SimpleTypAndMem) {
  register_port_memories();
  Proc bar = parse_proc(R"(def bar(n: size, A: R[n]):
    A[0] += 1.0
)");
  Proc q = set_precision(bar, bar.arg_cursors()[1], "i32");
  Cursor red = q.find("A[_] += _");
  ASSERT_TRUE(red.stmt().is<ReduceNode>());
  EXPECT_EQ(red.stmt().as<ReduceNode>()->type, ScalarKind::I32);
  q = set_memory(q, q.arg_cursors()[1], "GEMM_SCRATCH");
  q = set_window(q, "A", true);
  EXPECT_EQ(to_string(q), "def bar(n: size, A: [i32][n] @ GEMM_SCRATCH):\n    A[0] += 1.0\n");
  EXPECT_EQ(q.find("A[_] += _").stmt().as<ReduceNode>()->type, ScalarKind::I32);
  EXPECT_EQ(compare_procs(bar, q, {{"n", 3}}), "");
}

// Exo tests/test_schedules.py::test_simple_typ_and_mem_2: the same on an allocation.
TEST(SetPrecision, SimpleTypAndMemOnAnAllocation) {
  register_port_memories();
  Proc bar = parse_proc(R"(def bar(n: size):
    A: R[n]
    A[0] += 1.0
)");
  Cursor alloc = bar.find("A : _");
  Proc q = set_precision(bar, alloc, "i32");
  q = set_memory(q, alloc, "GEMM_SCRATCH");
  EXPECT_EQ(to_string(q), "def bar(n: size):\n    A: i32[n] @ GEMM_SCRATCH\n    A[0] += 1.0\n");
  EXPECT_EQ(q.find("A[_] += _").stmt().as<ReduceNode>()->type, ScalarKind::I32);
}

// Exo tests/test_schedules.py::test_set_precision_for_tensors_and_windows. Deliberate difference:
// Exo retypes y to f32 while both calls still pass it to bar's i8 window parameter; our
// set_precision refuses a call that passes the buffer where another precision is expected
// (docs/scheduling/memories.md).
TEST(SetPrecision, SetPrecisionForTensorsAndWindowsRefusesTheCallsPrecision) {
  Proc foo = parse_module(kTensorsAndWindows).proc("foo");
  expect_refused([&] { set_precision(foo, "y", "f32"); }, "set_precision", ErrorCode::NotProved,
                 "result.ill_typed", "bar");
}

// Exo tests/test_schedules.py::test_set_precision_api_type (Exo passes ExoType.F32; our types are
// strings)
TEST(SetPrecision, SetPrecisionApiType) {
  Proc bar = parse_proc(R"(def bar(n: size, x: R[n]):
    pass
)");
  Proc q = set_precision(bar, bar.arg_cursors()[1], "f32");
  EXPECT_EQ(to_string(q), "def bar(n: size, x: f32[n] @ DRAM):\n    pass\n");
}

// Exo tests/test_schedules.py::test_set_precision_illegal_precision_value
TEST(SetPrecision, SetPrecisionIllegalPrecisionValue) {
  Proc bar = parse_proc(R"(def bar(n: size, x: R[n]):
    pass
)");
  expect_refused([&] { set_precision(bar, bar.arg_cursors()[1], "Z"); }, "set_precision",
                 ErrorCode::BadArgument, "arg.type", "'Z'");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(SetPrecision, SetPrecisionLeavesEquivalenceClass) {
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
