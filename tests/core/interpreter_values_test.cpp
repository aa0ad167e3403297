// Tests of the interpreter's values (core/interpreter.h): precision rounding of each type, on
// its own and through procs, Buffer windows and comparison, and a run on IR built with make().
#include <gtest/gtest.h>

#include <cmath>

#include "core/interpreter.h"
#include "core/ir.h"
#include "core/parser.h"
#include "core/test_inputs.h"

namespace exocpp {
namespace {

Buffer& buf(std::vector<ArgValue>& args, size_t i) { return std::get<Buffer>(args[i]); }

// ---- IR construction helpers (for tests that build procs without the parser) ----------------

Expr var(const Sym& s, ScalarKind k = ScalarKind::Index) { return ReadNode::make(s, {}, Type(k)); }
Expr lit(int64_t v) { return ConstNode::make_int(v); }
Expr bin(BinOpKind op, Expr a, Expr b) { return BinOpNode::make(op, std::move(a), std::move(b)); }
Expr elem(const Sym& s, ScalarKind k, std::vector<Expr> idx) {
  return ReadNode::make(s, std::move(idx), Type(k));
}
FnArg size_arg(const Sym& s) { return FnArg{s, Type(ScalarKind::Size), "", {}}; }
FnArg tensor_arg(const Sym& s, ScalarKind k, std::vector<Expr> shape) {
  return FnArg{s, Type(k, std::move(shape)), "DRAM", {}};
}
Proc make_proc(std::string name, std::vector<FnArg> args, std::vector<Expr> preds, Block body) {
  auto p = std::make_shared<ProcNode>();
  p->name = std::move(name);
  p->args = std::move(args);
  p->preds = std::move(preds);
  p->body = std::move(body);
  return Proc(p);
}

// gemm (C[i, j] += A[i, k] * B[k, j] in f32), built with make().
Proc gemm_ir() {
  Sym N("N"), M("M"), K("K"), A("A"), B("B"), C("C"), i("i"), j("j"), k("k");
  auto f = ScalarKind::F32;
  Stmt red = ReduceNode::make(
      C, f, {var(i), var(j)},
      bin(BinOpKind::Mul, elem(A, f, {var(i), var(k)}), elem(B, f, {var(k), var(j)})));
  Stmt loop =
      ForNode::make(i, lit(0), var(N, ScalarKind::Size),
                    {ForNode::make(j, lit(0), var(M, ScalarKind::Size),
                                   {ForNode::make(k, lit(0), var(K, ScalarKind::Size), {red})})});
  return make_proc("gemm",
                   {size_arg(N), size_arg(M), size_arg(K),
                    tensor_arg(A, f, {var(N, ScalarKind::Size), var(K, ScalarKind::Size)}),
                    tensor_arg(B, f, {var(K, ScalarKind::Size), var(M, ScalarKind::Size)}),
                    tensor_arg(C, f, {var(N, ScalarKind::Size), var(M, ScalarKind::Size)})},
                   {}, {loop});
}

TEST(InterpreterIR, GemmMatchesPlainLoops) {
  Proc p = gemm_ir();
  std::vector<ArgValue> args = random_args(p, {{"N", 5}, {"M", 7}, {"K", 3}}, 42);
  std::vector<ArgValue> before = deep_copy(args);
  interpret(p, args);
  const Buffer& A = std::get<Buffer>(before[3]);
  const Buffer& B = std::get<Buffer>(before[4]);
  Buffer expect = std::get<Buffer>(before[5]).deep_copy();
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 7; ++j) {
      float acc = static_cast<float>(expect.get({i, j}));
      for (int64_t k = 0; k < 3; ++k)
        acc += static_cast<float>(A.get({i, k})) * static_cast<float>(B.get({k, j}));
      expect.set({i, j}, acc);
    }
  EXPECT_EQ(compare_buffers(std::get<Buffer>(args[5]), expect, "C"), "");
}

// ---- precision -------------------------------------------------------------------------------

TEST(InterpreterPrecision, F32RoundsToNearestFloat) {
  double x = 0.1;
  EXPECT_EQ(round_to_kind(ScalarKind::F32, x), static_cast<double>(0.1f));
  EXPECT_NE(round_to_kind(ScalarKind::F32, x), x);
  EXPECT_EQ(round_to_kind(ScalarKind::F64, x), x);
  EXPECT_EQ(round_to_kind(ScalarKind::R, x), x);
}

TEST(InterpreterPrecision, F16RoundsToNearestHalfWithTiesToEven) {
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 1.0 + 1.0 / 1024), 1.0 + 1.0 / 1024);  // representable
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 1.0 + 1.0 / 2048), 1.0);               // tie -> even
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 1.0 + 3.0 / 2048), 1.0 + 2.0 / 1024);  // tie -> even
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 0.1), 0.0999755859375);
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 65504.0), 65504.0);
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 65519.0), 65504.0);
  EXPECT_TRUE(std::isinf(round_to_kind(ScalarKind::F16, 65520.0)));
  EXPECT_EQ(round_to_kind(ScalarKind::F16, std::ldexp(1.0, -24)),
            std::ldexp(1.0, -24));  // subnormal
  EXPECT_EQ(round_to_kind(ScalarKind::F16, std::ldexp(1.0, -26)), 0.0);
}

TEST(InterpreterPrecision, Bf16RoundsToNearestBfloat16WithTiesToEven) {
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, 1.0 + 1.0 / 128), 1.0 + 1.0 / 128);  // representable
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, 1.0 + 1.0 / 256), 1.0);              // tie -> even
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, 1.0 + 3.0 / 256), 1.0 + 2.0 / 128);  // tie -> even
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, 1.0 + 1.0 / 256 + 0x1p-30), 1.0 + 1.0 / 128);
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, 0.1), 0.10009765625);
  const double largest = std::ldexp(2.0 - 1.0 / 128, 127);
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, largest), largest);
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, std::ldexp(2.0 - 1.0 / 256, 127) * (1 - 0x1p-40)),
            largest);
  EXPECT_TRUE(std::isinf(round_to_kind(ScalarKind::BF16, std::ldexp(2.0 - 1.0 / 256, 127))));
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, std::ldexp(1.0, -133)),
            std::ldexp(1.0, -133));  // the smallest subnormal: kept, not flushed
  EXPECT_EQ(round_to_kind(ScalarKind::BF16, std::ldexp(1.0, -135)), 0.0);
}

TEST(InterpreterPrecision, IntegerTypesTruncateThenWrap) {
  EXPECT_EQ(round_to_kind(ScalarKind::I8, 127.9), 127.0);
  EXPECT_EQ(round_to_kind(ScalarKind::I8, 128.0), -128.0);
  EXPECT_EQ(round_to_kind(ScalarKind::I8, -129.5), 127.0);
  EXPECT_EQ(round_to_kind(ScalarKind::UI8, -1.0), 255.0);
  EXPECT_EQ(round_to_kind(ScalarKind::UI8, 256.7), 0.0);
  EXPECT_EQ(round_to_kind(ScalarKind::UI16, 65537.0), 1.0);
  EXPECT_EQ(round_to_kind(ScalarKind::I32, 2147483648.0), -2147483648.0);
  EXPECT_EQ(round_to_kind(ScalarKind::I32, -2.9), -2.0);
}

// ---- buffers ---------------------------------------------------------------------------------

TEST(InterpreterBuffer, WindowAliasesParentWithItsStrides) {
  Buffer a = Buffer::from_values(ScalarKind::F64, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  Buffer col = a.window({Buffer::Slice::interval(1, 3), Buffer::Slice::point(2)});
  ASSERT_EQ(col.shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(col.strides(), (std::vector<int64_t>{4}));
  EXPECT_EQ(col.get({0}), 6.0);
  EXPECT_FALSE(col.is_dense());
  col.set({1}, -1.0);
  EXPECT_EQ(a.get({2, 2}), -1.0);
  Buffer copy = a.deep_copy();
  copy.set({0, 0}, 99.0);
  EXPECT_EQ(a.get({0, 0}), 0.0);
}

TEST(InterpreterBuffer, CompareNamesFirstDifference) {
  Buffer a(ScalarKind::F32, {2, 3}, 1.0);
  Buffer b = a.deep_copy();
  EXPECT_EQ(compare_buffers(a, b, "C"), "");
  b.set({1, 2}, 2.5);
  EXPECT_EQ(compare_buffers(a, b, "C"), "C[1, 2] differs: 1 vs 2.5");
}

TEST(InterpreterBuffer, CompareWithSignedZerosTellsMinusZeroFromZero) {
  Buffer a = Buffer::from_values(ScalarKind::F32, {2}, {0.0, 1.0});
  Buffer b = Buffer::from_values(ScalarKind::F32, {2}, {-0.0, 1.0});
  EXPECT_EQ(compare_buffers(a, b, "C"), "");
  EXPECT_EQ(compare_buffers(a, b, "C", {.signed_zeros = true}), "C[0] differs: 0 vs -0");
}

TEST(InterpreterBuffer, StoreRoundsToKind) {
  Buffer b(ScalarKind::I8, {2});
  b.set({0}, 300.0);
  EXPECT_EQ(b.get({0}), 44.0);
}

// ---- precision through procs: each type's arithmetic and store, against native C++ types -----

// C[0] = A[0] op B[0] on buffers of `type`, with the inputs stored (rounded) first.
double run_binop(const std::string& type, const std::string& op, double a, double b) {
  Proc p =
      parse_module("def binop(A: " + type + "[1] @ DRAM, B: " + type + "[1] @ DRAM, C: " + type +
                   "[1] @ DRAM):\n    C[0] = A[0] " + op + " B[0]\n")
          .proc("binop");
  ScalarKind k = *scalar_kind_from_string(type);
  std::vector<ArgValue> args{Buffer::from_values(k, {1}, {a}), Buffer::from_values(k, {1}, {b}),
                             Buffer(k, {1})};
  interpret(p, args);
  return buf(args, 2).get({0});
}

TEST(InterpreterPrecisionProc, F32ArithmeticIsFloatArithmetic) {
  EXPECT_EQ(run_binop("f32", "*", 0.1, 0.3), static_cast<double>(0.1f * 0.3f));
  EXPECT_EQ(run_binop("f32", "/", 1.0, 3.0), static_cast<double>(1.0f / 3.0f));
}

TEST(InterpreterPrecisionProc, F32IntermediatesAreRounded) {
  Proc p = parse_module(R"(
def fma_like(A: f32[3] @ DRAM, C: f32[1] @ DRAM):
    C[0] = A[0] * A[1] + A[2]
)")
               .proc("fma_like");
  std::vector<ArgValue> args{
      Buffer::from_values(ScalarKind::F32, {3}, {1.0 + 0x1p-23, 1.0 - 0x1p-23, -1.0}),
      Buffer(ScalarKind::F32, {1})};
  interpret(p, args);
  float a = 1.0f + 0x1p-23f, b = 1.0f - 0x1p-23f;
  volatile float prod = a * b;  // rounded to float, as C without contraction does
  EXPECT_EQ(buf(args, 1).get({0}), static_cast<double>(prod + -1.0f));
  EXPECT_NE(buf(args, 1).get({0}), (1.0 + 0x1p-23) * (1.0 - 0x1p-23) - 1.0);  // exact would differ
}

TEST(InterpreterPrecisionProc, F16RoundsEveryStore) {
  EXPECT_EQ(run_binop("f16", "+", 2048.0, 1.0), 2048.0);  // tie to even
  EXPECT_EQ(run_binop("f16", "+", 2048.0, 3.0), 2052.0);  // tie to even
  EXPECT_EQ(run_binop("f16", "+", 1.0, 0x1p-12), 1.0);
  EXPECT_TRUE(std::isinf(run_binop("f16", "*", 300.0, 300.0)));  // overflow past 65504
}

TEST(InterpreterPrecisionProc, Bf16RoundsEveryStore) {
  EXPECT_EQ(run_binop("bf16", "+", 256.0, 1.0), 256.0);  // tie to even
  EXPECT_EQ(run_binop("bf16", "+", 256.0, 3.0), 260.0);  // tie to even
  const double a = round_to_kind(ScalarKind::BF16, 1e30), b = round_to_kind(ScalarKind::BF16, 1e8);
  EXPECT_EQ(run_binop("bf16", "*", 1e30, 1e8), round_to_kind(ScalarKind::BF16, a * b));
  EXPECT_TRUE(std::isinf(run_binop("bf16", "*", 1e30, 1e9)));  // past f32's range too
}

TEST(InterpreterPrecisionProc, F64AndRAreExactDoubles) {
  EXPECT_EQ(run_binop("f64", "+", 0.1, 0.2), 0.1 + 0.2);
  EXPECT_EQ(run_binop("R", "+", 0.1, 0.2), 0.1 + 0.2);
  EXPECT_NE(run_binop("f64", "+", 0.1, 0.2), static_cast<double>(0.1f + 0.2f));
}

TEST(InterpreterPrecisionProc, I8WrapsOnStore) {
  EXPECT_EQ(run_binop("i8", "+", 100, 100), static_cast<double>(static_cast<int8_t>(200)));
  EXPECT_EQ(run_binop("i8", "*", -128, -1), static_cast<double>(static_cast<int8_t>(128)));
}

TEST(InterpreterPrecisionProc, UI8WrapsOnStore) {
  EXPECT_EQ(run_binop("ui8", "-", 3, 5), static_cast<double>(static_cast<uint8_t>(3 - 5)));
}

TEST(InterpreterPrecisionProc, UI16WrapsOnStore) {
  EXPECT_EQ(run_binop("ui16", "*", 300, 300),
            static_cast<double>(static_cast<uint16_t>(300 * 300)));
}

TEST(InterpreterPrecisionProc, I32WrapsAndDividesTowardZero) {
  EXPECT_EQ(run_binop("i32", "+", 2147483647.0, 1), -2147483648.0);
  EXPECT_EQ(run_binop("i32", "/", -7, 2), static_cast<double>(-7 / 2));
}

// ---- literal-only expressions: computed in the precision of the expression around them -------

// C[0] = x[0] + (rhs) on buffers of `type` holding 0, under `real_as`.
double run_literal_rhs(const std::string& type, const std::string& rhs,
                       ScalarKind real_as = ScalarKind::R) {
  Proc p = parse_module("def lit(x: " + type + "[1] @ DRAM, C: " + type +
                        "[1] @ DRAM):\n    C[0] = x[0] + " + rhs + "\n")
               .proc("lit");
  ScalarKind k = *scalar_kind_from_string(type);
  std::vector<ArgValue> args{Buffer(k, {1}), Buffer(k, {1})};
  interpret(p, args, {.real_as = real_as});
  return buf(args, 1).get({0});
}

TEST(InterpreterLiteralOnly, InF64IsComputedInDoubleWhateverRealAs) {
  EXPECT_EQ(run_literal_rhs("f64", "(0.1 + 0.2)", ScalarKind::F32), 0.1 + 0.2);
  EXPECT_EQ(run_literal_rhs("f64", "(0.1 + 0.2)"), 0.1 + 0.2);
}

TEST(InterpreterLiteralOnly, InF32RoundsAfterEachOperation) {
  EXPECT_EQ(run_literal_rhs("f32", "(16777216.0 + 1.0 + 1.0)"), 16777216.0);
}

TEST(InterpreterLiteralOnly, InF16RoundsEveryLiteralAndOperation) {
  const double tenth = round_to_kind(ScalarKind::F16, 0.1);
  EXPECT_EQ(run_literal_rhs("f16", "(0.1 * 3.0)"), round_to_kind(ScalarKind::F16, tenth * 3.0));
  EXPECT_NE(run_literal_rhs("f16", "(0.1 * 3.0)"), round_to_kind(ScalarKind::F16, 0.1 * 3.0));
}

TEST(InterpreterLiteralOnly, NegatedTakesTheContextToo) {
  EXPECT_EQ(run_literal_rhs("f32", "-(16777216.0 + 1.0)"), -16777216.0);
}

TEST(InterpreterLiteralOnly, ExternOfLiteralsTakesTheContext) {
  EXPECT_EQ(run_literal_rhs("f64", "sqrt(2.0)", ScalarKind::F32), std::sqrt(2.0));
}

TEST(InterpreterLiteralOnly, InI32IsIntegerDataArithmetic) {
  EXPECT_EQ(run_literal_rhs("i32", "(100000.0 * 100000.0)"),
            static_cast<double>(static_cast<int32_t>(1410065408)));
}

TEST(InterpreterLiteralOnly, RCodeReadingRKeepsRealAs) {
  // `r[0] + 0.1` reads an R buffer: it is R arithmetic, computed as real_as says.
  Proc p =
      parse_module("def mixed(r: R[1] @ DRAM, C: f64[1] @ DRAM):\n    C[0] = 1.0 * (r[0] + 0.1)\n")
          .proc("mixed");
  std::vector<ArgValue> args{Buffer(ScalarKind::F32, {1}), Buffer(ScalarKind::F64, {1})};
  interpret(p, args, {.real_as = ScalarKind::F32});
  EXPECT_EQ(buf(args, 1).get({0}), static_cast<double>(0.1f));
}

}  // namespace
}  // namespace exocpp
