// insert_pass: a `pass` at a gap.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        A[i] += 2.0
)";

TEST(InsertPass, AtAGapBetweenStatements) {
  Proc p = parse_proc(kSrc);
  Proc q = insert_pass(p, p.body_cursor()[0].body()[1].before());
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(InsertPass, AStatementMeansTheGapAfterIt) {
  Proc p = parse_proc(kSrc);
  Proc q = insert_pass(p, p.body_cursor()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(InsertPass, RefusesAnExpression) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { insert_pass(p, p.body_cursor()[0].hi()); }, "insert_pass",
                 ErrorCode::BadArgument, "target.wrong_kind", "expected a gap");
}

TEST(InsertPass, ForwardsTheFollowingStatement) {
  Proc p = parse_proc(kSrc);
  Cursor second = p.body_cursor()[0].body()[1];
  Proc q = insert_pass(p, second.before());
  Cursor f = q.forward(second);
  EXPECT_EQ(f.to_string(), "A[i] += 2.0");
  EXPECT_EQ(f.prev().to_string(), "pass");
}

}  // namespace
