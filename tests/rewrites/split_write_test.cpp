// split_write: a write of a sum split into two writes.
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

Proc with_write(const std::string& s) {
  return parse_proc(
      "def f(N: size, x: f32[N] @ DRAM, b: f32[N] @ DRAM, c: f32[N] @ DRAM):\n"
      "    for i in seq(0, N):\n"
      "        " +
      s + "\n");
}
Cursor write(const Proc& p) { return p.body_cursor()[0].body()[0]; }

TEST(SplitWrite, SplitsAnAssignment) {
  Proc p = with_write("x[i] = b[i] + c[i]");
  Proc q = split_write(p, write(p));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(SplitWrite, SplitsAReduction) {
  Proc p = with_write("x[i] += b[i] + c[i]");
  Proc q = split_write(p, write(p));
  EXPECT_EQ(to_string(q.body()[0].as<ForNode>()->body), "x[i] += b[i]\nx[i] += c[i]\n");
  expect_equivalent(p, q);
}

TEST(SplitWrite, RefusesANonSum) {
  Proc p = with_write("x[i] = b[i] * c[i]");
  expect_refused([&] { split_write(p, write(p)); }, "split_write", ErrorCode::NotProved,
                 "stmt.form", "not an addition");
}

TEST(SplitWrite, RefusesASecondOperandReadingTheBuffer) {
  Proc p = with_write("x[i] = b[i] + x[i]");
  expect_refused([&] { split_write(p, write(p)); }, "split_write", ErrorCode::NotProved,
                 "dep.read_written", "reads 'x'");
}

TEST(SplitWrite, RefusesANonWrite) {
  Proc p = with_write("x[i] = b[i] + c[i]");
  expect_refused([&] { split_write(p, p.body_cursor()[0]); }, "split_write", ErrorCode::BadArgument,
                 "target.wrong_kind");
}

TEST(SplitWrite, ForwardsTheEnclosingBlock) {
  Proc p = with_write("x[i] = b[i] + c[i]");
  Cursor body = p.body_cursor()[0].body();
  Proc q = split_write(p, write(p));
  EXPECT_EQ(q.forward(body).size(), 2);
  EXPECT_FALSE(q.forward(write(p)).is_valid());
}

TEST(SplitWrite, RefusesASumInANarrowerPrecision) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM, a: f64[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] + 0.1
)");  // the sum rounds to f32; a += 0.1 would add in f64
  expect_refused([&] { return split_write(p, "a[_] = _"); }, "split_write", ErrorCode::NotProved,
                 "precision.regroup");
}

// The i32 sum wraps; two writes into the f64 buffer would add without wrapping.
TEST(SplitWrite, RefusesAnIntegerSumThatMayWrapIntoAWideBuffer) {
  Proc p = parse_proc(R"(def f(x: i32[4] @ DRAM, a: f64[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] + x[3 - i]
)");
  expect_refused([&] { return split_write(p, "a[_] = _"); }, "split_write", ErrorCode::NotProved,
                 "precision.regroup");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_split_write.
TEST(SplitWrite, SplitWrite) {
  Proc bar = parse_proc(R"(def bar(x: i8):
    x = 1 + 2
    x += 3 + 4
)");
  Proc q = split_write(bar, bar.body_cursor()[0]);
  q = split_write(q, q.body_cursor()[2]);
  EXPECT_EQ(to_string(q), R"(def bar(x: i8 @ DRAM):
    x = 1
    x += 2
    x += 3
    x += 4
)");
  expect_equivalent(bar, q);
}

// Exo tests/test_schedules.py::test_split_write_fail: neither a product nor a plain constant is an
// addition. Exo: "Expected the rhs of the statement to be an addition."
TEST(SplitWrite, SplitWriteFail) {
  Proc bar = parse_proc(R"(def bar(x: i8):
    x = 1 * 2
    x += 4
)");
  for (const Cursor& s : {bar.body_cursor()[0], bar.body_cursor()[1]})
    expect_refused([&] { split_write(bar, s); }, "split_write", ErrorCode::NotProved, "stmt.form",
                   "is not an addition");
}

// Exo tests/test_schedules.py::test_split_write_then_merge: splitting both writes and merging them
// back gives the start.
TEST(SplitWrite, SplitWriteThenMerge) {
  Proc bar = parse_proc(R"(def bar(x: i8):
    x = 1 + 2
    x += 3 + 4
)");
  Cursor assign = bar.body_cursor()[0];
  Cursor reduce = bar.body_cursor()[1];
  Proc q = split_write(bar, assign);
  q = split_write(q, reduce);
  q = merge_writes(q, assign.as_block());
  q = merge_writes(q, reduce.as_block());
  EXPECT_EQ(to_string(q), to_string(bar));
  expect_equivalent(bar, q);
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(SplitWrite, SplitWriteRefusesFloatPartIntoIntegerBuffer) {
  Proc p = parse_proc(R"(
def f(x: R[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] / 2.0 + x[i] / 2.0
)");
  expect_refused([&] { return split_write(p, "a[_] = _"); }, "would round or wrap");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(SplitWrite, SplitWriteIntegerSumsWrapAlike) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = x[i] * 2 + x[i] * 3
)");
  Proc q = split_write(p, "a[_] = _");
  expect_equivalent(p, q, {}, near_limits());
}

}  // namespace
