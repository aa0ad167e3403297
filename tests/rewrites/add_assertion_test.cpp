// add_assertion: a proc with one more assert (Exo's Procedure.add_assertion).
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N - 8 * (N / 8)):
        A[i] = 1.0
)";

TEST(AddAssertion, AddsTheAssertAndKeepsTheBody) {
  Proc p = parse_proc(kSrc);
  Proc q = add_assertion(p, "N % 8 == 0");
  EXPECT_NE(to_string(q).find("assert N % 8 == 0"), std::string::npos) << q;
  EXPECT_EQ(to_string(q.body()), to_string(p.body()));
  // On the arguments the new assert admits, both compute the same (drawn for q).
  EXPECT_EQ(compare_procs(q, p, {{"N", 16}}), "");
}

TEST(AddAssertion, LetsSimplifyUseTheFact) {
  Proc q = simplify(add_assertion(parse_proc(kSrc), "N % 8 == 0"));
  // N % 8 == 0 makes the loop's bound 0; simplify then drops the loop that never runs.
  EXPECT_EQ(to_string(q.body()), "pass\n") << q;
}

TEST(AddAssertion, TheResultIsANewProcThatRejectsOtherArguments) {
  Proc p = parse_proc(kSrc);
  Proc q = add_assertion(p, "N % 8 == 0");
  EXPECT_NE(q->eqv_class, p->eqv_class);
  EXPECT_NE(compare_procs(p, q, {{"N", 5}}), "");  // N = 5 fails q's assert
}

TEST(AddAssertion, RefusesAFalseCondition) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_assertion(p, "1 == 2"); }, "add_assertion", ErrorCode::BadArgument,
                 "arg.invalid", "would accept no arguments");
}

TEST(AddAssertion, AnAlwaysTrueConditionChangesNothing) {
  Proc p = parse_proc(kSrc);
  EXPECT_EQ(to_string(add_assertion(p, "2 == 2")), to_string(p));
}

TEST(AddAssertion, RefusesAnUnknownName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_assertion(p, "M > 2"); }, "add_assertion", ErrorCode::BadArgument,
                 "arg.parse_or_type", "M");
}

}  // namespace
