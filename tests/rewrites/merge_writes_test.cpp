// merge_writes: two consecutive writes of one location made one.
#include "rewrite_test_util.h"
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
  expect_golden("MergeWrites_AssignThenReduce", to_string(q));
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
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", "write the same location");
}

TEST(MergeWrites, RefusesDifferentBuffers) {
  Proc p = with_writes("x[i] = b[i]", "c[i] = b[i]");
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", "different buffers");
}

TEST(MergeWrites, RefusesASecondRhsReadingTheBuffer) {
  Proc p = with_writes("x[i] = b[i]", "x[i] += x[i]");
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", "reads 'x'");
}

TEST(MergeWrites, RefusesANonWrite) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = 1.0
        pass
)");
  expect_refused([&] { merge_writes(p, pair(p)); }, "merge_writes", "assignments or reductions");
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
