// FormattedExprStr (core/formatted_expr.h): ports of Exo's test_formatted_expr_* and
// test_cut_loop_by_expr1/2 (golden text exact), and its errors.
#include <exocpp/exocpp.h>

#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kTmpInLoop = R"(def bar(n: size, arr: R[n] @ DRAM):
    for i in seq(0, n):
        tmp: R
        tmp = 1.0
        arr[i] = tmp
)";

// test_formatted_expr_1: the hole is the loop's upper bound.
TEST(FormattedExprStr, FillsAHoleWithTheCursorsExpression) {
  Proc bar = parse_proc(kTmpInLoop);
  Cursor alloc = bar.find("tmp : _");
  Cursor loop = alloc.parent();
  Proc q = expand_dim(bar, "tmp : _", FormattedExprStr("_ + 1", loop.hi()), loop.name());
  EXPECT_EQ(to_string(q), R"(def bar(n: size, arr: R[n] @ DRAM):
    for i in seq(0, n):
        tmp: R[n + 1] @ DRAM
        tmp[i] = 1.0
        arr[i] = tmp[i]
)");
  expect_equivalent(bar, q);
}

// test_formatted_expr_2: two holes, and a string built around a hole.
TEST(FormattedExprStr, FillsSeveralHolesInOrder) {
  Proc bar = parse_proc(R"(def bar(n: size, m: size, arr: R[n, m] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: R
            tmp = 1.0
            arr[i, j] = tmp
)");
  Cursor seq_i = bar.find("tmp : _").parent();
  Cursor seq_o = seq_i.parent();
  FormattedExprStr new_dim("(_ + 1) * (1 + _)", seq_o.hi(), seq_i.hi());
  FormattedExprStr index(seq_o.name() + " * _ + " + seq_i.name(), seq_i.hi());
  Proc q = expand_dim(bar, "tmp : _", new_dim, index);
  EXPECT_EQ(to_string(q), R"(def bar(n: size, m: size, arr: R[n, m] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: R[(n + 1) * (1 + m)] @ DRAM
            tmp[i * m + j] = 1.0
            arr[i, j] = tmp[i * m + j]
)");
  expect_equivalent(bar, q);
}

// test_formatted_expr_3: a hole whose expression is itself a sum, then simplify.
TEST(FormattedExprStr, AHoleKeepsItsExpressionWhole) {
  Proc foo = parse_proc(R"(def foo(n: size, x: f32[n] @ DRAM):
    assert n >= 10
    for i in seq(0, n - 2):
        x[i] = 0.0
)");
  Cursor loop = foo.find_loop("i");
  Proc q = simplify(cut_loop(foo, loop, FormattedExprStr("_ - 1", loop.hi())));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: f32[n] @ DRAM):
    assert n >= 10
    for i in seq(0, -3 + n):
        x[i] = 0.0
    for i in seq(-3 + n, -2 + n):
        x[i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 10}});
}

// test_cut_loop_by_expr1 / test_cut_loop_by_expr2.
TEST(FormattedExprStr, CutsALoopAtItsBoundMinusOne) {
  Proc foo = parse_proc(R"(def foo(n: size, x: f32[n] @ DRAM):
    assert n >= 1
    for i in seq(0, n):
        x[i] = 0.0
)");
  Cursor loop = foo.find_loop("i");
  Proc q = cut_loop(foo, loop, FormattedExprStr("_ - 1", loop.hi()));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: f32[n] @ DRAM):
    assert n >= 1
    for i in seq(0, n - 1):
        x[i] = 0.0
    for i in seq(n - 1, n):
        x[i] = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}});
}

TEST(FormattedExprStr, CutsALoopAtItsLowerBoundPlusOne) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    assert n > m
    x: R[n] @ DRAM
    for i in seq(m, n):
        x[i] = 0.0
)");
  Cursor loop = foo.find_loop("i");
  Proc q = simplify(cut_loop(foo, loop, FormattedExprStr("_ + 1", loop.lo())));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size):
    assert n > m
    x: R[n] @ DRAM
    for i in seq(m, 1 + m):
        x[i] = 0.0
    for i in seq(1 + m, n):
        x[i] = 0.0
)");
}

// test_formatted_expr_errors_1.
TEST(FormattedExprStr, RefusesMoreHolesThanExpressions) {
  Proc bar = parse_proc(kTmpInLoop);
  Cursor hi = bar.find("tmp : _").parent().hi();
  EXPECT_THROW(FormattedExprStr("1 + _"), ParseError);
  EXPECT_THROW(FormattedExprStr("1 + _ + _", hi), ParseError);
}

TEST(FormattedExprStr, RefusesFewerHolesThanExpressions) {
  Proc bar = parse_proc(kTmpInLoop);
  Cursor hi = bar.find("tmp : _").parent().hi();
  EXPECT_THROW(FormattedExprStr("1 + n", hi), ParseError);
}

TEST(FormattedExprStr, RefusesAStatementCursor) {
  Proc bar = parse_proc(kTmpInLoop);
  try {
    FormattedExprStr("1 + _", bar.find("tmp : _"));
    FAIL() << "accepted a statement cursor";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("must be an expression cursor"), std::string::npos)
        << e.what();
  }
}

TEST(FormattedExprStr, APlainStringCannotHoldAHole) {
  Proc bar = parse_proc(kTmpInLoop);
  EXPECT_THROW(expand_dim(bar, "tmp : _", "1 + _", "i"), Error);
}

// test_formatted_expr_errors_2: the hole reads `i`, a buffer declared after the loop, which is
// not in scope where the index is parsed.
TEST(FormattedExprStr, RefusesAHoleReadingAVariableOutOfScope) {
  Proc bar = parse_proc(R"(def bar(n: size, arr: R[n] @ DRAM):
    for i in seq(0, n):
        tmp: R
        tmp = 1.0
        arr[i] = tmp
    i: R
    i = 1.0
    j: R
    j = i
)");
  Cursor i_read = bar.find("j = i").rhs();
  try {
    expand_dim(bar, "tmp : _", "n", FormattedExprStr("_", i_read));
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not found in the current environment"), std::string::npos)
        << e.what();
  }
}

// A hole stands for its own variable even where another of the same name is in scope: the
// outer `i` below is not the inner loop's `i`.
TEST(FormattedExprStr, AHoleMeansItsOwnVariableNotOneOfTheSameName) {
  Proc p = parse_proc(R"(def f(n: size, x: R[n]):
    for i in seq(0, n):
        x[i] = 0.0
    for i in seq(0, n):
        tmp: R
        tmp = 1.0
        x[i] = tmp
)");
  Cursor first_i = p.find("x[_] = 0.0").idx()[0];
  EXPECT_THROW(expand_dim(p, "tmp : _", "n", FormattedExprStr("_", first_i)), Error);
}

}  // namespace
