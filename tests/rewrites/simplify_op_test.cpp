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

// The proc's assert that 8 divides H lets `H - 8 * (H / 8)` vanish and (H + 9) / 8 split, so
// that `(H + 9) / 8 - H / 8` is 1 (Exo's normal form, knowing no facts, keeps all three).
TEST(Simplify, UsesTheProcsDivisibilityAsserts) {
  Proc p = parse_proc(R"(def f(H: size, A: f32[H + 10] @ DRAM):
    assert H % 8 == 0
    for i in seq(0, H - 8 * (H / 8) + 10):
        A[i] = 0.0
    A[(H + 9) / 8 - H / 8] = 1.0
    A[H % 8] = 2.0
)");
  Proc q = simplify(p);
  EXPECT_NE(to_string(q).find("for i in seq(0, 10):"), std::string::npos) << q;
  EXPECT_NE(to_string(q).find("A[1] = 1.0"), std::string::npos) << q;
  EXPECT_NE(to_string(q).find("A[0] = 2.0"), std::string::npos) << q;
  expect_equivalent(p, q, {{"H", 8}});
  expect_equivalent(p, q, {{"H", 24}});
}

// A divisor that the assert does not imply, or no assert at all, leaves the remainder (as the
// modulo it is: H - 8 * (H / 8) is H % 8).
TEST(Simplify, KeepsDivisionsNoAssertExplains) {
  Proc p = parse_proc(R"(def f(H: size, A: f32[H + 10] @ DRAM):
    assert H % 4 == 0
    for i in seq(0, H - 8 * (H / 8) + 10):
        A[i] = 0.0
)");
  EXPECT_NE(to_string(simplify(p)).find("seq(0, H % 8 + 10)"), std::string::npos) << simplify(p);
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
