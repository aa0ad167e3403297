// merge_writes: two consecutive writes of one location made one.
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

// A proc whose loop body is `first ; second` writing x[i].
Proc with_writes(const std::string& first, const std::string& second) {
  return parse_proc(
      "def f(N: size, x: f32[N] @ DRAM, b: f32[N] @ DRAM, c: f32[N] @ DRAM):\n"
      "    for i in seq(0, N):\n"
      "        " +
      first +
      "\n"
      "        " +
      second + "\n");
}
Cursor pair(const Proc& p) { return p.body_cursor()[0].body(); }
std::string merged(const Proc& q) { return to_string(q.body()[0].as<ForNode>()->body[0]); }

TEST(MergeWrites, AssignThenAssign) {
  Proc p = with_writes("x[i] = b[i]", "x[i] = c[i]");
  Proc q = merge_writes(p, pair(p));
  EXPECT_EQ(merged(q), "x[i] = c[i]\n");
  expect_equivalent(p, q);
}

TEST(MergeWrites, ReduceThenAssign) {
  Proc p = with_writes("x[i] += b[i]", "x[i] = c[i]");
  Proc q = merge_writes(p, pair(p));
  EXPECT_EQ(merged(q), "x[i] = c[i]\n");
  expect_equivalent(p, q);
}

TEST(MergeWrites, AssignThenReduce) {
  Proc p = with_writes("x[i] = b[i]", "x[i] += c[i]");
  Proc q = merge_writes(p, pair(p));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(MergeWrites, ReduceThenReduce) {
  Proc p = with_writes("x[i] += b[i]", "x[i] += c[i]");
  Proc q = merge_writes(p, pair(p));
  EXPECT_EQ(merged(q), "x[i] += b[i] + c[i]\n");
  expect_equivalent(p, q);
}

TEST(MergeWrites, ProvesEqualIndicesThatDifferInText) {
  Proc p = with_writes("x[i] = b[i]", "x[i + 1 - 1] += c[i]");
  Proc q = merge_writes(p, pair(p)[0]);
  EXPECT_EQ(merged(q), "x[i] = b[i] + c[i]\n");
  expect_equivalent(p, q);
}

TEST(MergeWrites, RefusesDifferentLocations) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 1] @ DRAM, b: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = b[i]
        x[i + 1] = b[i]
)");
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", ErrorCode::NotProved,
                 "checker.refuted", "write the same location");
}

TEST(MergeWrites, RefusesDifferentBuffers) {
  Proc p = with_writes("x[i] = b[i]", "c[i] = b[i]");
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", ErrorCode::NotProved,
                 "stmt.form", "different buffers");
}

TEST(MergeWrites, RefusesASecondRhsReadingTheBuffer) {
  Proc p = with_writes("x[i] = b[i]", "x[i] += x[i]");
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", ErrorCode::NotProved,
                 "dep.read_written", "reads 'x'");
}

TEST(MergeWrites, RefusesANonWrite) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = 1.0
        pass
)");
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", ErrorCode::NotProved,
                 "stmt.form", "assignments or reductions");
}

TEST(MergeWrites, ForwardsTheBlockToTheMergedStatement) {
  Proc p = with_writes("x[i] += b[i]", "x[i] += c[i]");
  Cursor blk = pair(p);
  Proc q = merge_writes(p, blk);
  Cursor f = q.forward(blk);
  ASSERT_TRUE(f.is_valid());
  EXPECT_EQ(f.size(), 1);
  EXPECT_FALSE(q.forward(blk[1]).is_valid());
}

// Redteam3 55: the merged sum computes in the arithmetic of `b + c`, the two writes in a's.
TEST(MergeWrites, RefusesANarrowerOperandOfAWideSum) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM, a: f64[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i]
        a[i] += 0.1
)");  // x[i] + 0.1 would add in f32
  expect_refused([&] { return merge_writes(p, p.find("a[_] = _")); }, "merge_writes",
                 ErrorCode::NotProved, "precision.regroup");
}

TEST(MergeWrites, RefusesIntegerArithmeticInAFloatSum) {
  Proc p = parse_proc(R"(def f(x: i8[4] @ DRAM, a: f32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2
        a[i] += 2147483647.0
)");  // x[i] * 2 + 2147483647.0 would wrap in 32-bit int
  expect_refused([&] { return merge_writes(p, p.find("a[_] = _")); }, "merge_writes",
                 ErrorCode::NotProved, "precision.regroup");
}

TEST(MergeWrites, RefusesIntegerArithmeticInTwoFloatReductions) {
  Proc p = parse_proc(R"(def f(x: i8[4] @ DRAM, a: f32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] += x[i] * 2
        a[i] += 2147483647.0
)");
  expect_refused([&] { return merge_writes(p, p.find("a[_] += _")); }, "merge_writes",
                 ErrorCode::NotProved, "precision.regroup");
}

TEST(MergeWrites, AcceptsExactIntegerOperandsOfAFloatSum) {
  Proc p = parse_proc(R"(def f(x: i8[4] @ DRAM, y: i8[4] @ DRAM, a: f32[4] @ DRAM):
    for i in seq(0, 4):
        a[i] += x[i]
        a[i] += y[i]
)");  // every value, and x + y, is exact in f32
  Proc q = merge_writes(p, p.find("a[_] += _"));
  CompareProcsOptions o;
  o.inputs.lo = -128;
  o.inputs.hi = 127;
  expect_equivalent(p, q, {}, o);
}

TEST(MergeWrites, RefusesAnIntegerSumThatMayWrap) {
  Proc p = parse_proc(R"(def f(x: i32[4] @ DRAM, a: f64[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i]
        a[i] += x[3 - i]
)");  // x[i] + x[3 - i] would wrap in 32-bit int
  expect_refused([&] { return merge_writes(p, p.find("a[_] = _")); }, "merge_writes",
                 ErrorCode::NotProved, "precision.regroup");
}

// The second right-hand side reads what the first statement writes: NotProved dep.read_written.
TEST(MergeWrites, ASecondRhsReadingTheFirstWriteIsNotProvedDepReadWritten) {
  Proc p = parse_proc(R"(def bar(x: R[5], y: R[3]):
    for i in seq(0, 3):
        if i > 0:
            x[2 * i - 1] = x[i] + y[i]
            x[2 * i - 1] += x[i]
)");
  expect_refused([&] { merge_writes(p, "x[2*i-1] = x[i] + y[i]; x[2*i-1] += x[i]"); },
                 "merge_writes", ErrorCode::NotProved, "dep.read_written");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_merge_writes_all_4_cases.
TEST(MergeWrites, MergeWritesAll4Cases) {
  Proc bar = parse_proc(R"(def bar(x: R[4], y: R[4]):
    for i in seq(0, 10):
        if i < 5:
            tmp: R[4]
            tmp[0] = x[0]
            tmp[0] = y[0]
            tmp[1] = x[1]
            tmp[1] += y[1]
            tmp[2] += x[2]
            tmp[2] = y[2]
            tmp[3] += x[3]
            tmp[3] += y[3]
)");
  Proc q = merge_writes(bar, "tmp[0] = x[0]; tmp[0] = y[0]");
  q = merge_writes(q, "tmp[1] = x[1]; tmp[1] += y[1]");
  q = merge_writes(q, "tmp[2] += x[2]; tmp[2] = y[2]");
  q = merge_writes(q, "tmp[3] += x[3]; tmp[3] += y[3]");
  EXPECT_EQ(to_string(q), R"(def bar(x: R[4] @ DRAM, y: R[4] @ DRAM):
    for i in seq(0, 10):
        if i < 5:
            tmp: R[4] @ DRAM
            tmp[0] = y[0]
            tmp[1] = x[1] + y[1]
            tmp[2] = y[2]
            tmp[3] += x[3] + y[3]
)");
  expect_equivalent(bar, q);
}

// Exo tests/test_schedules.py::test_merge_writes_consecutively: the merged statement is merged
// again.
TEST(MergeWrites, MergeWritesConsecutively) {
  Proc bar = parse_proc(R"(def bar(w: R, x: R, y: R, z: R):
    z = w
    z += x
    z += y
    w = x
)");
  Proc q = merge_writes(bar, "z = w; z += x");
  q = merge_writes(q, "z = w + x; z += y");
  EXPECT_EQ(to_string(q), R"(def bar(w: R @ DRAM, x: R @ DRAM, y: R @ DRAM, z: R @ DRAM):
    z = w + x + y
    w = x
)");
  expect_equivalent(bar, q);
}

// Exo tests/test_schedules.py::test_merge_writes_array_indexing.
TEST(MergeWrites, MergeWritesArrayIndexing) {
  Proc bar = parse_proc(R"(def bar(x: R[3], y: R[3], z: R):
    for i in seq(0, 3):
        for j in seq(0, 3):
            if i < 2:
                tmp: R[4, 4]
                tmp[i + j, j] = x[i]
                tmp[i + j, j] += y[j]
)");
  Proc q = merge_writes(bar, "tmp[i+j, j] = x[i]; tmp[i+j, j] += y[j]");
  EXPECT_EQ(to_string(q), R"(def bar(x: R[3] @ DRAM, y: R[3] @ DRAM, z: R @ DRAM):
    for i in seq(0, 3):
        for j in seq(0, 3):
            if i < 2:
                tmp: R[4, 4] @ DRAM
                tmp[i + j, j] = x[i] + y[j]
)");
  expect_equivalent(bar, q);
}

// Exo tests/test_schedules.py::test_merge_writes_type_check.
TEST(MergeWrites, MergeWritesTypeCheck) {
  Proc bar = parse_proc(R"(def bar(y: f32):
    x: f32 @ DRAM
    x = 0.0
    x += y
)");
  Proc q = merge_writes(bar, "x = 0.0; x += y");
  EXPECT_EQ(to_string(q), R"(def bar(y: f32 @ DRAM):
    x: f32 @ DRAM
    x = 0.0 + y
)");
  expect_equivalent(bar, q);
}

// Exo tests/test_schedules.py::test_merge_writes_second_rhs_depends_on_first_lhs. Exo: "expected
// the right hand side of the second statement to not depend on the left hand side of the first
// statement".
TEST(MergeWrites, MergeWritesSecondRhsDependsOnFirstLhs) {
  Proc bar = parse_proc(R"(def bar(x: R[5], y: R[3]):
    for i in seq(0, 3):
        if i > 0:
            x[2 * i - 1] = x[i] + y[i]
            x[2 * i - 1] += x[i]
)");
  expect_refused(
      [&] { merge_writes(bar, "x[2*i-1] = x[i] + y[i]; x[2*i-1] += x[i]"); }, "merge_writes",
      ErrorCode::NotProved, "dep.read_written",
      "the second statement's right-hand side reads 'x', which the first statement writes");
}

// Exo tests/test_schedules.py::test_merge_writes_wrong_type_error: the second statement is an if.
// Exo: "expected two consecutive assign/reduce statements".
TEST(MergeWrites, MergeWritesWrongTypeError) {
  Proc bar = parse_proc(R"(def bar(x: R, y: R):
    for i in seq(0, 10):
        y = x
        if i > 5:
            y = x
)");
  expect_refused([&] { merge_writes(bar, "y = x; _"); }, "merge_writes", ErrorCode::NotProved,
                 "stmt.form",
                 "both statements must be assignments or reductions ('if i > 5: ...' is not)");
}

// Exo tests/test_schedules.py::test_merge_writes_different_lhs_error. Exo: "expected the two
// statements' left hand sides to have the same name & type".
TEST(MergeWrites, MergeWritesDifferentLhsError) {
  Proc bar = parse_proc(R"(def bar(x: R, y: R):
    x = y
    y += x
)");
  expect_refused([&] { merge_writes(bar, "x = y; y += x"); }, "merge_writes", ErrorCode::NotProved,
                 "stmt.form", "the statements write different buffers ('x' and 'y')");
}

// Exo tests/test_schedules.py::test_merge_writes_different_lhs_arrays_error (first of Exo's two
// cases of that name). Exo: "expected the left hand side's indices to be the same."
TEST(MergeWrites, MergeWritesDifferentLhsArraysError) {
  Proc bar = parse_proc(R"(def bar(x: R[3], y: R):
    x[0] = y
    x[1] += y
)");
  expect_refused([&] { merge_writes(bar, "x[0] = y; x[1] += y"); }, "merge_writes",
                 ErrorCode::NotProved, "checker.refuted",
                 "requires that the two statements write the same location, but `0 == 1` does not "
                 "always hold");
}

// Exo tests/test_schedules.py::test_merge_writes_different_lhs_arrays_error (second of Exo's two
// cases of that name): the indices of a window differ.
TEST(MergeWrites, MergeWritesDifferentLhsArraysErrorThroughAWindow) {
  Proc bar = parse_proc(R"(def bar(x: R[3, 3], y: R):
    z = x[0:2, 0:2]
    for i in seq(0, 2):
        z[i, 1] = y
        z[i + 1, 1] += y
)");
  expect_refused([&] { merge_writes(bar, "z[i, 1] = y; z[i+1, 1] += y"); }, "merge_writes",
                 ErrorCode::NotProved, "checker.refuted",
                 "requires that the two statements write the same location, but `i == i + 1` does "
                 "not always hold");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(MergeWrites, MergeWritesRefusesFloatValueIntoIntegerBuffer) {
  Proc p = parse_proc(R"(
def f(x: R[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] / 2.0
        a[i] += x[i] / 2.0
)");
  expect_refused([&] { return merge_writes(p, "a[_] = _"); }, "rounds or wraps");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(MergeWrites, MergeWritesIntegerSumsWrapAlike) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2
        a[i] += x[i] * 3
)");
  Proc q = merge_writes(p, "a[_] = _");
  expect_equivalent(p, q, {}, near_limits());
}

}  // namespace
