// unroll_buffer (rewrites/unroll_buffer.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

const char* kUnrollBar = R"(def bar(n: size, A: i8[n]):
    for i in seq(0, n):
        for j in seq(0, n):
            tmp_a: i8[5, 2]
            tmp_a[0, 1] = A[i]
            tmp_a[0, 1] = A[i]
            tmp_a[1, 0] = A[i]
)";

// Exo tests/test_schedules.py::test_unroll_buffer: unrolling dimension 0, and (separately)
// dimension 1.
TEST(UnrollBuffer, UnrollBuffer) {
  Proc bar = parse_proc(kUnrollBar);
  Proc bar0 = unroll_buffer(bar, "tmp_a : _", 0);
  Proc bar1 = unroll_buffer(bar, "tmp_a : _", 1);
  EXPECT_EQ(to_string(bar0), R"(def bar(n: size, A: i8[n] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, n):
            tmp_a_0: i8[2] @ DRAM
            tmp_a_1: i8[2] @ DRAM
            tmp_a_0[1] = A[i]
            tmp_a_0[1] = A[i]
            tmp_a_1[0] = A[i]
)");
  EXPECT_EQ(to_string(bar1), R"(def bar(n: size, A: i8[n] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, n):
            tmp_a_0: i8[5] @ DRAM
            tmp_a_1: i8[5] @ DRAM
            tmp_a_1[0] = A[i]
            tmp_a_1[0] = A[i]
            tmp_a_0[1] = A[i]
)");
  expect_equivalent(bar, bar0, {{"n", 2}});
  expect_equivalent(bar, bar0, {{"n", 3}});
  expect_equivalent(bar, bar1, {{"n", 2}});
  expect_equivalent(bar, bar1, {{"n", 3}});
}

// Exo tests/test_schedules.py::test_unroll_buffer2: tmp_a is indexed by the loop variable j (Exo:
// "Expected a constant buffer access").
TEST(UnrollBuffer, UnrollBuffer2) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n]):
    tmp_a: i8[10]
    for i in seq(0, n):
        for j in seq(0, 10):
            tmp_a[j] = A[i]
    tmp_b: i8[10]
    for j in seq(0, 10):
        tmp_b[j] = tmp_a[j]
)");
  expect_refused([&] { unroll_buffer(bar, "tmp_a : _", 0); }, "unroll_buffer", ErrorCode::NotProved,
                 "buffer.not_constant", "is indexed with 'j' in dimension 0; expected a constant");
}

// Exo tests/test_schedules.py::test_unroll_buffer3: the dimension n is not a constant (Exo:
// "Expected a constant buffer dimension").
TEST(UnrollBuffer, UnrollBuffer3) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n]):
    tmp_a: i8[n]
    for i in seq(0, n):
        tmp_a[i] = A[i]
)");
  expect_refused([&] { unroll_buffer(bar, "tmp_a : _", 0); }, "unroll_buffer", ErrorCode::NotProved,
                 "buffer.not_constant", "dimension 0 of 'tmp_a' must be a constant");
}

// Exo tests/test_schedules.py::test_unroll_buffer4: a scalar has no dimension to unroll (Exo:
// "Cannot unroll a scalar buffer").
TEST(UnrollBuffer, UnrollBuffer4) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n]):
    tmp_a: i8
    for i in seq(0, n):
        tmp_a = A[i]
)");
  expect_refused([&] { unroll_buffer(bar, "tmp_a : _", 0); }, "unroll_buffer",
                 ErrorCode::BadArgument, "target.wrong_kind", "cannot unroll the scalar 'tmp_a'");
}

// Exo tests/test_schedules.py::test_unroll_buffer6: two buffers of two entries become four scalars.
TEST(UnrollBuffer, UnrollBuffer6) {
  Proc foo = parse_proc(R"(def foo():
    a: f32[2]
    b: f32[2]
    a[0] = b[0]
    a[1] = b[1]
)");
  Proc q = unroll_buffer(foo, "a : _", 0);
  q = unroll_buffer(q, "b : _", 0);
  EXPECT_EQ(to_string(q), R"(def foo():
    a_0: f32 @ DRAM
    a_1: f32 @ DRAM
    b_0: f32 @ DRAM
    b_1: f32 @ DRAM
    a_0 = b_0
    a_1 = b_1
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_unroll_buffer1: unrolling a dimension that windows passed to
// calls index by constants.
TEST(UnrollBuffer, UnrollBufferWithWindowsPassedToCalls) {
  // Exo declares this parameter a tensor and passes it a window; our type checker asks for a
  // window parameter (core/typecheck_calls.cpp), so it is declared [i8][...] here.
  Module m = parse_module(R"(def foo(src: [i8][2], dst: [i8][2]):
    src[0] = dst[0]
    src[1] = dst[1]

def bar(n: size, A: i8[n]):
    assert n > 10
    for i in seq(0, n - 4):
        for j in seq(0, n):
            tmp_a: i8[4, 2, 2]
            foo(tmp_a[0, 0, 0:2], A[i:i + 2])
            foo(tmp_a[0, 1, 0:2], A[i + 2:i + 4])
)");
  Proc bar = m.proc("bar");
  Proc q = unroll_buffer(bar, "tmp_a : _", 1);
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM):
    assert n > 10
    for i in seq(0, n - 4):
        for j in seq(0, n):
            tmp_a_0: i8[4, 2] @ DRAM
            tmp_a_1: i8[4, 2] @ DRAM
            foo(tmp_a_0[0, 0:2], A[i:i + 2])
            foo(tmp_a_1[0, 0:2], A[i + 2:i + 4])
)");
  expect_equivalent(bar, q, {{"n", 12}});
}

// Exo tests/test_schedules.py::test_unroll_buffer5: a dimension a window spans cannot be unrolled.
TEST(UnrollBuffer, UnrollBufferRefusesADimensionUsedAsAWindow) {
  // Exo declares this parameter a tensor and passes it a window; our type checker asks for a
  // window parameter (core/typecheck_calls.cpp), so it is declared [i8][...] here.
  Module m = parse_module(R"(def foo(B: [i8][2]):
    B[0] = 0.0

def bar(n: size, A: i8[n]):
    tmp_a: i8[10]
    foo(tmp_a[0:2])
)");
  expect_refused([&] { unroll_buffer(m.proc("bar"), "tmp_a : _", 0); }, "unroll_buffer",
                 ErrorCode::NotProved, "buffer.layout_use", "window");
}

TEST(UnrollBuffer, RefusesChangingTheStrideOfAWindowAcrossEarlierDimensions) {
  Proc p = parse_proc(R"(def f(B: f32[4, 8] @ DRAM):
    x: f32[4, 2, 8] @ DRAM
    for j in seq(0, 8):
        w = x[0:4, 0, j]
        for i in seq(0, 4):
            w[i] = 1.0
            if stride(w, 0) == 16:
                w[i] = 2.0
    for i in seq(0, 4):
        for j in seq(0, 8):
            B[i, j] = x[i, 0, j]
)");
  expect_refused([&] { unroll_buffer(p, "x : _", 1); }, "unroll_buffer", ErrorCode::NotProved,
                 "layout.stride_changed");
}

TEST(UnrollBuffer, SplitsAConstantDimensionIntoBuffers) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32[2, 4] @ DRAM
    for k in seq(0, 4):
        t[0, k] = A[k]
        t[1, k] = A[k] * 2.0
    for k in seq(0, 4):
        A[k] = t[0, k] + t[1, k]
)");
  Cursor loop = p.body_cursor()[1];
  Proc q = unroll_buffer(p, p.body_cursor()[0], 0);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
  EXPECT_EQ(q.forward(loop).loc(), q.body_cursor()[2].loc());
}

TEST(UnrollBuffer, RefusesANonConstantIndex) {
  Proc p = parse_proc(kMatTmp);
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 2); }, "unroll_buffer",
                 ErrorCode::NotProved, "buffer.not_constant", "expected a constant");
}

TEST(UnrollBuffer, RefusesANonConstantDimension) {
  Proc p = parse_proc(kMatTmp);
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 0); }, "unroll_buffer",
                 ErrorCode::NotProved, "buffer.not_constant", "must be a constant");
}

TEST(UnrollBuffer, RefusesAScalar) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32 @ DRAM
    t = A[0]
    A[1] = t
)");
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 0); }, "unroll_buffer",
                 ErrorCode::BadArgument, "target.wrong_kind", "scalar");
}

// An index unroll_buffer needs constant is not: NotProved buffer.not_constant.
TEST(UnrollBuffer, ANonConstantIndexIsNotProvedBufferNotConstant) {
  Proc p = parse_proc(kMatTmp);
  expect_refused([&] { unroll_buffer(p, p.body_cursor()[0], 2); }, "unroll_buffer",
                 ErrorCode::NotProved, "buffer.not_constant");
}

}  // namespace
