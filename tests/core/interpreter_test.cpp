// Tests of the reference interpreter (core/interpreter.h) and its random-input helpers
// (core/test_inputs.h): each runs a proc and checks it against plain C++ loops on the same inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/externs.h"
#include "core/interpreter.h"
#include "core/ir.h"
#include "core/parser.h"
#include "core/test_inputs.h"

namespace exocpp {
namespace {

// ---- IR construction helpers (for tests that build procs without the parser) ----------------

Expr var(const Sym& s, ScalarKind k = ScalarKind::Index) { return ReadNode::make(s, {}, Type(k)); }
Expr lit(int64_t v) { return ConstNode::make_int(v); }
Expr bin(BinOpKind op, Expr a, Expr b) { return BinOpNode::make(op, std::move(a), std::move(b)); }
Expr elem(const Sym& s, ScalarKind k, std::vector<Expr> idx) { return ReadNode::make(s, std::move(idx), Type(k)); }
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
  Stmt red = ReduceNode::make(C, f, {var(i), var(j)},
                              bin(BinOpKind::Mul, elem(A, f, {var(i), var(k)}), elem(B, f, {var(k), var(j)})));
  Stmt loop = ForNode::make(
      i, lit(0), var(N, ScalarKind::Size),
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
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 1.0 + 1.0 / 2048), 1.0);                // tie -> even
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 1.0 + 3.0 / 2048), 1.0 + 2.0 / 1024);   // tie -> even
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 0.1), 0.0999755859375);
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 65504.0), 65504.0);
  EXPECT_EQ(round_to_kind(ScalarKind::F16, 65519.0), 65504.0);
  EXPECT_TRUE(std::isinf(round_to_kind(ScalarKind::F16, 65520.0)));
  EXPECT_EQ(round_to_kind(ScalarKind::F16, std::ldexp(1.0, -24)), std::ldexp(1.0, -24));  // subnormal
  EXPECT_EQ(round_to_kind(ScalarKind::F16, std::ldexp(1.0, -26)), 0.0);
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

TEST(InterpreterBuffer, StoreRoundsToKind) {
  Buffer b(ScalarKind::I8, {2});
  b.set({0}, 300.0);
  EXPECT_EQ(b.get({0}), 44.0);
}

// ---- procs in surface syntax -----------------------------------------------------------------

Buffer& buf(std::vector<ArgValue>& args, size_t i) { return std::get<Buffer>(args[i]); }

TEST(Interpreter, GemmMatchesPlainLoops) {
  Proc p = parse_module(R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)").proc("gemm");
  auto args = random_args(p, {{"N", 6}, {"M", 5}, {"K", 7}}, 1, {.integer_valued = false});
  auto ref = deep_copy(args);
  interpret(p, args);
  Buffer &A = buf(ref, 3), &B = buf(ref, 4), &C = buf(ref, 5);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 5; ++j)
      for (int64_t k = 0; k < 7; ++k)
        C.set({i, j}, static_cast<float>(C.get({i, j})) +
                          static_cast<float>(A.get({i, k})) * static_cast<float>(B.get({k, j})));
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, Conv1dMatchesPlainLoops) {
  Proc p = parse_module(R"(
def conv1d(N: size, K: size, x: f32[N + K - 1] @ DRAM, w: f32[K] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        y[i] = 0.0
        for k in seq(0, K):
            y[i] += x[i + k] * w[k]
)").proc("conv1d");
  auto args = random_args(p, {{"N", 9}, {"K", 3}}, 2, {.integer_valued = false});
  auto ref = deep_copy(args);
  interpret(p, args);
  Buffer &x = buf(ref, 2), &w = buf(ref, 3), &y = buf(ref, 4);
  for (int64_t i = 0; i < 9; ++i) {
    float acc = 0.0f;
    for (int64_t k = 0; k < 3; ++k)
      acc += static_cast<float>(x.get({i + k})) * static_cast<float>(w.get({k}));
    y.set({i}, acc);
  }
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, TwoStageBlurWithAllocationMatchesPlainLoops) {
  Proc p = parse_module(R"(
def blur(H: size, W: size, inp: f32[H + 2, W + 2] @ DRAM, out: f32[H, W] @ DRAM):
    tmp: f32[H + 2, W] @ DRAM
    for y in seq(0, H + 2):
        for x in seq(0, W):
            tmp[y, x] = (inp[y, x] + inp[y, x + 1] + inp[y, x + 2]) / 3.0
    for y in seq(0, H):
        for x in seq(0, W):
            out[y, x] = (tmp[y, x] + tmp[y + 1, x] + tmp[y + 2, x]) / 3.0
)").proc("blur");
  const int64_t H = 5, W = 6;
  auto args = random_args(p, {{"H", H}, {"W", W}}, 3, {.integer_valued = false});
  auto ref = deep_copy(args);
  interpret(p, args);
  Buffer &in = buf(ref, 2), &out = buf(ref, 3);
  auto at = [&](int64_t y, int64_t x) { return static_cast<float>(in.get({y, x})); };
  std::vector<float> tmp((H + 2) * W);
  for (int64_t y = 0; y < H + 2; ++y)
    for (int64_t x = 0; x < W; ++x) tmp[y * W + x] = (at(y, x) + at(y, x + 1) + at(y, x + 2)) / 3.0f;
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x)
      out.set({y, x}, (tmp[y * W + x] + tmp[(y + 1) * W + x] + tmp[(y + 2) * W + x]) / 3.0f);
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, CallOnRowWindowWritesThroughToCaller) {
  Proc p = parse_module(R"(
def scale_row(n: size, alpha: f32 @ DRAM, x: [f32][n] @ DRAM):
    for i in seq(0, n):
        x[i] = alpha * x[i]

def kernel(N: size, A: f32[N, 16] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, N):
        scale_row(16, s, A[i, 0:16])
)").proc("kernel");
  auto args = random_args(p, {{"N", 3}}, 4);
  auto ref = deep_copy(args);
  interpret(p, args);
  float s = static_cast<float>(buf(ref, 2).value());
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 16; ++j) buf(ref, 1).set({i, j}, s * static_cast<float>(buf(ref, 1).get({i, j})));
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, CallOnColumnWindowUsesParentStride) {
  Proc p = parse_module(R"(
def add_one(n: size, x: [f32][n] @ DRAM):
    for i in seq(0, n):
        x[i] += 1.0

def kernel(N: size, A: f32[N, 5] @ DRAM):
    add_one(N, A[0:N, 2])
)").proc("kernel");
  auto args = random_args(p, {{"N", 4}}, 5);
  auto ref = deep_copy(args);
  interpret(p, args);
  for (int64_t i = 0; i < 4; ++i) buf(ref, 1).set({i, 2}, buf(ref, 1).get({i, 2}) + 1.0);
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, InstrCalledFromKernelRunsItsBody) {
  Proc p = parse_module(R"(
@instr("vadd4({dst_data}, {src_data});")
def vadd4(dst: [f32][4] @ DRAM, src: [f32][4] @ DRAM):
    assert stride(dst, 0) == 1
    assert stride(src, 0) == 1
    for i in seq(0, 4):
        dst[i] += src[i]

def kernel(N: size, A: f32[N, 8] @ DRAM, B: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 2):
            vadd4(A[i, 4 * j:4 * j + 4], B[i, 4 * j:4 * j + 4])
)").proc("kernel");
  auto args = random_args(p, {{"N", 3}}, 6);
  auto ref = deep_copy(args);
  interpret(p, args);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 8; ++j) buf(ref, 1).set({i, j}, buf(ref, 1).get({i, j}) + buf(ref, 2).get({i, j}));
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, ScalarArgumentGivenAnElementAliasesIt) {
  Proc p = parse_module(R"(
def bump(x: f32 @ DRAM):
    x = x + 10.0

def kernel(A: f32[4] @ DRAM):
    bump(A[2])
)").proc("kernel");
  std::vector<ArgValue> args{Buffer::from_values(ScalarKind::F32, {4}, {1, 2, 3, 4})};
  interpret(p, args);
  EXPECT_EQ(buf(args, 0).to_vector(), (std::vector<double>{1, 2, 13, 4}));
}

TEST(Interpreter, ConfigWrittenByCalleeIsReadByCaller) {
  Proc p = parse_module(R"(
config Cfg:
    scale: f32
    n: index

def set_cfg(s: f32 @ DRAM):
    Cfg.scale = s
    Cfg.n = 3

def kernel(N: size, x: f32[N] @ DRAM, s: f32 @ DRAM):
    set_cfg(s)
    for i in seq(0, N):
        if i < Cfg.n:
            x[i] = x[i] * Cfg.scale
)").proc("kernel");
  auto args = random_args(p, {{"N", 6}}, 7);
  auto ref = deep_copy(args);
  ConfigState cfg;
  interpret(p, args, {.configs = &cfg});
  float s = static_cast<float>(buf(ref, 2).value());
  for (int64_t i = 0; i < 3; ++i) buf(ref, 1).set({i}, static_cast<float>(buf(ref, 1).get({i})) * s);
  EXPECT_EQ(compare_args(p, args, ref), "");
  EXPECT_EQ(std::get<double>(cfg.get("Cfg", "scale")), s);
  EXPECT_EQ(std::get<int64_t>(cfg.get("Cfg", "n")), 3);
}

TEST(Interpreter, ParLoopComputesWhatSeqLoopDoes) {
  Module m = parse_module(R"(
def seq_add(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        y[i] = x[i] + y[i]

def par_add(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    for i in par(0, N):
        y[i] = x[i] + y[i]
)");
  EXPECT_EQ(compare_procs(m.proc("seq_add"), m.proc("par_add"), {{"N", 11}}), "");
}

TEST(Interpreter, IfElseTakesTheBranchOfItsCondition) {
  Proc p = parse_module(R"(
def split(N: size, M: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < M:
            y[i] = x[i]
        elif i == M:
            y[i] = 100.0
        else:
            y[i] = -x[i]
)").proc("split");
  auto args = random_args(p, {{"N", 9}, {"M", 4}}, 8);
  auto ref = deep_copy(args);
  interpret(p, args);
  for (int64_t i = 0; i < 9; ++i) {
    double x = buf(ref, 2).get({i});
    buf(ref, 3).set({i}, i < 4 ? x : i == 4 ? 100.0 : -x);
  }
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, StrideExprReadsTheWindowsStride) {
  Proc p = parse_module(R"(
def probe(n: size, x: [f32][n] @ DRAM, r: f32[1] @ DRAM):
    if stride(x, 0) == 1:
        r[0] = 1.0
    elif stride(x, 0) == 7:
        r[0] = 7.0
    else:
        r[0] = -1.0

def kernel(A: f32[4, 7] @ DRAM, row: f32[1] @ DRAM, col: f32[1] @ DRAM):
    probe(7, A[1, 0:7], row)
    probe(4, A[0:4, 3], col)
)").proc("kernel");
  auto args = random_args(p, {}, 9);
  interpret(p, args);
  EXPECT_EQ(buf(args, 1).get({0}), 1.0);
  EXPECT_EQ(buf(args, 2).get({0}), 7.0);
}

TEST(Interpreter, ControlDivisionFloorsAndModuloIsNonNegative) {
  // Each i marks the column given by its quotient and remainder; a truncating division or a
  // C remainder would mark other columns (or fail with a negative index).
  Proc p = parse_module(R"(
def divmod(Q: f32[12, 4] @ DRAM, R: f32[12, 4] @ DRAM):
    for i in seq(0, 12):
        Q[i, (i - 6) / 4 + 2] = 1.0
        R[i, (i - 6) % 4] = 1.0
)").proc("divmod");
  std::vector<ArgValue> args{Buffer(ScalarKind::F32, {12, 4}), Buffer(ScalarKind::F32, {12, 4})};
  interpret(p, args);
  Buffer q(ScalarKind::F32, {12, 4}), r(ScalarKind::F32, {12, 4});
  for (int64_t i = 0; i < 12; ++i) {
    int64_t a = i - 6;
    int64_t fq = a >= 0 ? a / 4 : -((-a + 3) / 4);  // floor(a / 4)
    q.set({i, fq + 2}, 1.0);
    r.set({i, a - 4 * fq}, 1.0);
  }
  EXPECT_EQ(compare_buffers(buf(args, 0), q, "Q"), "");
  EXPECT_EQ(compare_buffers(buf(args, 1), r, "R"), "");
}

TEST(Interpreter, UninitializedAllocationReadsAsNaN) {
  Proc p = parse_module(R"(
def leak(y: f32[2] @ DRAM):
    t: f32[2] @ DRAM
    t[0] = 1.0
    y[0] = t[0]
    y[1] = t[1]
)").proc("leak");
  std::vector<ArgValue> args{Buffer(ScalarKind::F32, {2})};
  interpret(p, args);
  EXPECT_EQ(buf(args, 0).get({0}), 1.0);
  EXPECT_TRUE(std::isnan(buf(args, 0).get({1})));
}

TEST(Interpreter, ArgumentsByName) {
  Proc p = parse_module(R"(
def fill(N: size, v: f32 @ DRAM, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = v
)").proc("fill");
  std::map<std::string, ArgValue> args{{"x", Buffer(ScalarKind::F32, {3})},
                                       {"N", int64_t(3)},
                                       {"v", Buffer::scalar(ScalarKind::F32, 2.5)}};
  interpret(p, args);
  EXPECT_EQ(std::get<Buffer>(args["x"]).to_vector(), (std::vector<double>{2.5, 2.5, 2.5}));
}

// ---- precision through procs: each type's arithmetic and store, against native C++ types -----

// C[0] = A[0] op B[0] on buffers of `type`, with the inputs stored (rounded) first.
double run_binop(const std::string& type, const std::string& op, double a, double b) {
  Proc p = parse_module("def binop(A: " + type + "[1] @ DRAM, B: " + type + "[1] @ DRAM, C: " + type +
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
)").proc("fma_like");
  std::vector<ArgValue> args{Buffer::from_values(ScalarKind::F32, {3}, {1.0 + 0x1p-23, 1.0 - 0x1p-23, -1.0}),
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
  EXPECT_EQ(run_binop("ui16", "*", 300, 300), static_cast<double>(static_cast<uint16_t>(300 * 300)));
}

TEST(InterpreterPrecisionProc, I32WrapsAndDividesTowardZero) {
  EXPECT_EQ(run_binop("i32", "+", 2147483647.0, 1), -2147483648.0);
  EXPECT_EQ(run_binop("i32", "/", -7, 2), static_cast<double>(-7 / 2));
}

// ---- externs ---------------------------------------------------------------------------------

struct ExternCase {
  std::string name;
  int arity;
  double (*ref)(double a, double b, double c, double d);
};
std::ostream& operator<<(std::ostream& os, const ExternCase& c) { return os << c.name; }

class InterpreterExtern : public ::testing::TestWithParam<ExternCase> {};

TEST_P(InterpreterExtern, MatchesCppReference) {
  const ExternCase& c = GetParam();
  std::string call = c.name + "(a[i]";
  for (int k = 1; k < c.arity; ++k) call += std::string(", ") + "bcd"[k - 1] + "[i]";
  call += ")";
  Proc p = parse_module(
               "def ext(N: size, a: f64[N] @ DRAM, b: f64[N] @ DRAM, c: f64[N] @ DRAM, d: f64[N] @ DRAM, "
               "y: f64[N] @ DRAM):\n    for i in seq(0, N):\n        y[i] = " + call + "\n")
               .proc("ext");
  auto args = random_args(p, {{"N", 32}}, 11, {.integer_valued = false});
  auto ref = deep_copy(args);
  interpret(p, args);
  for (int64_t i = 0; i < 32; ++i)
    buf(ref, 5).set({i}, c.ref(buf(ref, 1).get({i}), buf(ref, 2).get({i}), buf(ref, 3).get({i}),
                               buf(ref, 4).get({i})));
  EXPECT_EQ(compare_args(p, args, ref, {.nan_equal = true}), "");
}

INSTANTIATE_TEST_SUITE_P(
    Builtins, InterpreterExtern,
    ::testing::Values(
        ExternCase{"select", 4, [](double a, double b, double c, double d) { return a < b ? c : d; }},
        ExternCase{"relu", 1, [](double a, double, double, double) { return a > 0 ? a : 0.0; }},
        ExternCase{"fmaxf", 2, [](double a, double b, double, double) { return std::fmax(a, b); }},
        ExternCase{"abs", 1, [](double a, double, double, double) { return std::fabs(a); }},
        ExternCase{"sigmoid", 1, [](double a, double, double, double) { return 1.0 / (1.0 + std::exp(-a)); }},
        ExternCase{"sin", 1, [](double a, double, double, double) { return std::sin(a); }},
        ExternCase{"cos", 1, [](double a, double, double, double) { return std::cos(a); }},
        ExternCase{"sqrt", 1, [](double a, double, double, double) { return std::sqrt(a); }},
        ExternCase{"expf", 1, [](double a, double, double, double) { return std::exp(a); }}),
    [](const ::testing::TestParamInfo<ExternCase>& info) { return info.param.name; });

TEST(InterpreterExternF32, ResultIsRoundedToFloat) {
  Proc p = parse_module(R"(
def root(x: f32[1] @ DRAM, y: f32[1] @ DRAM):
    y[0] = sqrt(x[0])
)").proc("root");
  std::vector<ArgValue> args{Buffer::from_values(ScalarKind::F32, {1}, {2.0}), Buffer(ScalarKind::F32, {1})};
  interpret(p, args);
  EXPECT_EQ(buf(args, 1).get({0}), static_cast<double>(std::sqrt(2.0f)));
}

// A user-registered extern: the interpreter calls its interpret().
class Cube : public ExternFn {
 public:
  std::string name() const override { return "test_cube"; }
  int arity() const override { return 1; }
  double interpret(const std::vector<double>& a) const override { return a[0] * a[0] * a[0]; }
  std::string compile(const std::vector<std::string>& a, ScalarKind) const override {
    return "((" + a[0] + ")*(" + a[0] + ")*(" + a[0] + "))";
  }
};

TEST(InterpreterExternUser, RegisteredExternIsInterpreted) {
  register_extern(std::make_shared<Cube>());
  Proc p = parse_module(R"(
def cube(x: f64[2] @ DRAM):
    x[0] = test_cube(x[1])
)").proc("cube");
  std::vector<ArgValue> args{Buffer::from_values(ScalarKind::F64, {2}, {0.0, -1.5})};
  interpret(p, args);
  EXPECT_EQ(buf(args, 0).get({0}), -1.5 * -1.5 * -1.5);
}

}  // namespace
}  // namespace exocpp
