// fold_into_reduce: a = a + e -> a += e.
#include "rewrite_test_util.h"
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
  expect_golden("FoldIntoReduce_FoldsAnAccumulation", to_string(q));
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
  expect_refused([&] { fold_into_reduce(p, write(p)); }, "fold_into_reduce", "reads the location");
}

TEST(FoldIntoReduce, RefusesAReadOfAnotherBufferOnTheLeft) {
  Proc p = with_write("x[i] = b[i] + x[i]");
  expect_refused([&] { fold_into_reduce(p, write(p)); }, "fold_into_reduce", "not a read of 'x'");
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
