// Tests of index arguments and data conditions in the language (docs/language.md,
// "Value-dependent control"): the syntax and its print -> parse identity, each typing rule with
// its refusal, and the interpreter's entry check and data comparisons.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/errors.h"
#include "core/interpreter.h"
#include "core/parser.h"
#include "core/printer.h"
#include "support/csr_fixture.h"
#include "typecheck_test_util.h"

namespace exocpp {
namespace {

using typecheck_test::expect_ok;
using typecheck_test::expect_type_error;

const char* kSpmv = exocpp::testing::kCsrSpmv;

Proc parse_one(const std::string& src) { return parse_module(src, {}, "<t>").procs.back(); }

TEST(IndexArgs, PrintParsesBackToTheSameText) {
  Proc p = parse_one(kSpmv);
  EXPECT_EQ(to_string(p), kSpmv);
}

TEST(IndexArgs, ElementReadsAreControlInts) {
  Proc p = parse_one(kSpmv);
  const ForNode* rows = p.body()[0].as<ForNode>();
  const ForNode* nz = rows->body[1].as<ForNode>();
  EXPECT_EQ(nz->lo.type().base, ScalarKind::Int);
  EXPECT_EQ(nz->hi.type().base, ScalarKind::Int);
  EXPECT_TRUE(p.args()[3].is_index_arg());
  EXPECT_FALSE(p.args()[5].is_index_arg());
}

TEST(IndexArgs, OnlyIntegerDataDeclaresARange) {
  try {
    parse_one("def f(n: size, x: f32[n] @ DRAM in range(0, n)):\n    pass\n");
    ADD_FAILURE() << "a float argument took a range";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("only integer data"), std::string::npos) << e.what();
  }
}

TEST(IndexArgs, AreReadOnly) {
  expect_type_error(
      "def f(n: size, c: i32[n] @ DRAM in range(0, n)):\n    for i in seq(0, n):\n"
      "        c[i] = 0\n",
      "cannot write to 'c': it is an index argument of type i32[n], which is read-only (its "
      "declared value range is checked once, where the proc is entered)",
      3, 9);
}

TEST(IndexArgs, CannotBeWindowed) {
  expect_type_error(
      "def f(n: size, c: i32[n] @ DRAM in range(0, n)):\n    w = c[0:n]\n    pass\n",
      "cannot take a window of 'c': it is an index argument of type i32[n], whose elements are "
      "control values; read them one by one (or pass a window of it to an index parameter of a "
      "call)",
      2, 9);
}

TEST(IndexArgs, AWindowPassesOnlyToAnIndexParameter) {
  expect_type_error(
      "def g(k: size, w: [i32][k] @ DRAM):\n    pass\n\n"
      "def f(n: size, c: i32[n] @ DRAM in range(0, n)):\n    g(n, c[0:n])\n",
      "argument 'w' of 'g' does not declare a value range, so it cannot take 'c', an index "
      "argument of the caller",
      5, 10);
}

// A gather's indices: a window of the caller's index argument for a tensor index parameter.
TEST(IndexArgs, AWindowPassesToAnIndexParameter) {
  EXPECT_NO_THROW(
      parse_module("def g(k: size, v: i32[4] @ DRAM in range(0, k)):\n    pass\n\n"
                   "def f(n: size, c: i32[4 * n] @ DRAM in range(0, n)):\n"
                   "    for i in seq(0, n):\n        g(n, c[4 * i:4 * i + 4])\n"));
}

TEST(IndexArgs, RangeIsBuiltFromSizes) {
  expect_type_error(
      "def f(n: size, c: i32[n] @ DRAM in range(0, n), d: i32[n] @ DRAM in range(0, c[0])):\n"
      "    pass\n",
      "the upper end of 'd''s value range must be built from size arguments and constants, but "
      "'c' is an index argument of type i32[n]",
      1, 78);
}

TEST(IndexArgs, NotInAsserts) {
  expect_type_error(
      "def f(n: size, c: i32[n] @ DRAM in range(0, n)):\n    assert c[0] == 0\n    pass\n",
      "an assert states facts about control arguments; 'c' is an index argument, whose values "
      "are checked against its declared range instead",
      2, 12);
}

TEST(IndexArgs, PassOnlyToIndexParameters) {
  expect_type_error(
      "def g(k: size, v: i32[k] @ DRAM):\n    pass\n\n"
      "def f(n: size, c: i32[n] @ DRAM in range(0, n)):\n    g(n, c)\n",
      "argument 'v' of 'g' does not declare a value range, so it cannot take 'c', an index "
      "argument of the caller",
      5, 10);
  expect_type_error(
      "def g(k: size, v: i32[k] @ DRAM in range(0, k)):\n    pass\n\n"
      "def f(n: size, c: i32[n] @ DRAM):\n    g(n, c)\n",
      "argument 'v' of 'g' is an index argument (it declares a value range); pass it an index "
      "argument of the caller, whole or a window of one",
      5, 10);
}

TEST(IndexArgs, ElementPassesToAControlParameter) {
  expect_ok(
      "def g(k: index, x: f32[8] @ DRAM):\n    assert k < 8\n    x[k] = 0.0\n\n"
      "def f(c: i32[4] @ DRAM in range(0, 8), x: f32[8] @ DRAM):\n    for i in seq(0, 4):\n"
      "        g(c[i], x)\n");
}

TEST(DataConditions, CompareOnlyInIfConditions) {
  expect_ok(
      "def f(n: size, x: f32[n] @ DRAM, m: f32 @ DRAM):\n    for i in seq(0, n):\n"
      "        if x[i] > m and i < n:\n            m = x[i]\n        else:\n            pass\n");
  expect_type_error("def f(n: size, x: f32[n] @ DRAM):\n    assert x[0] > 0.0\n    pass\n",
                    "data values are compared with '>' only in an if condition (elsewhere use "
                    "select())",
                    2, 12);
}

TEST(DataConditions, MixedPrecisionsAreRefused) {
  expect_type_error(
      "def f(x: f32 @ DRAM, y: f64 @ DRAM):\n    if x < y:\n        x = 0.0\n",
      "cannot compare f32 and f64 with '<': mixed precisions (R unifies with any precision)", 2, 8);
}

TEST(DataConditions, ControlAndIntegerDataDoNotCompare) {
  expect_type_error(
      "def f(n: size, x: i32[n] @ DRAM):\n    for i in seq(0, n):\n        if x[i] < i:\n"
      "            x[i] = 0\n",
      "cannot compare i32 and index with '<': data and control values do not mix (an integer "
      "data value is a control value only when read from an index argument)",
      3, 12);
}

// ---- the interpreter ------------------------------------------------------------------------

Buffer ints(ScalarKind k, std::vector<double> v) {
  std::vector<int64_t> shape = {static_cast<int64_t>(v.size())};
  return Buffer::from_values(k, shape, v);
}

TEST(IndexArgs, InterpreterRefusesAValueOutOfRangeAtEntry) {
  Proc p = parse_one(kSpmv);
  // m = 2, n = 3, nnz = 3; col[1] = 3 is outside range(0, 3).
  std::vector<ArgValue> args = {int64_t(2),
                                int64_t(3),
                                int64_t(3),
                                ints(ScalarKind::I32, {0, 1, 3}),
                                ints(ScalarKind::I32, {0, 3, 1}),
                                ints(ScalarKind::F32, {1, 2, 3}),
                                ints(ScalarKind::F32, {1, 1, 1}),
                                ints(ScalarKind::F32, {7, 7})};
  try {
    interpret(p, args);
    ADD_FAILURE() << "an out-of-range index ran";
  } catch (const InterpError& e) {
    EXPECT_NE(std::string(e.what()).find("index argument 'col' of proc 'spmv': col[1] = 3 is "
                                         "outside its declared range range(0, n) = [0, 3)"),
              std::string::npos)
        << e.what();
  }
  // Nothing ran: y is as it was.
  EXPECT_EQ(std::get<Buffer>(args[7]).get({0}), 7.0);
}

TEST(IndexArgs, InterpreterRunsCsrRows) {
  Proc p = parse_one(kSpmv);
  // Row 0 holds columns 2 and 0, row 1 is empty.
  std::vector<ArgValue> args = {int64_t(2),
                                int64_t(3),
                                int64_t(2),
                                ints(ScalarKind::I32, {0, 2, 2}),
                                ints(ScalarKind::I32, {2, 0}),
                                ints(ScalarKind::F32, {10, 100}),
                                ints(ScalarKind::F32, {1, 2, 3}),
                                ints(ScalarKind::F32, {7, 7})};
  interpret(p, args);
  EXPECT_EQ(std::get<Buffer>(args[7]).get({0}), 130.0);
  EXPECT_EQ(std::get<Buffer>(args[7]).get({1}), 0.0);
}

TEST(DataConditions, NaNComparesFalseAndZerosCompareEqual) {
  Proc p = parse_one(
      "def f(a: f32 @ DRAM, b: f32 @ DRAM, lt: i32 @ DRAM, ge: i32 @ DRAM, eq: i32 @ DRAM):\n"
      "    lt = 0\n    ge = 0\n    eq = 0\n    if a < b:\n        lt = 1\n"
      "    if a >= b:\n        ge = 1\n    if a == b:\n        eq = 1\n");
  auto run = [&](double a, double b) {
    std::vector<ArgValue> args = {
        Buffer::scalar(ScalarKind::F32, a), Buffer::scalar(ScalarKind::F32, b),
        Buffer::scalar(ScalarKind::I32, 9), Buffer::scalar(ScalarKind::I32, 9),
        Buffer::scalar(ScalarKind::I32, 9)};
    interpret(p, args);
    return std::to_string(static_cast<int>(std::get<Buffer>(args[2]).get({}))) +
           std::to_string(static_cast<int>(std::get<Buffer>(args[3]).get({}))) +
           std::to_string(static_cast<int>(std::get<Buffer>(args[4]).get({})));
  };
  EXPECT_EQ(run(NAN, 1.0), "000");
  EXPECT_EQ(run(-0.0, 0.0), "011");
  EXPECT_EQ(run(-INFINITY, 1.0), "100");
}

TEST(DataConditions, LoopVariableStoredIntoIntegerDataWraps) {
  Proc p =
      parse_one("def f(u: ui8[300] @ DRAM):\n    for i in seq(0, 300):\n        u[i] = i - 2\n");
  std::vector<ArgValue> args = {Buffer(ScalarKind::UI8, {300})};
  interpret(p, args);
  EXPECT_EQ(std::get<Buffer>(args[0]).get({0}), 254.0);
  EXPECT_EQ(std::get<Buffer>(args[0]).get({299}), 41.0);
}

}  // namespace
}  // namespace exocpp
