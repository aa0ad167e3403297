// Type checker tests in surface syntax, calls, configs and memories: each call-argument rule,
// config writes (field types, loop invariance), memories that only instructions may touch, and
// two whole hardware libraries that must type-check without a false error.
#include "typecheck_test_util.h"

namespace exocpp::typecheck_test {
namespace {

// Two hardware libraries in the style of Exo's platforms/gemmini.py and platforms/x86.py, with
// kernels that use them: instructions over memories plain code may not touch, configs written
// by instructions and compared in asserts, stores that convert precisions, prefix instructions
// with size arguments, windows with omitted bounds.
TEST(TypecheckCalls, GemminiStyleLibraryPasses) {
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

TEST(TypecheckCalls, X86StyleLibraryPasses) {
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

// ---- configs -----------------------------------------------------------------------------------

TEST(TypecheckCalls, ConfigControlFieldGivenDataIsRejected) {
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

TEST(TypecheckCalls, ConfigDataFieldGivenControlIsRejected) {
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

TEST(TypecheckCalls, LoopInvariantConfigWriteInLoopPasses) {
  expect_ok(R"(
config Cfg:
    n: index

def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        Cfg.n = N - 1
        A[i] = 0.0
)");
}

TEST(TypecheckCalls, ConfigWriteOfLoopVariableIsRejected) {
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

TEST(TypecheckCalls, ConfigWriteUnderLoopDependentIfIsRejected) {
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

TEST(TypecheckCalls, ConfigWriteThroughCalleeIsChecked) {
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

TEST(TypecheckCalls, ConfigWriteBeforeALoopThatWritesItsSourcePasses) {
  // The write runs once, before the loop: no iteration can change the value it stores, even
  // though the loop later writes the buffer it read.
  expect_ok(R"(
config K:
    h: f32

def p(N: size, A: f32[N] @ DRAM):
    K.h = A[0]
    for i in seq(0, N):
        A[i] = K.h
)");
}

TEST(TypecheckCalls, ConfigWriteBetweenLoopsOfDataFromTheFirstPasses) {
  expect_ok(R"(
config K:
    h: f32

def p(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    assert N >= 1
    for i in seq(0, N):
        A[i] = B[i]
    K.h = A[N - 1]
    for j in seq(0, N):
        B[j] = K.h
)");
}

TEST(TypecheckCalls, ConfigWriteOfDataTheSameIterationComputedIsRejected) {
  expect_type_error(R"(
config K:
    h: f32

def p(N: size, A: f32[N] @ DRAM):
    x: f32[1] @ DRAM
    for i in seq(0, N):
        x[0] = A[i]
        K.h = x[0]
)",
                    "the value written to K.h depends on loop variable 'i': configuration "
                    "writes must not depend on loop iterations (write the config outside the "
                    "loop, or make the value loop-invariant)",
                    9, 9);
}

TEST(TypecheckCalls, ConfigWriteOfDataAnEarlierIterationComputedIsRejected) {
  // Loop-carried: the second iteration stores what the first wrote to A[0].
  expect_type_error(R"(
config K:
    h: f32

def p(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        K.h = A[0]
        A[0] = B[i]
)",
                    "the value written to K.h depends on loop variable 'i': configuration "
                    "writes must not depend on loop iterations (write the config outside the "
                    "loop, or make the value loop-invariant)",
                    7, 9);
}

TEST(TypecheckCalls, ConfigWriteOfDataWrittenThroughAnEarlierWindowIsRejected) {
  // The window is declared before the loop: writes through it are writes of A all the same.
  expect_type_error(R"(
config K:
    h: f32

def p(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    w = A[0:N]
    for i in seq(0, N):
        w[0] = B[i]
        K.h = A[0]
)",
                    "the value written to K.h depends on loop variable 'i': configuration "
                    "writes must not depend on loop iterations (write the config outside the "
                    "loop, or make the value loop-invariant)",
                    9, 9);
}

// ---- calls -------------------------------------------------------------------------------------

const char* kCallee = R"(
def callee(n: size, k: index, b: bool, s: stride, x: f32 @ DRAM, T: f32[4] @ DRAM, W: [f32][n] @ DRAM):
    pass
)";

TEST(TypecheckCalls, WellTypedCallPasses) {
  expect_ok(std::string(kCallee) + R"(
def f(N: size, A: f32[4] @ DRAM, B: f32[N, 8] @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N):
        callee(8, i, i < N, stride(B, 0), y, A, B[i, 0:8])
        callee(N, 2 * i, True, 1, B[i, 3], A, A)
)");
}

TEST(TypecheckCalls, CallArgumentCountIsChecked) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, A)
)",
                    "'callee' takes 7 arguments, got 6", 6, 5);
}

TEST(TypecheckCalls, SizeParameterGivenLoopExpressionPasses) {
  // As in Exo: the checker, not the type checker, proves such a size positive at the call.
  expect_ok(std::string(kCallee) + R"(
def f(N: size, A: f32[4] @ DRAM, y: f32 @ DRAM):
    for i in seq(0, N):
        callee(N - i, 0, True, 1, y, A, A)
)");
}

TEST(TypecheckCalls, SizeParameterGivenDataIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(y, 0, True, 1, y, A, A)
)",
                    "argument 'n' of 'callee' expects size, got f32: data values cannot be "
                    "passed as control values",
                    6, 12);
}

TEST(TypecheckCalls, SizeParameterGivenZeroIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(0, 0, True, 1, y, A, A)
)",
                    "argument 'n' of 'callee' is a size and must be positive, got 0", 6, 12);
}

TEST(TypecheckCalls, IndexParameterGivenDataIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, y, True, 1, y, A, A)
)",
                    "argument 'k' of 'callee' expects index, got f32: data values cannot be "
                    "passed as control values",
                    6, 15);
}

TEST(TypecheckCalls, BoolParameterGivenIndexIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, 1, 1, y, A, A)
)",
                    "argument 'b' of 'callee' expects bool, got int", 6, 18);
}

TEST(TypecheckCalls, StrideParameterGivenBoolIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, False, y, A, A)
)",
                    "argument 's' of 'callee' expects stride, got bool", 6, 24);
}

TEST(TypecheckCalls, ScalarParameterGivenExpressionIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y * 2.0, A, A)
)",
                    "argument 'x' of 'callee' expects a scalar buffer of type f32: pass a "
                    "variable or a tensor element (the callee may write it), not an expression of "
                    "type f32",
                    6, 27);
}

TEST(TypecheckCalls, ControlParameterGivenBufferIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(A, 0, True, 1, y, A, A)
)",
                    "argument 'n' of 'callee' expects size, got the buffer f32[4]: control "
                    "parameters take control values",
                    6, 12);
}

TEST(TypecheckCalls, ScalarParameterGivenWholeTensorIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, A, A, A)
)",
                    "argument 'x' of 'callee' expects a scalar buffer of type f32, got f32[4]: "
                    "pass one element (A[i, j]) or declare the parameter as a tensor",
                    6, 27);
}

TEST(TypecheckCalls, ScalarParameterGivenOtherPrecisionIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f64 @ DRAM):
    callee(4, 0, True, 1, y, A, A)
)",
                    "argument 'x' of 'callee' expects a scalar buffer of type f32, got f64: mixed "
                    "precisions (R unifies with any precision)",
                    6, 27);
}

// As in Exo, a window may stand for a tensor parameter; that it is dense (the tensor is a plain
// pointer) is a fact about values, decided by the checker (tests/checker/frontend_test.cpp).
TEST(TypecheckCalls, TensorParameterAcceptsAWindow) {
  expect_ok(std::string(kCallee) + R"(
def f(A: f32[8] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, A[0:4], A)
)");
}

TEST(TypecheckCalls, TensorParameterGivenOtherRankIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, B: f32[4, 4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, B, A)
)",
                    "argument 'T' of 'callee' expects f32[4], got f32[4, 4]: rank 1 expected, "
                    "got 2",
                    6, 30);
}

TEST(TypecheckCalls, TensorParameterGivenOtherPrecisionIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, D: f64[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, D, A)
)",
                    "argument 'T' of 'callee' expects f32[4], got f64[4]: element types differ "
                    "(R unifies with any precision)",
                    6, 30);
}

TEST(TypecheckCalls, TensorParameterGivenScalarIsRejected) {
  expect_type_error(std::string(kCallee) + R"(
def f(A: f32[4] @ DRAM, y: f32 @ DRAM):
    callee(4, 0, True, 1, y, y, A)
)",
                    "argument 'T' of 'callee' expects f32[4], got 'y', an argument of type f32: "
                    "pass a tensor or a window",
                    6, 30);
}

TEST(TypecheckCalls, WindowParameterGivenOtherRankIsRejected) {
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

TEST(TypecheckCalls, InstructionOnlyMemoryThroughInstrPasses) {
  expect_ok(std::string(kRegsInstr) + R"(
def f(A: f32[4] @ DRAM):
    r: f32[4] @ TC_REGS
    zero4(r)
)");
}

TEST(TypecheckCalls, ReadingInstructionOnlyMemoryInPlainProcIsRejected) {
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

TEST(TypecheckCalls, WritingInstructionOnlyMemoryInPlainProcIsRejected) {
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
}  // namespace exocpp::typecheck_test
