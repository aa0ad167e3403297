// Tests of the reference interpreter (core/interpreter.h): each runs a proc written in the
// surface language and checks it against plain C++ loops on the same random inputs.
#include "core/interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/externs.h"
#include "core/ir.h"
#include "core/parser.h"
#include "core/test_inputs.h"

namespace exocpp {
namespace {

// ---- procs in surface syntax -----------------------------------------------------------------

Buffer& buf(std::vector<ArgValue>& args, size_t i) { return std::get<Buffer>(args[i]); }

TEST(Interpreter, GemmMatchesPlainLoops) {
  Proc p = parse_module(R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)")
               .proc("gemm");
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
)")
               .proc("conv1d");
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
)")
               .proc("blur");
  const int64_t H = 5, W = 6;
  auto args = random_args(p, {{"H", H}, {"W", W}}, 3, {.integer_valued = false});
  auto ref = deep_copy(args);
  interpret(p, args);
  Buffer &in = buf(ref, 2), &out = buf(ref, 3);
  auto at = [&](int64_t y, int64_t x) { return static_cast<float>(in.get({y, x})); };
  std::vector<float> tmp((H + 2) * W);
  for (int64_t y = 0; y < H + 2; ++y)
    for (int64_t x = 0; x < W; ++x)
      tmp[y * W + x] = (at(y, x) + at(y, x + 1) + at(y, x + 2)) / 3.0f;
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
)")
               .proc("kernel");
  auto args = random_args(p, {{"N", 3}}, 4);
  auto ref = deep_copy(args);
  interpret(p, args);
  float s = static_cast<float>(buf(ref, 2).value());
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 16; ++j)
      buf(ref, 1).set({i, j}, s * static_cast<float>(buf(ref, 1).get({i, j})));
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, CallOnColumnWindowUsesParentStride) {
  Proc p = parse_module(R"(
def add_one(n: size, x: [f32][n] @ DRAM):
    for i in seq(0, n):
        x[i] += 1.0

def kernel(N: size, A: f32[N, 5] @ DRAM):
    add_one(N, A[0:N, 2])
)")
               .proc("kernel");
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
)")
               .proc("kernel");
  auto args = random_args(p, {{"N", 3}}, 6);
  auto ref = deep_copy(args);
  interpret(p, args);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 8; ++j)
      buf(ref, 1).set({i, j}, buf(ref, 1).get({i, j}) + buf(ref, 2).get({i, j}));
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, ScalarArgumentGivenAnElementAliasesIt) {
  Proc p = parse_module(R"(
def bump(x: f32 @ DRAM):
    x = x + 10.0

def kernel(A: f32[4] @ DRAM):
    bump(A[2])
)")
               .proc("kernel");
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
)")
               .proc("kernel");
  auto args = random_args(p, {{"N", 6}}, 7);
  auto ref = deep_copy(args);
  ConfigState cfg;
  interpret(p, args, {.configs = &cfg});
  float s = static_cast<float>(buf(ref, 2).value());
  for (int64_t i = 0; i < 3; ++i)
    buf(ref, 1).set({i}, static_cast<float>(buf(ref, 1).get({i})) * s);
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

// InterpOptions::reverse_par runs a par loop's iterations from the last to the first: a loop
// whose iterations depend on each other (each reads what the one before wrote) then computes
// something else, which is how a conflict between iterations shows in a run.
TEST(Interpreter, ReverseParRunsParIterationsLastToFirst) {
  Proc p = parse_module(R"(
def chain(x: f32[4] @ DRAM):
    for i in par(0, 3):
        x[i + 1] = x[i] + 1.0
)")
               .proc("chain");
  std::vector<ArgValue> fwd = {Buffer::from_values(ScalarKind::F32, {4}, {0, 10, 20, 30})};
  std::vector<ArgValue> rev = deep_copy(fwd);
  interpret(p, fwd);
  interpret(p, rev, {.reverse_par = true});
  // In order each iteration reads the value the one before wrote; last to first, the values
  // the buffer held on entry.
  EXPECT_EQ(std::get<Buffer>(fwd[0]).get({3}), 3.0);
  EXPECT_EQ(std::get<Buffer>(rev[0]).get({3}), 21.0);
  EXPECT_EQ(std::get<Buffer>(rev[0]).get({1}), 1.0);
}

// A seq loop keeps its order under reverse_par.
TEST(Interpreter, ReverseParLeavesSeqLoopsInOrder) {
  Proc p = parse_module(R"(
def chain(x: f32[4] @ DRAM):
    for i in seq(0, 3):
        x[i + 1] = x[i] + 1.0
)")
               .proc("chain");
  std::vector<ArgValue> args = {Buffer::from_values(ScalarKind::F32, {4}, {0, 10, 20, 30})};
  interpret(p, args, {.reverse_par = true});
  EXPECT_EQ(std::get<Buffer>(args[0]).get({3}), 3.0);
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
)")
               .proc("split");
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
)")
               .proc("kernel");
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
)")
               .proc("divmod");
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

TEST(Interpreter, WindowStatementAliasesItsBuffer) {
  Proc p = parse_module(R"(
def transpose_col(N: size, A: f32[N, N] @ DRAM, B: f32[N, N] @ DRAM):
    for j in seq(0, N):
        col = A[0:N, j]
        row = B[j, 0:N]
        for i in seq(0, N):
            row[i] = col[i]
)")
               .proc("transpose_col");
  auto args = random_args(p, {{"N", 5}}, 10);
  auto ref = deep_copy(args);
  interpret(p, args);
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 5; ++j) buf(ref, 2).set({j, i}, buf(ref, 1).get({i, j}));
  EXPECT_EQ(compare_args(p, args, ref), "");
}

TEST(Interpreter, BoolArgumentSelectsBranch) {
  Proc p = parse_module(R"(
def maybe_negate(N: size, neg: bool, x: f32[N] @ DRAM):
    for i in seq(0, N):
        if neg:
            x[i] = -x[i]
)")
               .proc("maybe_negate");
  for (bool neg : {false, true}) {
    auto args = random_args(p, {{"N", 6}, {"neg", neg}}, 12);
    ASSERT_EQ(std::get<bool>(args[1]), neg);
    auto ref = deep_copy(args);
    interpret(p, args);
    for (int64_t i = 0; i < 6; ++i)
      if (neg) buf(ref, 2).set({i}, -buf(ref, 2).get({i}));
    EXPECT_EQ(compare_args(p, args, ref), "") << "neg = " << neg;
  }
}

TEST(Interpreter, UninitializedAllocationReadsAsNaN) {
  Proc p = parse_module(R"(
def leak(y: f32[2] @ DRAM):
    t: f32[2] @ DRAM
    t[0] = 1.0
    y[0] = t[0]
    y[1] = t[1]
)")
               .proc("leak");
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
)")
               .proc("fill");
  std::map<std::string, ArgValue> args{{"x", Buffer(ScalarKind::F32, {3})},
                                       {"N", int64_t(3)},
                                       {"v", Buffer::scalar(ScalarKind::F32, 2.5)}};
  interpret(p, args);
  EXPECT_EQ(std::get<Buffer>(args["x"]).to_vector(), (std::vector<double>{2.5, 2.5, 2.5}));
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
               "def ext(N: size, a: f64[N] @ DRAM, b: f64[N] @ DRAM, c: f64[N] @ DRAM, d: f64[N] @ "
               "DRAM, "
               "y: f64[N] @ DRAM):\n    for i in seq(0, N):\n        y[i] = " +
               call + "\n")
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
        ExternCase{"select", 4,
                   [](double a, double b, double c, double d) { return a < b ? c : d; }},
        ExternCase{"relu", 1, [](double a, double, double, double) { return a > 0 ? a : 0.0; }},
        ExternCase{"fmaxf", 2, [](double a, double b, double, double) { return std::fmax(a, b); }},
        ExternCase{"abs", 1, [](double a, double, double, double) { return std::fabs(a); }},
        ExternCase{"sigmoid", 1,
                   [](double a, double, double, double) { return 1.0 / (1.0 + std::exp(-a)); }},
        ExternCase{"sin", 1, [](double a, double, double, double) { return std::sin(a); }},
        ExternCase{"cos", 1, [](double a, double, double, double) { return std::cos(a); }},
        ExternCase{"sqrt", 1, [](double a, double, double, double) { return std::sqrt(a); }},
        ExternCase{"expf", 1, [](double a, double, double, double) { return std::exp(a); }}),
    [](const ::testing::TestParamInfo<ExternCase>& info) { return info.param.name; });

TEST(InterpreterExternF32, ResultIsRoundedToFloat) {
  Proc p = parse_module(R"(
def root(x: f32[1] @ DRAM, y: f32[1] @ DRAM):
    y[0] = sqrt(x[0])
)")
               .proc("root");
  std::vector<ArgValue> args{Buffer::from_values(ScalarKind::F32, {1}, {2.0}),
                             Buffer(ScalarKind::F32, {1})};
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
)")
               .proc("cube");
  std::vector<ArgValue> args{Buffer::from_values(ScalarKind::F64, {2}, {0.0, -1.5})};
  interpret(p, args);
  EXPECT_EQ(buf(args, 0).get({0}), -1.5 * -1.5 * -1.5);
}

}  // namespace
}  // namespace exocpp
