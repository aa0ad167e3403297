// fold_into_reduce: a = a + e -> a += e.
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
      "def f(N: size, x: f32[N] @ DRAM, b: f32[N] @ DRAM):\n"
      "    for i in seq(0, N):\n"
      "        " +
      s + "\n");
}
Cursor write(const Proc& p) { return p.body_cursor()[0].body()[0]; }

TEST(FoldIntoReduce, FoldsAnAccumulation) {
  Proc p = with_write("x[i] = x[i] + b[i] * 2.0");
  Proc q = fold_into_reduce(p, write(p));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(FoldIntoReduce, ProvesEqualIndices) {
  Proc p = with_write("x[i] = x[i + 0] + b[i]");
  Proc q = fold_into_reduce(p, write(p));
  EXPECT_EQ(to_string(q.body()[0].as<ForNode>()->body[0]), "x[i] += b[i]\n");
  expect_equivalent(p, q);
}

TEST(FoldIntoReduce, RefusesAnotherLocation) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 1] @ DRAM, b: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = x[i + 1] + b[i]
)");
  expect_refused([&] { fold_into_reduce(p, write(p)); }, "fold_into_reduce", ErrorCode::NotProved,
                 "checker.refuted", "reads the location");
}

TEST(FoldIntoReduce, RefusesAReadOfAnotherBufferOnTheLeft) {
  Proc p = with_write("x[i] = b[i] + x[i]");
  expect_refused([&] { fold_into_reduce(p, write(p)); }, "fold_into_reduce", ErrorCode::NotProved,
                 "stmt.form", "not a read of 'x'");
}

TEST(FoldIntoReduce, RefusesAReduction) {
  Proc p = with_write("x[i] += x[i] + b[i]");
  expect_refused([&] { fold_into_reduce(p, write(p)); }, "fold_into_reduce", ErrorCode::BadArgument,
                 "target.wrong_kind");
}

TEST(FoldIntoReduce, ForwardsTheAddedExpression) {
  Proc p = with_write("x[i] = x[i] + b[i]");
  Cursor e = write(p).rhs().child(1);
  Proc q = fold_into_reduce(p, write(p));
  EXPECT_EQ(q.forward(e).to_string(), "b[i]");
  EXPECT_EQ(q.forward(write(p)).to_string(), "x[i] += b[i]");
}

// A right-hand side that is not `x + e`: the code is not of the rule's form, NotProved stmt.form.
TEST(FoldIntoReduce, ARhsThatIsNotAnAdditionIsNotProvedStmtForm) {
  Proc p = with_write("x[i] = x[i] * b[i]");
  expect_refused([&] { fold_into_reduce(p, write(p)); }, "fold_into_reduce", ErrorCode::NotProved,
                 "stmt.form");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_fold_into_reduce_1.
TEST(FoldIntoReduce, FoldIntoReduce1) {
  Proc bar = parse_proc(R"(def bar(result: f32):
    result = result + 1.0
)");
  Proc q = fold_into_reduce(bar, bar.find("result = _"));
  EXPECT_EQ(to_string(q), R"(def bar(result: f32 @ DRAM):
    result += 1.0
)");
  expect_equivalent(bar, q);
}

// Exo tests/test_schedules.py::test_fold_into_reduce_2.
TEST(FoldIntoReduce, FoldIntoReduce2) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j] + (x * x)
)");
  Proc q = fold_into_reduce(bar, bar.find("a[_] = _"));
  EXPECT_EQ(to_string(q), R"(def bar(m: size, n: size, a: f32[m, n] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] += x * x
)");
  expect_equivalent(bar, q, {{"m", 2}, {"n", 3}});
  expect_equivalent(bar, q, {{"m", 1}, {"n", 1}});
}

// Exo tests/test_schedules.py::test_fold_into_reduce_fail_1 (first of Exo's two cases of that
// name): a product, not a sum. Exo: "The rhs of the assignment must be an add."
TEST(FoldIntoReduce, FoldIntoReduceFail1RefusesAProduct) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j] * x
)");
  expect_refused([&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
                 ErrorCode::NotProved, "stmt.form", "is not an addition");
}

// Exo tests/test_schedules.py::test_fold_into_reduce_fail_1 (second of Exo's two cases of that
// name): a plain read.
TEST(FoldIntoReduce, FoldIntoReduceFail1RefusesAPlainRead) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j]
)");
  expect_refused([&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
                 ErrorCode::NotProved, "stmt.form", "is not an addition");
}

// Exo tests/test_schedules.py::test_fold_into_reduce_fail_3: the addition reads another element.
// Exo: "The lhs of the addition is not a read to the lhs of the assignment."
TEST(FoldIntoReduce, FoldIntoReduceFail3RefusesAnotherElement) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n + 1], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = a[i, j + 1] + x
)");
  expect_refused(
      [&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
      ErrorCode::NotProved, "checker.refuted",
      "requires that the addition reads the location 'a[i, j] = a[i, j + 1] + x' writes");
}

// Exo tests/test_schedules.py::test_fold_into_reduce_fail_4: the read is not the left operand of
// the outer addition.
TEST(FoldIntoReduce, FoldIntoReduceFail4RefusesANestedRead) {
  Proc bar = parse_proc(R"(def bar(m: size, n: size, a: f32[m, n], x: f32):
    for i in seq(0, m):
        for j in seq(0, n):
            a[i, j] = (x + a[i, j]) + x
)");
  expect_refused([&] { fold_into_reduce(bar, bar.find("a[_] = _")); }, "fold_into_reduce",
                 ErrorCode::NotProved, "stmt.form", "is not a read of 'a'");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(FoldIntoReduce, FoldIntoReduceRefusesNarrowerExpression) {
  // `a[i] + x[i]` is f32 (R unifies), rounded before the store into the R buffer.
  Proc q = parse_proc(R"(
def g(x: f32[4] @ DRAM, a: R[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = a[i] + x[i]
)");
  expect_refused([&] { return fold_into_reduce(q, "a[_] = _"); }, "a reduction would not round it");
}

// Trust (precision): regrouped values keep their integer wrap and float rounding.
TEST(FoldIntoReduce, FoldIntoReduceIntegerAccepted) {
  Proc p = parse_proc(R"(
def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        a[i] = a[i] + x[i] * 3
)");
  Proc q = fold_into_reduce(p, "a[_] = _");
  expect_equivalent(p, q, {}, near_limits());
}

}  // namespace
