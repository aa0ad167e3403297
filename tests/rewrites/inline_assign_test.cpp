// inline_assign: x = e ; s -> s[x -> e].
#include <gtest/gtest.h>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i] * 2.0
        A[i] = t + t
)";

Cursor assign(const Proc& p) { return p.body_cursor()[0].body()[1]; }

TEST(InlineAssign, SubstitutesTheScalar) {
  Proc p = parse_proc(kSrc);
  Proc q = inline_assign(p, assign(p));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(InlineAssign, RefusesALaterWriteOfTheScalar) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i]
        t += 1.0
        A[i] = t
)");
  expect_refused([&] { inline_assign(p, assign(p)); }, "inline_assign", ErrorCode::NotProved,
                 "buffer.other_use", "written again");
}

TEST(InlineAssign, RefusesALaterWriteOfWhatTheRhsReads) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i]
        B[i] = 0.0
        A[i] = t
)");
  expect_refused([&] { inline_assign(p, assign(p)); }, "inline_assign", ErrorCode::NotProved,
                 "dep.read_written", "reads 'B'");
}

TEST(InlineAssign, RefusesAnArgument) {
  Proc p = parse_proc(R"(def f(N: size, t: f32 @ DRAM, A: f32[N] @ DRAM):
    t = 2.0
    A[0] = t
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[0]); }, "inline_assign",
                 ErrorCode::NotProved, "buffer.other_use", "not allocated earlier");
}

// A tensor element: its reads with the same index take the expression; the other element's
// read is proved to touch another element and stays.
TEST(InlineAssign, SubstitutesATensorElement) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, B: f32[4] @ DRAM):
    t: f32[2] @ DRAM
    t[1] = B[1]
    t[0] = B[0] * 2.0
    A[0] = t[0] + t[1]
    A[1] = t[0]
)");
  Proc q = inline_assign(p, p.body_cursor()[2]);
  EXPECT_NE(to_string(q).find("A[0] = B[0] * 2.0 + t[1]"), std::string::npos) << q;
  EXPECT_NE(to_string(q).find("A[1] = B[0] * 2.0"), std::string::npos) << q;
  EXPECT_EQ(to_string(q).find("t[0] ="), std::string::npos) << q;
  expect_equivalent(p, q);
}

// Another read that may touch the assigned element would see its removal.
TEST(InlineAssign, RefusesAReadThatMayTouchTheAssignedElement) {
  Proc p = parse_proc(R"(def f(n: size, A: f32[4] @ DRAM, B: f32[4] @ DRAM):
    assert n <= 2
    t: f32[2] @ DRAM
    t[1] = B[1]
    t[0] = B[0]
    A[0] = t[0] + t[n - 1]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[2]); }, "inline_assign",
                 ErrorCode::NotProved, "checker.refuted", "touches another element than t[0]");
}

// The producer of a loop, its buffer allocated outside: every read is in the same iteration
// with the same index, so the buffer is dead once they are replaced.
TEST(InlineAssign, SubstitutesAProducerInsideALoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = B[i] * 2.0
        A[i] = t[i] + 1.0
)");
  Proc q = inline_assign(p, p.body_cursor()[1].body()[0]);
  EXPECT_NE(to_string(q).find("A[i] = B[i] * 2.0 + 1.0"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 7}});
}

// The same with a read of the previous iteration's element: it would see the removal.
TEST(InlineAssign, RefusesAProducerReadByAnotherIteration) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM, B: f32[N + 1] @ DRAM):
    t: f32[N + 1] @ DRAM
    t[0] = B[0]
    for i in seq(0, N):
        t[i + 1] = B[i + 1]
        A[i] = t[i + 1] + t[i]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[2].body()[0]); }, "inline_assign",
                 ErrorCode::NotProved, "buffer.other_use", "read elsewhere than as t[i + 1]");
}

TEST(InlineAssign, RefusesATensorWindowedLater) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32[2] @ DRAM
    t[0] = 2.0
    A[0] = t[0]
    w = t[0:2]
    A[1] = w[0]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[1]); }, "inline_assign",
                 ErrorCode::NotProved, "buffer.layout_use", "a window of 't' is taken later");
}

TEST(InlineAssign, RefusesATensorElementThatTheStoreWraps) {
  Proc p = parse_proc(R"(def f(A: i32[4] @ DRAM, B: i32[4] @ DRAM):
    t: i8[2] @ DRAM
    t[0] = B[0] * 2
    A[0] = t[0]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[1]); }, "inline_assign",
                 ErrorCode::NotProved, "precision.store", "does not hold the value");
}

TEST(InlineAssign, ForwardsTheFollowingStatement) {
  Proc p = parse_proc(kSrc);
  Cursor use = p.body_cursor()[0].body()[2];
  Proc q = inline_assign(p, assign(p));
  EXPECT_EQ(q.forward(use).to_string(), "A[i] = B[i] * 2.0 + B[i] * 2.0");
  EXPECT_FALSE(q.forward(assign(p)).is_valid());
}

TEST(InlineAssign, AcceptsAnAssignmentPattern) {
  Proc p = parse_proc(kSrc);
  EXPECT_EQ(to_string(inline_assign(p, "t = _")), to_string(inline_assign(p, assign(p))));
}

// A temporary of another precision than the value it holds: the store keeps the value, but the
// operators and externs around each read must keep computing in the temporary's precision.
const char* kI8IntoF32 = R"(def f(A: i8[4] @ DRAM, C: f32[4] @ DRAM):
    for i in seq(0, 4):
        x: f32 @ DRAM
        x = A[i]
        C[i] = x / 2.0
)";

TEST(InlineAssign, RefusesAnIntegerValueWhereAFloatOperandWasRead) {
  Proc p = parse_proc(kI8IntoF32);  // A[i] / 2.0 would be an integer division
  expect_refused([&] { return inline_assign(p, "x = _"); }, "inline_assign", ErrorCode::NotProved,
                 "precision.context");
}

TEST(InlineAssign, RefusesANarrowerValueWhereAWideProductWasRead) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, C: f64[4] @ DRAM):
    for i in seq(0, 4):
        x: f64 @ DRAM
        x = A[i]
        C[i] = x * 1e+38
)");  // A[i] * 1e38 would overflow f32
  expect_refused([&] { return inline_assign(p, "x = _"); }, "inline_assign", ErrorCode::NotProved,
                 "precision.context");
}

TEST(InlineAssign, RefusesANarrowerValueWhereAnExternArgumentWasRead) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, C: f64[4] @ DRAM):
    for i in seq(0, 4):
        x: f64 @ DRAM
        x = A[i]
        C[i] = sqrt(x)
)");  // sqrt would round to f32
  expect_refused([&] { return inline_assign(p, "x = _"); }, "inline_assign", ErrorCode::NotProved,
                 "precision.context");
}

TEST(InlineAssign, AcceptsANarrowerValueStoredWhole) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, C: f64[4] @ DRAM):
    for i in seq(0, 4):
        x: f64 @ DRAM
        x = A[i]
        C[i] = x
)");
  Proc q = inline_assign(p, "x = _");
  EXPECT_EQ(to_string(q.body()[0].as<ForNode>()->body[1]), "C[i] = A[i]\n");
  CompareProcsOptions o;
  o.inputs.integer_valued = false;  // any f32 value survives the f64 temporary
  expect_equivalent(p, q, {}, o);
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_inline_assign: x[1] = 1.0 is inlined into the reads of x[1]
// after it.
TEST(InlineAssign, InlineAssign) {
  Proc foo = parse_proc(R"(def foo(n: size, y: i8[n]):
    for i in seq(0, n):
        x: i8[5]
        x[1] = 1.0
        y[i] = x[1] + x[2]
        a: i8
        a = x[1]
)");
  Proc q = inline_assign(foo, foo.find("x = _"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, y: i8[n] @ DRAM):
    for i in seq(0, n):
        x: i8[5] @ DRAM
        y[i] = 1.0 + x[2]
        a: i8 @ DRAM
        a = 1.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 4}});
}

// Exo tests/test_schedules.py::test_inline_assign_fail: x[2] is written after x[1]. Exo refuses
// ("Cannot inline assign", its check not reasoning about indices); so do we, as x is written again
// in the block.
TEST(InlineAssign, InlineAssignFail) {
  Proc foo = parse_proc(R"(def foo(n: size, y: i8[n]):
    for i in seq(0, n):
        x: i8[5]
        x[1] = 1.0
        x[2] = 2.0
        y[i] = x[1] + x[2]
)");
  expect_refused([&] { inline_assign(foo, foo.find("x = _")); }, "inline_assign",
                 ErrorCode::NotProved, "buffer.other_use",
                 "'x' is written again later in the block");
}

// Exo tests/test_schedules.py::test_inline_assign_scalar.
TEST(InlineAssign, InlineAssignScalar) {
  Proc foo = parse_proc(R"(def foo(b: f32):
    a: f32
    a = 1.0
    b = a
)");
  Proc q = inline_assign(foo, foo.find("a = _"));
  EXPECT_EQ(to_string(q), R"(def foo(b: f32 @ DRAM):
    a: f32 @ DRAM
    b = 1.0
)");
  expect_equivalent(foo, q);
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
// The mirror of redteam 05: inlining a wrapping i8 temporary.
TEST(InlineAssign, InlineAssignRefusesWrappingTemporary) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        t: i8 @ DRAM
        t = x[i] * 2
        a[i] = t / 2
)");
  expect_refused([&] { return inline_assign(p, "t = _"); }, "does not hold the value");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(InlineAssign, InlineAssignRefusesNarrowingFloatTemporary) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, a: f32[4] @ DRAM):
    for i in seq(0, 4):
        t: f16 @ DRAM
        t = x[i]
        a[i] = t
)");
  expect_refused([&] { return inline_assign(p, "t = _"); }, "does not hold the value");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(InlineAssign, InlineAssignAcceptsWideTemporary) {
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

}  // namespace
