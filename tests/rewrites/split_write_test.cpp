// split_write: a write of a sum split into two writes.
#include "rewrite_test_util.h"
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
  expect_golden("SplitWrite_SplitsAnAssignment", to_string(q));
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
  expect_refused([&] { split_write(p, write(p)); }, "split_write", "not an addition");
}

TEST(SplitWrite, RefusesASecondOperandReadingTheBuffer) {
  Proc p = with_write("x[i] = b[i] + x[i]");
  expect_refused([&] { split_write(p, write(p)); }, "split_write", "reads 'x'");
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
