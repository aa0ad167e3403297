// Codegen of every precision and of index arithmetic: data arithmetic in the buffer's
// precision, mixed-precision stores, and floor division / modulo on negative values, each
// compared with the interpreter.
#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

// One proc per data type: y = a * x + b - x / 2 (integer types: C's truncating division).
std::string arith_src(const std::string& t) {
  return "def arith(N: size, x: " + t + "[N] @ DRAM, y: " + t +
         "[N] @ DRAM):\n"
         "    for i in seq(0, N):\n"
         "        y[i] = 3 * x[i] + y[i] - x[i] / 2\n"
         "        y[i] += x[i] * x[i]\n";
}

class CodegenPrecision : public ::testing::TestWithParam<std::string> {};

TEST_P(CodegenPrecision, ArithmeticMatchesTheInterpreter) {
  EXPECT_EQ(check(arith_src(GetParam()), "arith"), "");
}

INSTANTIATE_TEST_SUITE_P(AllTypes, CodegenPrecision,
                         ::testing::Values("R", "f16", "f32", "f64", "i8", "ui8", "ui16", "i32"));

TEST(CodegenTypes, MixedPrecisionStoresRound) {
  const char* src = R"(
def mixed(N: size, x: f64[N] @ DRAM, h: f16[N] @ DRAM, y: f32[N] @ DRAM, z: i8[N] @ DRAM):
    for i in seq(0, N):
        y[i] = x[i] * 0.1
        h[i] = x[i] / 3.0
        z[i] = 100
        z[i] += 100
)";
  EXPECT_EQ(check(src, "mixed"), "");
}

TEST(CodegenTypes, ProcNamedLikeALibcFunctionCallsItself) {
  // libm has fdiv(); the loaded library must still call its own.
  const char* src = R"(
def fdiv(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = 2.0
)";
  EXPECT_EQ(check(src, "fdiv"), "");
}

TEST(CodegenTypes, FloorDivisionOfNegativeIndices) {
  // (i - 7) / 2 == -3 holds for i in {1, 2} under floor division, {0, 1} under C's truncation.
  const char* src = R"(
def fdiv(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        if (i - 7) / 2 == -3:
            x[i] = 1.0
)";
  EXPECT_EQ(check(src, "fdiv", {{"N", 8}}), "");
}

TEST(CodegenTypes, FloorModuloOfNegativeIndicesAddresses) {
  // C's % would give a negative index here.
  const char* src = R"(
def fmod_idx(N: size, x: f32[4] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        y[i] = x[(i - 8) % 4]
)";
  EXPECT_EQ(check(src, "fmod_idx", {{"N", 8}}), "");
}

TEST(CodegenTypes, PlainDivisionWhenTheDividendIsNonNegative) {
  const char* src = R"(
def pdiv(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i / 2 + i % 2] = 2.0
)";
  CSource c = compile_procs_to_c({proc_of(src, "pdiv")}, "lib");
  EXPECT_EQ(c.source.find("exo_floor"), std::string::npos) << c.source;
  EXPECT_EQ(check(src, "pdiv"), "");
}

}  // namespace
}  // namespace exocpp::codegen_test
