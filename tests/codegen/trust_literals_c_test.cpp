// Literals and intermediates in emitted C take the precision the interpreter computes them in:
// literal-only subexpressions in their context's precision, integer literals converted to a
// float context's type, f16 extern results rounded before the next operation, and no spelling a
// compiler rejects. Each proc is compiled by the in-process JIT and by the system compiler and
// compared with the interpreter bit for bit on inputs that include non-integer values, ±0, ±inf,
// NaN and values at the type's limits.
#include <cmath>
#include <limits>

#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

// Values every float input cycles through (rounded to the buffer's precision when stored).
const std::vector<double>& float_inputs() {
  static const std::vector<double> v = {0.1,
                                        -2.7,
                                        1.0 / 3,
                                        0.0,
                                        -0.0,
                                        std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity(),
                                        std::nan(""),
                                        65504.0,
                                        -65519.0,
                                        6.0e-8,
                                        1.0 + 0x1p-11,
                                        3.4028234663852886e38,
                                        1.1754943508222875e-38,
                                        16777217.0,
                                        -1.0e300,
                                        1.7976931348623157e308,
                                        -1.7976931348623157e308,
                                        4.9406564584124654e-324,
                                        2049.0,
                                        0.5};
  return v;
}

struct Compiler {
  const char* name;
  bool in_process;
};
void PrintTo(const Compiler& c, std::ostream* os) { *os << c.name; }

class TrustLiteralsC : public ::testing::TestWithParam<Compiler> {
 protected:
  // "" when the compiled proc `name` of `src` computes, on every float input above (shifted by
  // `seed` so each element meets several), bit for bit what the interpreter computes.
  std::string agrees(const std::string& src, const std::string& name = "f") {
    Proc p = proc_of(src, name);
    CompiledLibrary lib({p}, "lit", {.in_process = GetParam().in_process});
    const std::vector<double>& in = float_inputs();
    for (size_t seed = 0; seed < 3; ++seed) {
      std::vector<ArgValue> args = random_args(p, {}, seed + 1, {.real_as = ScalarKind::F32});
      size_t k = seed;
      for (ArgValue& a : args)
        if (Buffer* b = std::get_if<Buffer>(&a); b && is_float(b->kind()))
          for (int64_t i = 0; i < b->num_elements(); ++i) b->set_flat(i, in[k++ % in.size()]);
      std::vector<ArgValue> compiled = deep_copy(args);
      interpret(p, args, {.real_as = ScalarKind::F32});
      lib.call(name, compiled);
      std::string d = compare_args(p, args, compiled, {.nan_equal = true, .signed_zeros = true});
      if (!d.empty())
        return "inputs " + std::to_string(seed) + ": " + d + "\n" + lib.source().source;
    }
    return "";
  }
};

// `C[i] = <rhs>` over 18 elements of precision `t`.
std::string store_src(const std::string& t, const std::string& rhs, const std::string& op = "=") {
  return "def f(x: " + t + "[18] @ DRAM, C: " + t + "[18] @ DRAM):\n" +
         "    for i in seq(0, 18):\n        C[i] " + op + " " + rhs + "\n";
}

// ---- literal-only subexpressions -----------------------------------------------------------

TEST_P(TrustLiteralsC, LiteralOnlySumInF64IsComputedInDouble) {
  // redteam3 61a: it was emitted as `(float)0.1 + (float)0.2`.
  EXPECT_EQ(agrees(store_src("f64", "x[i] + (0.1 + 0.2)")), "");
}

TEST_P(TrustLiteralsC, LiteralOnlySumInF32RoundsAfterEachOperation) {
  // redteam3 61b: 16777216 + 1 + 1 is 16777216 in float.
  EXPECT_EQ(agrees(store_src("f32", "x[i] + (16777216.0 + 1.0 + 1.0)")), "");
}

TEST_P(TrustLiteralsC, LiteralOnlyProductInF16RoundsAfterEachOperation) {
  EXPECT_EQ(agrees(store_src("f16", "x[i] + (0.1 * 3.0 - 0.3)")), "");
}

TEST_P(TrustLiteralsC, LiteralOnlySumInBf16RoundsAfterEachOperation) {
  EXPECT_EQ(agrees(store_src("bf16", "x[i] + (0.1 + 0.2 + 256.0)")), "");
}

TEST_P(TrustLiteralsC, NegatedLiteralOnlyProductTakesTheContext) {
  EXPECT_EQ(agrees(store_src("f64", "x[i] * -(2.0 * 0.1)")), "");
}

TEST_P(TrustLiteralsC, LiteralOnlyValueStoredWholeTakesTheTarget) {
  EXPECT_EQ(agrees(store_src("f64", "0.1 + 0.2")), "");
}

TEST_P(TrustLiteralsC, LiteralOnlyValueReducedTakesTheTarget) {
  EXPECT_EQ(agrees(store_src("f32", "16777216.0 + 1.0 + 1.0", "+=")), "");
}

TEST_P(TrustLiteralsC, LiteralOnlyExternInF64IsComputedInDouble) {
  EXPECT_EQ(agrees(store_src("f64", "x[i] + sqrt(2.0) * sin(0.1)")), "");
}

TEST_P(TrustLiteralsC, LiteralOnlyProductInI32WrapsAsIntegerData) {
  // 100000 * 100000 wraps in 32-bit int data arithmetic.
  EXPECT_EQ(agrees("def f(x: i32[4] @ DRAM, C: i32[4] @ DRAM):\n"
                   "    for i in seq(0, 4):\n"
                   "        C[i] = x[i] + (100000.0 * 100000.0)\n"),
            "");
}

TEST_P(TrustLiteralsC, LiteralOnlyValueInAnRProcIsComputedAsR) {
  EXPECT_EQ(agrees(store_src("R", "x[i] + (0.1 + 0.2)")), "");
}

// ---- single literals ---------------------------------------------------------------------------

TEST_P(TrustLiteralsC, IntegerLiteralInF16ArithmeticIsTheF16Value) {
  // 2049 is 2048 in f16; C's `x + 2049` added the int in float.
  EXPECT_EQ(agrees(store_src("f16", "x[i] + 2049")), "");
}

TEST_P(TrustLiteralsC, IntegerLiteralInBf16ArithmeticRoundsOnce) {
  // 2^24 + 2^16 + 1 rounds up in bf16, but to 2^24 through float.
  EXPECT_EQ(agrees(store_src("bf16", "x[i] * 0.5 + 16842753")), "");
}

TEST_P(TrustLiteralsC, IntegerLiteralReducedIntoF16IsTheF16Value) {
  EXPECT_EQ(agrees(store_src("f16", "2049", "+=")), "");
}

TEST_P(TrustLiteralsC, IntegerLiteralInF32ArithmeticIsTheFloatValue) {
  EXPECT_EQ(agrees(store_src("f32", "x[i] - 16777217")), "");
}

TEST_P(TrustLiteralsC, NonRepresentableLiteralsInF16) {
  EXPECT_EQ(agrees(store_src("f16", "x[i] * 0.1 + 65519.0")), "");
}

TEST_P(TrustLiteralsC, NegativeZeroLiteralKeepsItsSign) {
  for (const char* t : {"f16", "bf16", "f32", "f64"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(agrees(store_src(t, "-0.0")), "");
    EXPECT_EQ(agrees(store_src(t, "x[i] * -0.0 + -0.0")), "");
  }
}

TEST_P(TrustLiteralsC, LiteralsInSelectTakeItsPrecision) {
  EXPECT_EQ(agrees(store_src("f16", "select(x[i], 0.1, 2049, -0.0)")), "");
}

// ---- extern results ----------------------------------------------------------------------------

TEST_P(TrustLiteralsC, F16ExternResultsRoundBeforeTheNextOperation) {
  for (const char* fn : {"sqrt", "sin", "cos", "expf", "sigmoid"}) {
    SCOPED_TRACE(fn);
    EXPECT_EQ(agrees(store_src("f16", std::string(fn) + "(x[i]) * 3.0 + x[i]")), "");
  }
}

TEST_P(TrustLiteralsC, F32ExternResultsAreTheInterpreters) {
  for (const char* fn : {"sqrt", "sin", "cos", "expf", "sigmoid"}) {
    SCOPED_TRACE(fn);
    EXPECT_EQ(agrees(store_src("f32", std::string(fn) + "(x[i] * 0.7) * 3.0")), "");
  }
}

TEST_P(TrustLiteralsC, F16ReluCompiles) {
  // redteam3 63: `(_Float16)0` is rejected by clang 14, where exo_f16 is __fp16.
  EXPECT_EQ(agrees(store_src("f16", "relu(x[i]) * x[i] + abs(x[i])")), "");
}

INSTANTIATE_TEST_SUITE_P(BothCompilers, TrustLiteralsC,
                         ::testing::Values(Compiler{"Jit", true}, Compiler{"SystemCc", false}),
                         [](const ::testing::TestParamInfo<Compiler>& i) { return i.param.name; });

}  // namespace
}  // namespace exocpp::codegen_test
