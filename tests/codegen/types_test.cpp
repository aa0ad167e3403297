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
                         ::testing::Values("R", "f16", "bf16", "f32", "f64", "i8", "ui8", "ui16",
                                           "i32"));

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

TEST(CodegenTypes, Bf16StoresFromEveryPrecisionRound) {
  const char* src = R"(
def mixed(N: size, x: f64[N] @ DRAM, y: f32[N] @ DRAM, z: i32[N] @ DRAM, b: bf16[N] @ DRAM,
          c: bf16[N] @ DRAM, d: bf16[N] @ DRAM, e: f32[N] @ DRAM):
    for i in seq(0, N):
        b[i] = x[i] / 3.0
        c[i] = z[i]
        c[i] += y[i]
        d[i] = sqrt(b[i] * b[i]) + 0.1
        d[i] += x[i]
        e[i] += b[i] * c[i]
)";
  EXPECT_EQ(check(src, "mixed"), "");
}

// Rounding an f64 or an i32 to f32 first and then to bf16 lands on a tie and rounds to even where
// the single rounding the interpreter does rounds up: the emitted C must round once.
TEST(CodegenTypes, Bf16ConversionFromF64AndI32RoundsOnce) {
  const char* src = R"(
def once(N: size, x: f64[N] @ DRAM, z: i32[N] @ DRAM, b: bf16[N] @ DRAM, c: bf16[N] @ DRAM):
    for i in seq(0, N):
        b[i] = x[i]
        c[i] = z[i]
)";
  Proc p = proc_of(src, "once");
  const double x0 = 1.0 + 1.0 / 256 + 0x1p-30, z0 = 16777216.0 + 65536.0 + 1.0;
  std::vector<ArgValue> args = {int64_t{2}, Buffer::from_values(ScalarKind::F64, {2}, {x0, -x0}),
                                Buffer::from_values(ScalarKind::I32, {2}, {z0, -z0}),
                                Buffer(ScalarKind::BF16, {2}, 0), Buffer(ScalarKind::BF16, {2}, 0)};
  std::vector<ArgValue> want = deep_copy(args);
  interpret(p, want);
  EXPECT_EQ(std::get<Buffer>(want[3]).get({0}), 1.0 + 1.0 / 128);
  EXPECT_EQ(std::get<Buffer>(want[4]).get({1}), -(16777216.0 + 131072.0));
  CompiledLibrary lib({p}, "once");
  lib.call("once", args);
  EXPECT_EQ(compare_args(p, want, args), "");
}

// A window struct over f16 or bf16 names the type in the header, before any definition does.
TEST(CodegenTypes, HalfTypesSeenOnlyInWindowStructsAreDefinedFirst) {
  const char* src = R"(
def w(x: [bf16][4] @ DRAM, h: [f16][4] @ DRAM, y: f32[4] @ DRAM):
    y[0] = 1.0
)";
  EXPECT_EQ(check(src, "w"), "");
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
