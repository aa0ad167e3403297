// Type checker tests in surface syntax, expressions and statements: for each rule, a
// well-typed proc that passes and an ill-typed one that throws TypeError with the exact message
// at the exact line:col. Sources go through parse_module, which runs typecheck() on every proc.
// Calls, configs, memories and whole libraries are in typecheck_calls_test.cpp.
#include "typecheck_test_util.h"

namespace exocpp::typecheck_test {
namespace {

// ---- every construct, well typed ---------------------------------------------------------------

TEST(Typecheck, GemmPasses) {
  expect_ok(R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    assert N >= 1
    assert stride(C, 1) == 1
    for i in seq(0, N):
        for j in par(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)");
}

TEST(Typecheck, ConfigsInstrsWindowsCallsAndExternsPass) {
  expect_ok(R"(
config Cfg:
    scale: f32
    n: index
    flag: bool
    st: stride

@instr("load4({dst_data}, {src_data});")
def load4(dst: [f32][4] @ TC_REGS, src: [f32][4] @ DRAM):
    assert stride(src, 0) == 1
    for i in seq(0, 4):
        dst[i] = src[i]

@instr("store4({dst_data}, {src_data});")
def store4(dst: [f32][4] @ DRAM, src: [f32][4] @ TC_REGS):
    for i in seq(0, 4):
        dst[i] = src[i] * Cfg.scale

def scale_row(n: size, row: [R][n] @ DRAM, s: f32 @ DRAM, flag: bool, st: stride, k: index):
    for i in seq(0, n):
        if flag and k < n:
            row[i] = select(row[i], s, relu(row[i]), -row[i]) + 1

def kernel(N: size, A: f32[N, 8] @ DRAM, s: f32 @ DRAM):
    assert N % 4 == 0
    Cfg.scale = s
    Cfg.n = N / 4 - 1
    Cfg.flag = True
    Cfg.st = stride(A, 0)
    r: f32[4] @ TC_REGS
    for i in seq(0, N / 4):
        load4(r, A[4 * i, 0:4])
        store4(A[4 * i + 1, 4:8], r)
        w = A[4 * i + 2, 0:8]
        w[i % 8] = sqrt(w[0]) * 2.0
        scale_row(8, w, s, Cfg.flag, stride(A, 0), i)
        scale_row(N, A[0:N, 3], A[i, 0], N > 4 or i == 0, Cfg.st, Cfg.n)
        t: R
        t = 3
        A[i, 7] = t
)");
}

// ---- index expressions -------------------------------------------------------------------------

TEST(Typecheck, IndexByDataValueIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    A[0] = A[x]
)",
                    "index of 'A' must be a control value (int, index or size), but 'x' is data "
                    "of type f32",
                    3, 14);
}

TEST(Typecheck, QuasiAffineIndicesPass) {
  expect_ok(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 4):
            A[(i * j + 3 * i) / 4 % 8] = A[N - 1 - i]
)");
}

TEST(Typecheck, DivisionByNonConstantIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i / N] = 0.0
)",
                    "'/' on control values needs a positive integer constant on the right, got "
                    "a size expression",
                    4, 15);
}

TEST(Typecheck, ModuloByZeroIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i % 0] = 0.0
)",
                    "'%' on control values needs a positive integer constant on the right, got 0",
                    4, 15);
}

TEST(Typecheck, WindowBoundByDataValueIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    w = A[0:x]
    pass
)",
                    "window bound of 'A' must be a control value (int, index or size), but 'x' "
                    "is data of type f32",
                    3, 13);
}

TEST(Typecheck, LoopBoundByDataValueIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, x):
        pass
)",
                    "loop upper bound must be a control value (int, index or size), but 'x' is "
                    "data of type f32",
                    3, 21);
}

TEST(Typecheck, BoolLoopBoundIsRejected) {
  expect_type_error(R"(
def f(b: bool):
    for i in seq(b, 4):
        pass
)",
                    "loop lower bound must be an int, index or size expression, got bool", 3, 18);
}

TEST(Typecheck, WrongIndexCountOnReadIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N, N] @ DRAM, x: f32 @ DRAM):
    x = A[0]
)",
                    "wrong number of indices for 'A': it has rank 2, got 1 index", 3, 9);
}

TEST(Typecheck, WrongIndexCountOnWriteIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM):
    A[0, 1] = 2.0
)",
                    "wrong number of indices for 'A': it has rank 1, got 2 indices", 3, 5);
}

TEST(Typecheck, IndexingAScalarIsRejected) {
  expect_type_error(R"(
def f(x: f32 @ DRAM):
    x[0] = 2.0
)",
                    "cannot index 'x': it is a scalar of type f32", 3, 5);
}

TEST(Typecheck, WholeTensorReadOutsideCallIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM, x: f32 @ DRAM):
    x = A
)",
                    "'A' is an argument of type f32[4]; read one element (A[...]) or pass it "
                    "whole to a call",
                    3, 9);
}

TEST(Typecheck, WindowOfScalarIsRejected) {
  expect_type_error(R"(
def f(x: f32 @ DRAM):
    w = x[0:4]
    pass
)",
                    "cannot take a window of 'x': it is a scalar of type f32, not a tensor", 3, 9);
}

// ---- conditions and shapes ---------------------------------------------------------------------

TEST(Typecheck, NonBoolIfConditionIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i:
            A[i] = 0.0
)",
                    "if condition must be a bool expression, got index", 4, 12);
}

TEST(Typecheck, NonBoolAssertIsRejected) {
  expect_type_error(R"(
def f(N: size):
    assert N
    pass
)",
                    "assert condition must be a bool expression, got size", 3, 12);
}

TEST(Typecheck, SizeArgumentAssertsPass) {
  expect_ok(R"(
def f(N: size, M: size, A: f32[N, M] @ DRAM):
    assert N >= 1 and M % 16 == 0
    assert N <= M
    pass
)");
}

TEST(Typecheck, ShapeBuiltFromSizeArgumentsPasses) {
  expect_ok(R"(
def f(N: size, M: size, A: f32[N * M, N + 3, N / 2] @ DRAM):
    t: f32[N, 4 * M] @ DRAM
    pass
)");
}

TEST(Typecheck, ShapeWithLoopVariableIsRejected) {
  expect_type_error(R"(
def f(N: size):
    for i in seq(0, N):
        t: f32[i + 1] @ DRAM
        pass
)",
                    "dimension 0 of 't' must be built from size arguments and constants, but 'i' "
                    "is a loop variable",
                    4, 16);
}

TEST(Typecheck, ShapeWithDataValueIsRejected) {
  expect_type_error(R"(
def f(x: f32 @ DRAM, A: f32[x] @ DRAM):
    pass
)",
                    "dimension 0 of 'A' must be a control value (int, index or size), but 'x' is "
                    "data of type f32",
                    2, 29);
}

TEST(Typecheck, ZeroDimensionIsRejected) {
  expect_type_error(R"(
def f(A: f32[0] @ DRAM):
    pass
)",
                    "dimension 0 of 'A' must be positive, got 0", 2, 14);
}

TEST(Typecheck, ConstantNonPositiveDimensionIsRejected) {
  expect_type_error(R"(
def f():
    t: f32[2, 4 - 6] @ DRAM
    pass
)",
                    "dimension 1 of 't' must be positive, got -2", 3, 15);
}

// ---- assignments -------------------------------------------------------------------------------

TEST(Typecheck, IntegerLiteralTakesTheBufferType) {
  expect_ok(R"(
def f(A: i8[4] @ DRAM, B: f64[4] @ DRAM):
    A[0] = 3
    A[1] = -1
    B[2] += 2
)");
}

TEST(Typecheck, AssigningControlValueIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = i
)",
                    "cannot assign a value of type index to 'A' (f32): data buffers hold data "
                    "values or integer literals; control values belong in indices and bounds",
                    4, 16);
}

TEST(Typecheck, StoreConvertsBetweenPrecisions) {
  // As in Exo: a store converts its value to the buffer's type (Gemmini's ld_i8 pattern);
  // only the operands of one operator must agree.
  expect_ok(R"(
def ld(scale: f32 @ DRAM, src: i8[4] @ DRAM, dst: i8[4] @ DRAM, acc: i32[4] @ DRAM):
    for i in seq(0, 4):
        tmp: f32 @ DRAM
        tmp = src[i]
        tmp = tmp * scale
        dst[i] = tmp
        acc[i] += dst[i]
)");
}

TEST(Typecheck, RUnifiesWithAnyPrecision) {
  expect_ok(R"(
def f(A: f32[4] @ DRAM, B: f64[4] @ DRAM, r: R[4] @ DRAM):
    A[0] = r[0]
    r[1] += B[1] * r[2]
    B[3] = r[3] + 1.5
)");
}

// ---- operators ---------------------------------------------------------------------------------

TEST(Typecheck, AddingDataAndControlIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = A[i] + i
)",
                    "cannot add f32 and index: data and control values do not mix (only integer "
                    "literals may appear in data expressions)",
                    4, 16);
}

TEST(Typecheck, MixedPrecisionProductIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM, B: f64[4] @ DRAM, r: R[4] @ DRAM):
    r[0] = A[0] * B[0]
)",
                    "cannot multiply f32 and f64: mixed precisions (R unifies with any precision)",
                    3, 12);
}

// Integer data arithmetic is 32-bit whatever the operands' widths: two integer precisions
// combine, into an i32 value.
TEST(Typecheck, TwoIntegerPrecisionsCombineIntoAnI32Value) {
  Module m = parse_module(R"(
def f(a: ui8[4] @ DRAM, b: i8[4] @ DRAM, r: i32[4] @ DRAM):
    r[0] += a[0] * b[0]
)");
  const Stmt& s = m.proc("f").body()[0];
  EXPECT_EQ(s.as<ReduceNode>()->rhs.type().base, ScalarKind::I32);
}

TEST(Typecheck, AFloatAndAnIntegerPrecisionStillDoNotCombine) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM, B: i32[4] @ DRAM, r: f32[4] @ DRAM):
    r[0] = A[0] * B[0]
)",
                    "cannot multiply f32 and i32: mixed precisions (R unifies with any precision)",
                    3, 12);
}

TEST(Typecheck, ComparingDataValuesOutsideAnIfConditionIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM):
    assert A[0] < 0.0
    A[0] = 0.0
)",
                    "data values are compared with '<' only in an if condition (elsewhere use "
                    "select())",
                    3, 12);
}

TEST(Typecheck, LogicalOperatorOnNonBoolIsRejected) {
  expect_type_error(R"(
def f(N: size):
    for i in seq(0, N):
        if i and N > 2:
            pass
)",
                    "'and' needs bool operands, got index and bool", 4, 12);
}

TEST(Typecheck, RemainderOfDataIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM):
    A[0] = A[1] % 2.0
)",
                    "cannot apply '%' to f32 and R: '%' is defined only on control values", 3, 12);
}

TEST(Typecheck, ArithmeticOnBoolIsRejected) {
  expect_type_error(R"(
def f(N: size):
    assert (N > 1) + 1 == 2
    pass
)",
                    "cannot add bool and int: arithmetic is not defined on bool values", 3, 13);
}

TEST(Typecheck, NegatingBoolIsRejected) {
  expect_type_error(R"(
def f(N: size):
    if -(N > 1):
        pass
)",
                    "cannot negate a value of type bool", 3, 8);
}

TEST(Typecheck, StrideOrderingIsRejected) {
  expect_type_error(R"(
def f(A: f32[4, 4] @ DRAM):
    assert stride(A, 0) < 8
    pass
)",
                    "cannot apply '<' to stride and int: stride values can only be compared with "
                    "'=='",
                    3, 12);
}

TEST(Typecheck, StrideComparedWithDataIsRejected) {
  expect_type_error(R"(
def f(A: f32[4, 4] @ DRAM, x: f32 @ DRAM):
    assert stride(A, 1) == x
    pass
)",
                    "cannot compare stride and f32 with '==': a stride compares only with a "
                    "stride or an int, index or size expression",
                    3, 12);
}

// ---- externs -----------------------------------------------------------------------------------

TEST(Typecheck, ExternOnControlValueIsRejected) {
  expect_type_error(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = relu(i)
)",
                    "argument 1 of relu() must be a data value, got index", 4, 16);
}

TEST(Typecheck, ExternArityIsChecked) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM):
    A[0] = sqrt(A[1], A[2])
)",
                    "sqrt() takes 1 argument, got 2", 3, 12);
}

TEST(Typecheck, ExternMixedPrecisionIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM, B: f64[4] @ DRAM):
    A[0] = fmaxf(A[1], B[1])
)",
                    "arguments of fmaxf() mix precisions f32 and f64", 3, 12);
}

}  // namespace
}  // namespace exocpp::typecheck_test
