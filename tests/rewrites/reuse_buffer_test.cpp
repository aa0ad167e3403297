// reuse_buffer (rewrites/reuse_buffer.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <gtest/gtest.h>

#include <regex>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

const char* kTwoTmp = R"(def f(A: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for k in seq(0, 4):
        x[k] = A[k] * 2.0
    for k in seq(0, 4):
        A[k] = x[k]
    y: f32[4] @ DRAM
    for k in seq(0, 4):
        y[k] = A[k] + 1.0
    for k in seq(0, 4):
        A[k] = y[k] * y[k]
)";

// Exo tests/test_schedules.py::test_reuse_buffer: bb is dead once c is written, so c's uses become
// bb.
TEST(ReuseBuffer, ReuseBuffer) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM):
    aa: f32
    bb: f32
    aa = a
    bb = b
    c: f32
    c = aa + bb
    b = c
)");
  Proc q = reuse_buffer(foo, "bb:_", "c:_");
  EXPECT_EQ(to_string(q), R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM):
    aa: f32 @ DRAM
    bb: f32 @ DRAM
    aa = a
    bb = b
    bb = aa + bb
    b = bb
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_reuse_buffer_loop_fail: c is written in a loop that reads bb.
// Exo says "The variable bb can potentially be used after"; ours says bb is still live.
TEST(ReuseBuffer, ReuseBufferLoopFail) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM):
    aa: f32
    bb: f32
    aa = a
    bb = b
    c: f32
    for i in seq(0, 10):
        c = aa + bb
    b = c
)");
  expect_refused([&] { reuse_buffer(foo, "bb:_", "c:_"); }, "reuse_buffer", ErrorCode::NotProved,
                 "alloc.live", "'bb' is still live at the allocation of 'c'");
}

// Exo tests/test_schedules.py::test_data_reuse (Exo's old data_reuse is our reuse_buffer): c's uses
// become bb.
TEST(ReuseBuffer, DataReuse) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM):
    aa: f32 @ DRAM
    bb: f32 @ DRAM
    aa = a
    bb = b
    c: f32 @ DRAM
    c = aa + bb
    b = c
)");
  // bb's last read is in the statement that first writes c (golden: `bb = aa + bb ; b = bb`).
  Proc q = reuse_buffer(foo, "bb : _", "c : _");
  EXPECT_TRUE(has(q, "    bb = aa + bb\n    b = bb\n")) << q;
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_data_reuse_loop_fail: bb is read again after c's first write (c
// is written in a loop that reads bb every iteration).
TEST(ReuseBuffer, DataReuseLoopFail) {
  Proc foo = parse_proc(R"(def foo(a: f32 @ DRAM, b: f32 @ DRAM):
    aa: f32 @ DRAM
    bb: f32 @ DRAM
    aa = a
    bb = b
    c: f32 @ DRAM
    for i in seq(0, 10):
        c = aa + bb
    b = c
)");
  EXPECT_THROW(reuse_buffer(foo, "bb : _", "c : _"), SchedulingError);
}

// Exo tests/test_schedules.py::test_reuse_buffer2: c, only passed to a call, is replaced by bb.
TEST(ReuseBuffer, ReuseBuffer2) {
  Module m = parse_module(R"(def bar(a: f32 @ DRAM):
    pass

def foo():
    bb: f32 @ DRAM
    c: f32 @ DRAM
    bar(c)
)");
  Proc foo = m.proc("foo");
  Proc q = reuse_buffer(foo, "bb : _", "c : _");
  EXPECT_TRUE(has(q, "bar(bb)")) << q;
  EXPECT_FALSE(has(q, "c: f32")) << q;
}

// Exo tests/test_schedules.py::test_reuse_buffer2: the buffer given up was passed to a call.
TEST(ReuseBuffer, ReuseBufferPassedToACall) {
  Module m = parse_module(R"(def bar(a: f32):
    pass

def foo():
    bb: f32
    c: f32
    bar(c)
)");
  Proc foo = m.proc("foo");
  Proc q = reuse_buffer(foo, "bb : _", "c : _");
  EXPECT_EQ(to_string(q), "def foo():\n    bb: f32 @ DRAM\n    bar(bb)\n");
  expect_equivalent(foo, q);
}

// Trust (structure): every use is seen, declarations stay in scope.
// reuse_buffer ignored a live window onto the reused buffer.
TEST(ReuseBuffer, ReuseBufferRefusesLiveWindow) {
  Proc p = parse_proc(R"(
def f(a: f32[4] @ DRAM, b: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for i in seq(0, 4):
        x[i] = a[i]
    w = x[0:4]
    y: f32[4] @ DRAM
    for i in seq(0, 4):
        y[i] = 2.0
    for i in seq(0, 4):
        b[i] = w[i] + y[i]
)");
  expect_refused([&] { return reuse_buffer(p, "x: _", "y: _"); }, "still live");
}

TEST(ReuseBuffer, ReplacesALaterAllocationOfTheSameType) {
  Proc p = parse_proc(kTwoTmp);
  Cursor last = p.body_cursor()[5];
  Proc q = reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[3]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
  EXPECT_EQ(q.forward(last).loc(), q.body_cursor()[4].loc());
}

TEST(ReuseBuffer, RefusesALiveBuffer) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for k in seq(0, 4):
        x[k] = A[k] * 2.0
    y: f32[4] @ DRAM
    for k in seq(0, 4):
        y[k] = A[k] + 1.0
    for k in seq(0, 4):
        A[k] = y[k] * x[k]
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[2]); }, "reuse_buffer",
                 ErrorCode::NotProved, "alloc.live", "still live");
}

// The first write of y may read x (it is read before the write) ...
TEST(ReuseBuffer, FirstAssignmentMayReadTheReusedBuffer) {
  Proc p = parse_proc(R"(def f(a: f32 @ DRAM, b: f32 @ DRAM):
    x: f32 @ DRAM
    x = a * 2.0
    y: f32 @ DRAM
    y = x + b
    b = y
)");
  Proc q = reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[2]);
  EXPECT_NE(to_string(q).find("    x = x + b\n    b = x\n"), std::string::npos) << q;
  expect_equivalent(p, q);
}

// ... but no later statement may: after the first write, x holds y's value.
TEST(ReuseBuffer, RefusesAReadOfTheReusedBufferAfterTheFirstWrite) {
  Proc p = parse_proc(R"(def f(a: f32 @ DRAM, b: f32 @ DRAM):
    x: f32 @ DRAM
    x = a * 2.0
    y: f32 @ DRAM
    y = 0.0
    y += x
    b = y
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[2]); }, "reuse_buffer",
                 ErrorCode::NotProved, "alloc.live", "still live");
}

TEST(ReuseBuffer, RefusesDifferentTypes) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    y: f32[2] @ DRAM
    y[0] = A[0]
    A[1] = y[0]
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[1]); }, "reuse_buffer",
                 ErrorCode::NotProved, "alloc.mismatch", "differ in type or memory");
}

TEST(ReuseBuffer, RefusesAnEarlierAllocation) {
  Proc p = parse_proc(kTwoTmp);
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[3], p.body_cursor()[0]); }, "reuse_buffer",
                 ErrorCode::NotProved, "stmt.order", "is not allocated after");
}

TEST(ReuseBuffer, ReusesABufferInsideALaterLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    x: f32 @ DRAM
    x = A[0]
    A[0] = x * 2.0
    for i in seq(0, N):
        y: f32 @ DRAM
        y = A[i]
        A[i] = y + 1.0
)");
  Proc q = reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[3].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(ReuseBuffer, RefusesAnAllocationInAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    x: f32 @ DRAM
    x = A[0]
    A[0] = x * 2.0
    for i in par(0, N):
        y: f32 @ DRAM
        y = A[i]
        A[i] = y + 1.0
)");
  expect_refused([&] { reuse_buffer(p, p.body_cursor()[0], p.body_cursor()[3].body()[0]); },
                 "reuse_buffer", ErrorCode::NotProved, "alloc.shared_by_parallel", "par loop 'i'");
}

}  // namespace
