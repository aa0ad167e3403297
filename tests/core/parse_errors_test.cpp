// Negative tests of the parser: each malformed input must raise a ParseError at an exact line
// and column with a specific message. One table row per malformed input; each row is its own
// test (ParseErrors/ParseErrorTest.Reports/<Name>).
#include <gtest/gtest.h>

#include "core/externs.h"
#include "core/memory.h"
#include "core/parser.h"

using namespace exocpp;

namespace {

// `msg` may name the registries' current contents as {MEMORIES} and {EXTERNS}: other tests
// register memories and externs, so the lists are read when the case runs.
struct ErrorCase {
  std::string name;
  std::string src;
  int line, col;
  std::string msg;
};
void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

std::string join(const std::vector<std::string>& xs) {
  std::string s;
  for (const std::string& x : xs) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += s;
  return r;
}

// `depth` nested `if n < 1:` blocks around a `pass`.
std::string nested_ifs(int depth) {
  std::string s = "def f(n: size):\n";
  for (int i = 1; i <= depth; ++i) s += std::string(4 * i, ' ') + "if n < 1:\n";
  return s + std::string(4 * (depth + 1), ' ') + "pass\n";
}

std::vector<ErrorCase> cases() {
  return {
      {"ForMissingColon", "def f(n: size):\n    for i in seq(0, n)\n        pass\n", 2, 23,
       "expected ':' after the loop header, found end of line"},
      {"DefMissingColon", "def f(n: size)\n    pass\n", 1, 15,
       "expected ':' after the proc header 'def f(...)', found end of line"},
      {"IfMissingColon", "def f(n: size):\n    if n < 2\n        pass\n", 2, 13,
       "expected ':' after the 'if' condition, found end of line"},
      {"UnknownMemory", "def f(x: f32[4] @ SRAM):\n    pass\n", 1, 19,
       "unknown memory 'SRAM' (known memories: {MEMORIES})"},
      {"TabIndentation", "def f(n: size):\n\tpass\n", 2, 1,
       "tab character in indentation; indent with spaces only"},
      {"BadDedent", "def f(n: size):\n    if n < 2:\n        pass\n  pass\n", 4, 3,
       "unindent to column 3 does not match any outer indentation level"},
      {"UnexpectedIndent", "def f(n: size):\n    pass\n        pass\n", 3, 9,
       "unexpected indentation"},
      {"EmptyProcBodyAtEof", "def f(n: size):\n", 1, 16,
       "expected an indented block after line 1, found end of file"},
      {"EmptyLoopBody", "def f(n: size):\n    for i in seq(0, n):\n    pass\n", 3, 5,
       "expected an indented block after line 2, found 'pass'"},
      {"AssertAfterStatement", "def f(n: size):\n    pass\n    assert n > 1\n", 3, 5,
       "'assert' must come first in a proc body, before every other statement"},
      {"OnlyAsserts", "def f(n: size):\n    assert n > 1\n", 2, 17,
       "the proc body has only asserts; add at least one statement (e.g. 'pass')"},
      {"UndefinedVariableInExpr", "def f(x: f32[4]):\n    x[0] = y[0]\n", 2, 12,
       "undefined variable 'y'"},
      {"UndefinedVariableAssigned", "def f(x: f32[4]):\n    y = x[0]\n", 2, 5,
       "undefined variable 'y' (declare it first, e.g. 'y: R')"},
      {"UnknownProc", "def f(n: size):\n    g(n)\n", 2, 5,
       "unknown proc 'g' (procs must be defined before they are called)"},
      {"UnknownExtern", "def f(x: f32[4]):\n    x[0] = frobnicate(x[1])\n", 2, 12,
       "unknown function 'frobnicate' (known functions: {EXTERNS})"},
      {"UnknownConfig", "def f(x: f32[4]):\n    x[0] = Cfg.a\n", 2, 12,
       "undefined name 'Cfg' (no variable or config of that name)"},
      {"UnknownConfigField", "config Cfg:\n    a: f32\ndef f(x: f32[4]):\n    x[0] = Cfg.b\n", 4,
       16, "config 'Cfg' has no field 'b' (its fields: a)"},
      {"UnknownConfigWrite", "def f(x: f32[4]):\n    Cfg.a = x[0]\n", 2, 5, "unknown config 'Cfg'"},
      {"WriteLoopVariable", "def f(n: size):\n    for i in seq(0, n):\n        i = 1\n", 3, 9,
       "cannot assign to the loop variable 'i'"},
      {"WriteSizeArgument", "def f(n: size):\n    n = 4\n", 2, 5,
       "cannot assign to 'n': it is a size argument, and control arguments are read-only"},
      {"IntLiteralOverflow", "def f(x: f32[4]):\n    x[0] = 99999999999999999999\n", 2, 12,
       "integer literal '99999999999999999999' is too large (the largest is 9007199254740992)"},
      {"FloatLiteralOutOfRange", "def f(x: f32[4]):\n    x[0] = 1e999\n", 2, 12,
       "float literal '1e999' is out of range"},
      {"UnterminatedString", "@instr(\"abc\ndef f(x: f32):\n    pass\n", 1, 8,
       "unterminated string literal (missing closing quote)"},
      {"BackslashEndsUnterminatedString", "@instr(\"abc\\", 1, 8,
       "unterminated string literal (missing closing quote)"},
      {"UnterminatedTripleString", "@instr(\"\"\"abc\ndef f(x: f32):\n    pass\n", 1, 8,
       "unterminated triple-quoted string (it reaches the end of file)"},
      {"UnclosedParen", "def f(n: size:\n    pass\n", 1, 6, "'(' was never closed"},
      {"UnmatchedCloser", "def f(n: size)):\n    pass\n", 1, 15, "unmatched ')'"},
      {"MismatchedBracket", "def f(x: f32[4)):\n    pass\n", 1, 15,
       "closing ')' does not match '[' opened at line 1, column 13"},
      {"BracketsTooDeep",
       "def f(x: f32[4]):\n    x[0] = " + std::string(201, '(') + "1.0" + std::string(201, ')') +
           "\n",
       2, 212, "brackets nested too deeply (more than 200 levels)"},
      {"UnaryMinusTooDeep", "def f(x: f32[4]):\n    x[0] = " + std::string(300, '-') + "x[1]\n", 2,
       211, "expression nested too deeply (more than 200 levels)"},
      {"BlocksTooDeep", nested_ifs(101), 101, 401,
       "blocks nested too deeply (more than 100 levels)"},
      {"ExpressionTooLong", "def f(x: f32[4]):\n    x[0] = x[1]" + repeat(" + x[1]", 201) + "\n", 2,
       12, "expression too large (nested more than 200 operators deep)"},
      {"ChainedComparison", "def f(n: size):\n    assert 0 < n < 8\n    pass\n", 2, 18,
       "chained comparisons such as 'a < b < c' are not supported; write 'a < b and b < c'"},
      {"NotEqualUnsupported", "def f(n: size):\n    assert n != 8\n    pass\n", 2, 14,
       "the operator '!=' is not supported; compare with '<', '<=', '>', '>=' or '=='"},
      {"NotUnsupported", "def f(b: bool):\n    assert not b\n    pass\n", 2, 12,
       "'not' is not supported; negate the comparison instead (e.g. 'a >= b' for 'not a < b')"},
      {"MinusEqualsUnsupported", "def f(x: f32[4]):\n    x[0] -= 1.0\n", 2, 10,
       "the operator '-=' is not supported; only '=' and '+=' are"},
      {"WindowInArithmetic", "def f(x: f32[4]):\n    w = x[0:2] + 1.0\n", 2, 9,
       "a window expression (with a ':' slice) is allowed only as a proc call argument or on the "
       "right of a window statement 'w = A[i, 0:16]'"},
      {"WindowAssignedToElement", "def f(x: f32[4], y: f32[4]):\n    x[0] = y[0:2]\n", 2, 12,
       "a window expression (with a ':' slice) is allowed only as a proc call argument or on the "
       "right of a window statement 'w = A[i, 0:16]'"},
      {"SliceOnLeftHandSide", "def f(x: f32[4]):\n    x[0:2] = 1.0\n", 2, 8,
       "cannot assign to a slice; assign element by element or call a proc with the window"},
      {"DuplicateArgument", "def f(n: size, n: index):\n    pass\n", 1, 16,
       "duplicate argument 'n'"},
      {"DuplicateProc", "def f():\n    pass\ndef f():\n    pass\n", 3, 5,
       "proc 'f' is already defined at line 1"},
      {"DuplicateConfig", "config C:\n    a: f32\nconfig C:\n    b: f32\n", 3, 8,
       "config 'C' is already defined at line 1"},
      {"ControlArgumentWithMemory", "def f(n: size @ DRAM):\n    pass\n", 1, 15,
       "the control argument 'n' (size) cannot have a memory annotation"},
      {"TensorOfControlType", "def f(x: size[4]):\n    pass\n", 1, 14,
       "a tensor's element type must be a data type (R, f32, ...), found 'size'"},
      {"UnknownType", "def f(x: float[4]):\n    pass\n", 1, 10,
       "unknown type 'float' (expected size, index, int, bool, stride, R, f16, bf16, f32, f64, i8, "
       "ui8, "
       "ui16 or i32)"},
      {"AllocWindow", "def f():\n    t: [f32][4]\n", 2, 8,
       "cannot allocate a window type; allocate a tensor such as f32[16]"},
      {"AllocControl", "def f():\n    t: index\n", 2, 8,
       "cannot allocate 't' of control type 'index'; only data types (R, f32, ...) can be "
       "allocated"},
      {"UnknownDecorator", "@inline\ndef f():\n    pass\n", 1, 2,
       "unknown decorator '@inline' (expected @instr(\"...\") or @proc)"},
      {"DecoratorWithoutDef", "@proc\nconfig C:\n    a: f32\n", 2, 1,
       "expected 'def' after the decorator, found 'config'"},
      {"InstrWithoutString", "@instr(42)\ndef f():\n    pass\n", 1, 8,
       "expected a string (the C template) in @instr(...), found '42'"},
      {"InstrUnknownKeyword", "@instr(\"x\", c_header=\"y\")\ndef f():\n    pass\n", 1, 13,
       "unknown keyword argument 'c_header' of @instr (expected 'c_global', 'sync', "
       "'collective' or 'async')"},
      {"ElseWithoutIf", "def f():\n    pass\n    else:\n        pass\n", 3, 5,
       "'else' without a matching 'if'"},
      {"StrayCharacter", "def f(x: f32[4]):\n    x[0] = $\n", 2, 12, "unexpected character '$'"},
      {"InvalidNumber", "def f(x: f32[4]):\n    x[0] = 1abc\n", 2, 12,
       "invalid number literal '1abc'"},
      {"EofInExpression", "def f(x: f32[4]):\n    x[0] = 1.0 +", 2, 17,
       "expected an expression, found end of line"},
      {"KeywordAsArgumentName", "def f(for: size):\n    pass\n", 1, 7,
       "expected an argument name, found the keyword 'for'"},
      {"StrideDimensionOutOfRange",
       "def f(A: [f32][4, 4]):\n    assert stride(A, 2) == 1\n    pass\n", 2, 22,
       "dimension 2 is out of range: 'A' has 2 dimensions"},
      {"StrideOfScalar", "def f(a: f32):\n    assert stride(a, 0) == 1\n    pass\n", 2, 19,
       "stride() needs a tensor or window, but 'a' is a scalar"},
      {"DoubleBracketIndexing", "def f(A: f32[4, 4]):\n    A[0][1] = 1.0\n", 2, 9,
       "index a tensor with one pair of brackets, 'A[i, j]', not 'A[i][j]'"},
      {"DoubleBracketRead", "def f(A: f32[4, 4], x: f32):\n    x = A[0][1]\n", 2, 13,
       "index a tensor with one pair of brackets, 'A[i, j]', not 'A[i][j]'"},
      {"LoopOverRange", "def f(n: size):\n    for i in range(0, n):\n        pass\n", 2, 14,
       "expected a loop mode ('seq', 'par', 'cuda_blocks', 'cuda_threads' or 'cuda_warps') after "
       "'in', found 'range'"},
      {"LoopWithoutIn", "def f(n: size):\n    for i seq(0, n):\n        pass\n", 2, 11,
       "expected 'in' after the loop variable 'i', found 'seq'"},
      {"ProcCallInExpression", "def g(x: f32):\n    pass\ndef f(x: f32[4]):\n    x[0] = g(x[1])\n",
       4, 12, "'g' is a proc; a proc call is a statement, not an expression"},
      {"ExternAsStatement", "def f(x: f32):\n    relu(x)\n", 2, 5,
       "'relu' is an extern function; its result must be used in an expression"},
      {"ConfigReduce", "config C:\n    a: f32\ndef f(x: f32):\n    C.a += x\n", 4, 9,
       "a config field can only be assigned with '=', not reduced with '+='"},
      {"TopLevelStatement", "x = 1\n", 1, 1,
       "expected 'def', 'config' or a decorator at the top level, found 'x'"},
      {"NestedDef", "def f():\n    def g():\n        pass\n", 2, 5,
       "'def' is allowed only at the top level, not inside a proc"},
      {"UnknownEscape", "@instr(\"a\\qb\")\ndef f():\n    pass\n", 1, 10,
       "unknown escape sequence '\\q' in string (use \\n, \\t, \\\", \\\\)"},
      {"ConfigFieldTensor", "config C:\n    a: f32[4]\n", 2, 8,
       "config field 'a' must have a scalar type, not a tensor or window"},
      {"ConfigWithoutFields", "config C:\ndef f():\n    pass\n", 2, 1,
       "expected an indented list of fields after 'config C:', found 'def'"},
      {"OmittedSliceEndBeyondRank", "def f(A: f32[4]):\n    w = A[0, 1:]\n", 2, 16,
       "cannot leave out the end of slice 2: 'A' has only 1 dimension"},
      {"FloorDivision", "def f(n: size):\n    assert n // 2 == 1\n    pass\n", 2, 14,
       "the operator '//' is not supported; '/' on integers already rounds down"},
      {"ReturnTypeNotNone", "def f() -> int:\n    pass\n", 1, 12,
       "procs return nothing: only '-> None' is allowed"},
      {"MissingCommaBetweenArgs", "def f(n: size m: size):\n    pass\n", 1, 15,
       "expected ',' between arguments, found 'm'"},
      {"MissingArgumentType", "def f(n):\n    pass\n", 1, 8,
       "expected ':' after the argument name 'n' (write 'name: type'), found ')'"},
      {"StatementOnHeaderLine", "def f(): pass\n", 1, 10,
       "expected end of line after ':' (the body goes on the following lines, indented), found "
       "'pass'"},
      {"BadLoopBoundSeparator", "def f(n: size):\n    for i in seq(0; n):\n        pass\n", 2, 19,
       "unexpected character ';'"},
      {"IndentedFirstLine", "  def f():\n    pass\n", 1, 3,
       "unexpected indentation at the start of the file"},
      {"AssignWithoutValue", "def f(x: f32[4]):\n    x[0] =\n", 2, 11,
       "expected an expression, found end of line"},
      {"ConfigWriteToVariable", "def f(x: f32):\n    x.a = 1.0\n", 2, 5,
       "'x' is a variable, not a config; only config fields are written with '.'"},
      {"ExtraTokensAfterStatement", "def f(x: f32[4]):\n    x[0] = 1.0 2.0\n", 2, 16,
       "expected end of line after the assignment, found '2.0'"},
      {"StringInExpression", "def f(x: f32[4]):\n    x[0] = \"a\"\n", 2, 12,
       "expected an expression, found string \"a\""},
  };
}

std::string expand(std::string msg) {
  auto sub = [&](const std::string& key, const std::string& val) {
    size_t at = msg.find(key);
    if (at != std::string::npos) msg.replace(at, key.size(), val);
  };
  sub("{MEMORIES}", join(memory_names()));
  sub("{EXTERNS}", join(extern_names()));
  return msg;
}

class ParseErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ParseErrorTest, Reports) {
  const ErrorCase& c = GetParam();
  try {
    parse_module(c.src, {}, "bad.exo");
    ADD_FAILURE() << "no error for input:\n" << c.src;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.kind(), "parse error");
    EXPECT_EQ(e.loc().line, c.line) << "input:\n" << c.src << "\nerror:\n" << e.what();
    EXPECT_EQ(e.loc().col, c.col) << "input:\n" << c.src << "\nerror:\n" << e.what();
    EXPECT_EQ(e.reason(), expand(c.msg)) << "input:\n" << c.src << "\nerror:\n" << e.what();
    ASSERT_NE(e.loc().file, nullptr);
    EXPECT_EQ(e.loc().file->name, "bad.exo");
    EXPECT_NE(std::string(e.what()).find("^"), std::string::npos) << "no caret excerpt:\n"
                                                                  << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type for input:\n" << c.src << "\n" << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(ParseErrors, ParseErrorTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<ErrorCase>& i) { return i.param.name; });

// parse_expr (the entry point scheduling operations use) reports in the same way.
TEST(ParseErrorsExpr, UndefinedNameInScopedExpression) {
  Sym i("i");
  try {
    parse_expr("i + j", {{i, Type(ScalarKind::Index)}});
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.loc().line, 1);
    EXPECT_EQ(e.loc().col, 5);
    EXPECT_EQ(e.reason(), "undefined variable 'j'");
  }
}

TEST(ParseErrorsExpr, WindowRejectedUnlessAllowed) {
  Sym a("A");
  Type t(ScalarKind::F32, {ConstNode::make_int(8)});
  EXPECT_NO_THROW(parse_expr("A[0:4]", {{a, t}}, {}, /*allow_window=*/true));
  EXPECT_THROW(parse_expr("A[0:4]", {{a, t}}), ParseError);
}

TEST(ParseErrorsExpr, EmptyExpression) {
  try {
    parse_expr("", {});
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.reason(), "expected an expression, found end of file");
  }
}

}  // namespace
