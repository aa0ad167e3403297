// simplify (the operation): every expression of the body simplified.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[4 * N] @ DRAM):
    for io in seq(0, N):
        for ii in seq(0, 4):
            A[4 * io + ii + 0 - 0] = 1.0
    A[2 + 3 - 5] = 2.0
)";

TEST(Simplify, SimplifiesIndexExpressions) {
  Proc p = parse_proc(kSrc);
  Proc q = simplify(p);
  expect_golden("Simplify_SimplifiesIndexExpressions", to_string(q));
  expect_equivalent(p, q);
}

TEST(Simplify, KeepsStatementCursors) {
  Proc p = parse_proc(kSrc);
  Cursor last = p.body_cursor()[1];
  Proc q = simplify(p);
  EXPECT_EQ(q.forward(last).loc(), last.loc());
  EXPECT_EQ(q.forward(last).to_string(),
            to_string(q.body()[1]).substr(0, to_string(q.body()[1]).size() - 1));
}

TEST(Simplify, KeepsCursorsIntoUnchangedExpressions) {
  Proc p = parse_proc(kSrc);
  Cursor hi = p.body_cursor()[0].hi();
  Proc q = simplify(p);
  EXPECT_EQ(q.forward(hi).to_string(), "N");
}

}  // namespace
