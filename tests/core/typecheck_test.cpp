// Type checker tests in surface syntax: for each rule, a well-typed proc that passes and an
// ill-typed one that throws TypeError with the exact message at the exact line:col. Sources go
// through parse_module, which runs typecheck() on every proc it parses.
#include <gtest/gtest.h>

#include <memory>

#include "core/errors.h"
#include "core/memory.h"
#include "core/parser.h"
#include "core/typecheck.h"

namespace exocpp {
namespace {

// A memory only instructions may touch (like a vector register file).
class RegsMemory : public Memory {
 public:
  std::string name() const override { return "TC_REGS"; }
  bool can_read() const override { return false; }
};

Module parse(const std::string& src) {
  static bool registered = (register_memory(std::make_shared<RegsMemory>()), true);
  (void)registered;
  return parse_module(src, {}, "<tc>");
}

void expect_ok(const std::string& src) {
  try {
    parse(src);
  } catch (const Error& e) {
    ADD_FAILURE() << "unexpected error: " << e.what() << "\nin:\n" << src;
  }
}

void expect_type_error(const std::string& src, const std::string& reason, int line, int col) {
  try {
    parse(src);
    ADD_FAILURE() << "expected TypeError: " << reason << "\nin:\n" << src;
  } catch (const TypeError& e) {
    EXPECT_EQ(e.reason(), reason) << src;
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().col, col) << e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << "expected TypeError, got: " << e.what();
  }
}

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

// Two hardware libraries in the style of Exo's platforms/gemmini.py and platforms/x86.py, with
// kernels that use them: instructions over memories plain code may not touch, configs written
// by instructions and compared in asserts, stores that convert precisions, prefix instructions
// with size arguments, windows with omitted bounds.
TEST(Typecheck, GemminiStyleLibraryPasses) {
  expect_ok(R"(
config ConfigStore:
    scale: f32
    dst_stride: stride
    act: bool

@instr("{dst}[0] = ACC_SCALE({src}[0], {scale}[0]);")
def acc_scale(src: i32 @ DRAM, dst: f32 @ DRAM, scale: f32 @ DRAM):
    pass

def clamp(src: f32 @ DRAM, dst: i8 @ DRAM):
    l: f32 @ DRAM
    h: f32 @ DRAM
    t: f32 @ DRAM
    l = -128.0
    h = 127.0
    t = select(h, src, h, src)
    t = select(t, l, l, t)
    dst = t

@instr("config_st({dst_stride}, {act}, {scale}[0]);")
def config_st_acc_i8(scale: f32 @ DRAM, dst_stride: stride, act: bool):
    ConfigStore.scale = scale
    ConfigStore.dst_stride = dst_stride
    ConfigStore.act = act

@instr("mvout({dst_data}, {src_data}, {m}, {n});")
def do_st_acc_i8(n: size, m: size, src: [i32][n, 16] @ TC_REGS, dst: [i8][n, m] @ DRAM):
    assert n <= 16 and m <= 16
    assert stride(src, 0) == 16
    assert stride(dst, 0) == ConfigStore.dst_stride
    for i in seq(0, n):
        for j in seq(0, m):
            src_tmp: i32 @ DRAM
            src_tmp = src[i, j]
            tmp: f32 @ DRAM
            acc_scale(src_tmp, tmp, ConfigStore.scale)
            tmp2: i8 @ DRAM
            clamp(tmp, tmp2)
            if ConfigStore.act == True:
                tmp2 = relu(tmp2)
            dst[i, j] = tmp2

@instr("mvin({src_data}, {dst_data}, {m}, {n});")
def ld_i8_s2(n: size, m: size, src: [i8][n * 2 - 1, m] @ DRAM, dst: [i8][n, 16] @ TC_REGS):
    assert 0 < n and n <= 16
    assert 0 < m and m <= 16
    for i in seq(0, n):
        for j in seq(0, m):
            dst[i, j] = src[i * 2, j]

def store(N: size, M: size, scale: f32 @ DRAM, C: i8[N, M] @ DRAM, A: i8[2 * N, M] @ DRAM):
    assert N % 16 == 0 and M % 16 == 0
    res: i32[N, 16] @ TC_REGS
    buf: i8[N, 16] @ TC_REGS
    config_st_acc_i8(scale, stride(C, 0), False)
    for io in seq(0, N / 16):
        for jo in seq(0, M / 16):
            do_st_acc_i8(16, 16, res[16 * io:16 * io + 16, :], C[16 * io:16 * io + 16, 16 * jo:16 * jo + 16])
            ld_i8_s2(16, 16, A[32 * io:32 * io + 31, 16 * jo:16 * jo + 16], buf[16 * io:16 * io + 16, :])
)");
}

TEST(Typecheck, X86StyleLibraryPasses) {
  expect_ok(R"(
@instr("{dst_data} = _mm256_loadu_ps(&{src_data});")
def mm256_loadu_ps(dst: [f32][8] @ TC_REGS, src: [f32][8] @ DRAM):
    assert stride(src, 0) == 1
    assert stride(dst, 0) == 1
    for i in seq(0, 8):
        dst[i] = src[i]

@instr("_mm256_storeu_ps(&{dst_data}, {src_data});")
def mm256_storeu_ps(dst: [f32][8] @ DRAM, src: [f32][8] @ TC_REGS):
    for i in seq(0, 8):
        dst[i] = src[i]

@instr("{dst_data} = _mm256_fmadd_ps({src1_data}, {src2_data}, {dst_data});")
def mm256_fmadd_ps(dst: [f32][8] @ TC_REGS, src1: [f32][8] @ TC_REGS, src2: [f32][8] @ TC_REGS):
    for i in seq(0, 8):
        dst[i] += src1[i] * src2[i]

@instr("{out_data} = _mm256_broadcast_ss(&{val_data});")
def mm256_broadcast_ss(out: [f32][8] @ TC_REGS, val: [f32][1] @ DRAM):
    for i in seq(0, 8):
        out[i] = val[0]

@instr("{dst_data} = mask_load({m}, &{src_data});")
def mm256_prefix_load_ps(m: size, dst: [f32][8] @ TC_REGS, src: [f32][m] @ DRAM):
    assert m <= 8
    for i in seq(0, 8):
        if i < m:
            dst[i] = src[i]

@instr("*{result} += hsum({x_data});")
def avx2_assoc_reduce_add_ps(x: [f32][8] @ TC_REGS, result: f32 @ DRAM):
    for i in seq(0, 8):
        result += x[i]

def saxpy(N: size, a: f32[1] @ DRAM, x: f32[N] @ DRAM, y: f32[N] @ DRAM, out: f32 @ DRAM):
    assert N % 8 == 0
    av: f32[8] @ TC_REGS
    xv: f32[8] @ TC_REGS
    yv: f32[8] @ TC_REGS
    mm256_broadcast_ss(av, a[0:1])
    for io in seq(0, N / 8):
        mm256_loadu_ps(xv, x[8 * io:8 * io + 8])
        mm256_loadu_ps(yv, y[8 * io:8 * io + 8])
        mm256_fmadd_ps(yv, av, xv)
        mm256_storeu_ps(y[8 * io:8 * io + 8], yv)
        avx2_assoc_reduce_add_ps(yv, out)
    for ii in seq(0, N % 8):
        out += x[N / 8 * 8 + ii]
    mm256_prefix_load_ps(N % 8 + 1, xv, x[0:N % 8 + 1])
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

TEST(Typecheck, ComparingDataValuesIsRejected) {
  expect_type_error(R"(
def f(A: f32[4] @ DRAM):
    if A[0] < 0.0:
        A[0] = 0.0
)",
                    "cannot compare data values with '<' (use select())", 3, 8);
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

// ---- configs -----------------------------------------------------------------------------------

TEST(Typecheck, ConfigControlFieldGivenDataIsRejected) {
  expect_type_error(R"(
config Cfg:
    n: index

def f(x: f32 @ DRAM):
    Cfg.n = x
)",
                    "Cfg.n is a control field of type index; expected an int, index or size "
                    "expression, got f32",
                    6, 13);
}

TEST(Typecheck, ConfigDataFieldGivenControlIsRejected) {
  expect_type_error(R"(
config Cfg:
    scale: f32

def f(N: size):
    Cfg.scale = N
)",
                    "cannot write a value of type size to Cfg.scale (f32): data buffers hold data "
                    "values or integer literals; control values belong in indices and bounds",
                    6, 17);
}

TEST(Typecheck, LoopInvariantConfigWriteInLoopPasses) {
  expect_ok(R"(
config Cfg:
    n: index

def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        Cfg.n = N - 1
        A[i] = 0.0
)");
}

TEST(Typecheck, ConfigWriteOfLoopVariableIsRejected) {
  expect_type_error(R"(
config Cfg:
    n: index

def f(N: size):
    for i in seq(0, N):
        Cfg.n = i
)",
                    "the value written to Cfg.n depends on loop variable 'i': configuration "
                    "writes must not depend on loop iterations (write the config outside the "
                    "loop, or make the value loop-invariant)",
                    7, 9);
}

TEST(Typecheck, ConfigWriteUnderLoopDependentIfIsRejected) {
  expect_type_error(R"(
config Cfg:
    flag: bool

def f(N: size):
    for i in seq(0, N):
        if i == 0:
            Cfg.flag = True
)",
                    "the value written to Cfg.flag depends on loop variable 'i': configuration "
                    "writes must not depend on loop iterations (write the config outside the "
                    "loop, or make the value loop-invariant)",
                    8, 13);
}

TEST(Typecheck, ConfigWriteThroughCalleeIsChecked) {
  expect_type_error(R"(
config Cfg:
    n: index

def set_n(k: index):
    Cfg.n = k

def f(N: size):
    for i in seq(0, N):
        set_n(i)
)",
                    "the value written to Cfg.n depends on loop variable 'i': configuration "
                    "writes must not depend on loop iterations (write the config outside the "
                    "loop, or make the value loop-invariant)",
                    10, 9);
}

// ---- calls -------------------------------------------------------------------------------------

const char* kCallee = R"(
def callee(n: size, k: index, b: bool, s: stride, x: f32 @ DRAM, T: f32[4] @ DRAM, W: [f32][n] @ DRAM):
    pass
)";

TEST(Typecheck, WellTypedCallPasses) {
  expect_ok(std::string(kCallee) + R"(
def f(N: size, A: f32[4] @ DRAM, B: f32[N, 8] @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N):
        callee(8, i, i < N, stride(B, 0), y, A, B[i, 0:8])
        callee(N, 2 * i, True, 1, B[i, 3], A, A)
)");
}

TEST(Typecheck, CallArgumentCountIsChecked) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, A)
)",
                    "'callee' takes 7 arguments, got 6", 6, 5);
}

TEST(Typecheck, SizeParameterGivenLoopVariableIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(N: size, A: f32[4] @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N):
        callee(i + 1, 0, True, 1, y, A, A)
)",
                    "argument 'n' of 'callee' (a size) must be built from size arguments and "
                    "constants, but 'i' is a loop variable",
                    7, 16);
}

TEST(Typecheck, SizeParameterGivenZeroIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(0, 0, True, 1, y, A, A)
)",
                    "argument 'n' of 'callee' is a size and must be positive, got 0", 6, 12);
}

TEST(Typecheck, IndexParameterGivenDataIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, y, True, 1, y, A, A)
)",
                    "argument 'k' of 'callee' expects index, got f32: data values cannot be "
                    "passed as control values",
                    6, 15);
}

TEST(Typecheck, BoolParameterGivenIndexIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, 1, 1, y, A, A)
)",
                    "argument 'b' of 'callee' expects bool, got int", 6, 18);
}

TEST(Typecheck, StrideParameterGivenBoolIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, False, y, A, A)
)",
                    "argument 's' of 'callee' expects stride, got bool", 6, 24);
}

TEST(Typecheck, ScalarParameterGivenExpressionIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y * 2.0, A, A)
)",
                    "argument 'x' of 'callee' expects a scalar buffer of type f32: pass a "
                    "variable or a tensor element (the callee may write it), not an expression of "
                    "type f32",
                    6, 27);
}

TEST(Typecheck, ScalarParameterGivenOtherPrecisionIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f64 @ DRAM):
    callee(4, 0, True, 1, y, A, A)
)",
                    "argument 'x' of 'callee' expects a scalar buffer of type f32, got f64: mixed "
                    "precisions (R unifies with any precision)",
                    6, 27);
}

TEST(Typecheck, TensorParameterGivenWindowIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[8] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, A[0:4], A)
)",
                    "argument 'T' of 'callee' expects f32[4], got [f32][4]: a tensor parameter "
                    "does not accept a window (declare the parameter as a window [f32][...])",
                    6, 30);
}

TEST(Typecheck, TensorParameterGivenOtherRankIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, B: f32[4, 4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, B, A)
)",
                    "argument 'T' of 'callee' expects f32[4], got f32[4, 4]: rank 1 expected, "
                    "got 2",
                    6, 30);
}

TEST(Typecheck, TensorParameterGivenOtherPrecisionIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, D: f64[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, D, A)
)",
                    "argument 'T' of 'callee' expects f32[4], got f64[4]: element types differ "
                    "(R unifies with any precision)",
                    6, 30);
}

TEST(Typecheck, TensorParameterGivenScalarIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, y, A)
)",
                    "argument 'T' of 'callee' expects f32[4], got 'y', an argument of type f32: "
                    "pass a tensor or a window",
                    6, 30);
}

TEST(Typecheck, WindowParameterGivenOtherRankIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, B: f32[4, 4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, A, B)
)",
                    "argument 'W' of 'callee' expects [f32][n], got f32[4, 4]: rank 1 expected, "
                    "got 2",
                    6, 33);
}

// ---- memories ----------------------------------------------------------------------------------

const char* kRegsInstr = R"(
@instr("zero4({dst_data});")
def zero4(dst: [f32][4] @ TC_REGS):
    for i in seq(0, 4):
        dst[i] = 0.0
)";

TEST(Typecheck, InstructionOnlyMemoryThroughInstrPasses) {
  expect_ok(std::string(kRegsInstr) + R"(
def f(A: f32[4] @ DRAM):
    r: f32[4] @ TC_REGS
    zero4(r)
)");
}

TEST(Typecheck, ReadingInstructionOnlyMemoryInPlainProcIsRejected) {
  expect_type_error(std::string(kRegsInstr) + R"(
def f(A: f32[4] @ DRAM):
    r: f32[4] @ TC_REGS
    zero4(r)
    A[0] = r[0]
)",
                    "cannot read 'r' in proc 'f': it lives in memory TC_REGS, which only "
                    "instructions (@instr procs) may access; call an instruction or stage the "
                    "data in DRAM",
                    10, 12);
}

TEST(Typecheck, WritingInstructionOnlyMemoryInPlainProcIsRejected) {
  expect_type_error(R"(
def f(r: f32[4] @ TC_REGS):
    r[1] = 2.0
)",
                    "cannot write 'r' in proc 'f': it lives in memory TC_REGS, which only "
                    "instructions (@instr procs) may access; call an instruction or stage the "
                    "data in DRAM",
                    3, 5);
}

}  // namespace
}  // namespace exocpp
