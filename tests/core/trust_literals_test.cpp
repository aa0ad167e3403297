// A literal must be representable in the precision it meets (a store's target, or the precision
// of the operator or extern it is an operand of), or the front end refuses it with a located
// TypeError; and an @instr template codegen could not emit is refused where it is parsed.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

namespace exocpp {
namespace {

// The TypeError (or ParseError) message parsing `src` raises; "" when it parses.
template <class E>
std::string error_of(const std::string& src) {
  try {
    parse_module(src);
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

void expect_type_error(const std::string& src, const std::string& phrase,
                       const std::string& where) {
  std::string e = error_of<TypeError>(src);
  EXPECT_NE(e.find(phrase), std::string::npos) << src << "\n-> " << e;
  EXPECT_NE(e.find(where), std::string::npos) << src << "\n-> " << e;
}

TEST(TrustLiterals, OutOfRangeI32LiteralIsATypeError) {
  // redteam 21_lit_overflow_i32
  expect_type_error("def f(x: i32[4] @ DRAM):\n    x[0] = 9007199254740992\n",
                    "the literal 9007199254740992 does not fit precision i32", "<string>:2:12");
  expect_type_error("def f(x: i32[4] @ DRAM):\n    x[1] = 3000000000\n",
                    "does not fit precision i32", ":2:");
  expect_type_error("def f(x: i32[4] @ DRAM):\n    x[1] = -2147483649\n",
                    "does not fit precision i32", ":2:");
}

TEST(TrustLiterals, OutOfRangeSmallIntegerLiteralsAreTypeErrors) {
  // redteam 21_lit_overflow_ui8
  expect_type_error("def f(x: i8[4] @ DRAM, y: ui8[4] @ DRAM):\n    x[0] = 200\n    y[0] = 300\n",
                    "the literal 200 does not fit precision i8", ":2:");
  expect_type_error("def f(y: ui8[4] @ DRAM):\n    y[0] = 256\n", "does not fit precision ui8",
                    ":2:");
  expect_type_error("def f(y: ui8[4] @ DRAM):\n    y[0] = -1\n", "does not fit precision ui8",
                    ":2:");
  expect_type_error("def f(y: ui16[4] @ DRAM):\n    y[0] = 65536\n", "does not fit precision ui16",
                    ":2:");
  expect_type_error("def f(y: i8[4] @ DRAM):\n    y[0] += 128\n", "does not fit precision i8",
                    ":2:");
}

TEST(TrustLiterals, IntegerLiteralsThatFitStayValid) {
  EXPECT_EQ(error_of<Error>(
                "def f(x: i8[4] @ DRAM, y: ui8[4] @ DRAM, z: ui16[4] @ DRAM, w: i32[4] @ DRAM):\n"
                "    x[0] = -128\n    x[1] = 127\n    y[0] = 0\n    y[1] = 255\n"
                "    z[0] = 65535\n    w[0] = 2147483647\n    w[1] = -2147483648\n"
                "    w[2] = w[1] * 65536 + 2147483647\n"
                "    y[2] = y[0] * 256 - 1000\n"  // operands are computed in 32-bit int
                "    x[2] = 3.0\n"),
            "");
}

TEST(TrustLiterals, LiteralOutsideInt32InsideIntegerArithmeticIsATypeError) {
  expect_type_error("def f(x: ui8[4] @ DRAM):\n    x[0] = x[1] + 3000000000\n",
                    "does not fit 32-bit int, in which ui8 arithmetic is computed", ":2:19");
}

TEST(TrustLiterals, LiteralExpressionWhoseIntermediateLeavesInt32IsATypeError) {
  // C computes `100000 * 100000 / 100000000` in int: the product overflows.
  expect_type_error("def f(x: i8[4] @ DRAM):\n    x[0] = 100000 * 100000 / 100000000\n",
                    "does not fit 32-bit int, in which C computes it", ":2:");
  EXPECT_EQ(error_of<Error>("def f(x: i8[4] @ DRAM):\n    x[0] = 1000 * 1000 / 10000\n"), "");
}

TEST(TrustLiterals, NonIntegralLiteralMeetingAnIntegerPrecisionIsATypeError) {
  // class 3: silently `* 0` before.
  expect_type_error(
      "def f(x: ui16[4] @ DRAM):\n    x[0] = x[1] * 0.33333334\n",
      "the literal 0.33333334 meets integer precision ui16 here and is not an integer", ":2:19");
  expect_type_error("def f(x: i32[4] @ DRAM):\n    x[0] = 0.5\n", "meets integer precision i32",
                    ":2:");
  expect_type_error("def f(x: i8[4] @ DRAM):\n    x[0] = -x[1] / 2.5\n",
                    "meets integer precision i8", ":2:");
  expect_type_error("config C:\n    a: i32\n\ndef f(x: i32[4] @ DRAM):\n    C.a = 1.5\n",
                    "meets integer precision i32", ":5:");
}

TEST(TrustLiterals, FloatLiteralsStayValidInFloatPrecisions) {
  EXPECT_EQ(
      error_of<Error>("def f(x: f32[4] @ DRAM, h: f16[4] @ DRAM, i: i32[4] @ DRAM):\n"
                      "    x[0] = x[1] * 0.33333334\n    h[0] = 65504.0\n    h[1] = h[0] * 0.1\n"
                      "    x[2] = 1e38\n    i[0] = x[0]\n"),
      "");
}

TEST(TrustLiterals, FloatLiteralOverflowingToInfinityIsATypeError) {
  expect_type_error("def f(h: f16[4] @ DRAM):\n    h[0] = 70000.0\n", "does not fit precision f16",
                    ":2:");
  expect_type_error("def f(h: f16[4] @ DRAM):\n    h[0] = h[1] * 100000\n",
                    "does not fit precision f16", ":2:");
  // bf16's largest finite value is below f32's: 3.39e38 is an f32 but rounds to bf16 infinity.
  expect_type_error("def f(b: bf16[4] @ DRAM):\n    b[0] = 3.397e38\n",
                    "does not fit precision bf16", ":2:");
  expect_type_error("def f(x: f32[4] @ DRAM):\n    x[0] = 1e39\n", "does not fit precision f32",
                    ":2:");
}

// ---- @instr templates -------------------------------------------------------------------------

TEST(TrustInstrTemplates, HoleNamingNoArgumentIsALocatedParseError) {
  // redteam 23
  std::string e = error_of<ParseError>(
      "@instr(\"{nonexistent} {x_data} {\")\ndef ins(x: [f32][4] @ DRAM):\n    x[0] = 1.0\n");
  EXPECT_NE(e.find("the template hole {nonexistent} names no argument of 'ins'"), std::string::npos)
      << e;
  EXPECT_NE(e.find("<string>:1:8"), std::string::npos) << e;
}

TEST(TrustInstrTemplates, AStrideHoleNamesADimensionOfABufferArgument) {
  std::string e = error_of<ParseError>(
      "@instr(\"f(&{x_data}, {x_stride2});\")\ndef ins(x: [f32][4, 4] @ DRAM):\n"
      "    x[0, 0] = 1.0\n");
  EXPECT_NE(e.find("asks for stride 2 of 'x', which has 2 dimensions"), std::string::npos) << e;
  Module m = parse_module(
      "@instr(\"f(&{x_data}, {x_stride0});\")\ndef ins(x: [f32][4, 4] @ DRAM):\n"
      "    x[0, 0] = 1.0\n");
  EXPECT_EQ(m.procs.size(), 1u);
}

TEST(TrustInstrTemplates, BaseAndOffsetHolesNameABufferArgument) {
  std::string e = error_of<ParseError>(
      "@instr(\"f({n_base});\")\ndef ins(n: size, x: [f32][4] @ DRAM):\n    x[0] = 1.0\n");
  EXPECT_NE(e.find("asks for the base of 'n', which is a control value"), std::string::npos) << e;
  e = error_of<ParseError>(
      "@instr(\"f({s_offset});\")\ndef ins(s: f32 @ DRAM, x: [f32][4] @ DRAM):\n"
      "    x[0] = s\n");
  EXPECT_NE(e.find("asks for the offset of 's', which is a scalar"), std::string::npos) << e;
  Module m = parse_module(
      "@instr(\"f({x_base}, {x_offset});\")\ndef ins(x: [f32][4] @ DRAM):\n    x[0] = 1.0\n");
  EXPECT_EQ(m.procs.size(), 1u);
}

TEST(TrustInstrTemplates, UnterminatedBraceIsALocatedParseError) {
  std::string e = error_of<ParseError>(
      "@instr(\"{x_data} = 0; {\")\ndef ins(x: [f32][4] @ DRAM):\n    x[0] = 1.0\n");
  EXPECT_NE(e.find("is never closed"), std::string::npos) << e;
  e = error_of<ParseError>(
      "@instr(\"{x_data} = 0; }\")\ndef ins(x: [f32][4] @ DRAM):\n    x[0] = 1.0\n");
  EXPECT_NE(e.find("an unmatched '}'"), std::string::npos) << e;
  e = error_of<ParseError>(
      "@instr(\"{n_data} = 0;\")\ndef ins(n: size, x: [f32][4] @ DRAM):\n    x[0] = 1.0\n");
  EXPECT_NE(e.find("which is a control value"), std::string::npos) << e;
  e = error_of<ParseError>(
      "@instr(\"puts(\\\"{x_data});\")\ndef ins(x: [f32][4] @ DRAM):\n    x[0] = 1.0\n");
  EXPECT_NE(e.find("unterminated string"), std::string::npos) << e;
}

TEST(TrustInstrTemplates, TemplatesWithCBlocksStringsAndCommentsStayValid) {
  EXPECT_EQ(
      error_of<Error>(
          "@instr(\"{ int k; for (k = 0; k < {n}; k++) { (&{x_data})[k] = 0; } } /* { */ // }\\n"
          "puts(\\\"}{\\\"); (void)'{';\")\n"
          "def ins(n: size, x: [f32][4] @ DRAM):\n    x[0] = 1.0\n"),
      "");
}

}  // namespace
}  // namespace exocpp
