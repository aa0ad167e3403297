// replace and replace_all: accepted unifications (copy into a load, reductions into FMAs, a
// scheduled gemm micro-kernel, strided and 2-D windows, solved size/index arguments, offset
// loops, asserts that hold), goldens of each result, forwarding, and interpreter equivalence.
// Refusals are in replace_refusal_test.cpp.
#include "replace_test.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

// Replaces `block` of the proc `src` by `sub`; checks the result against the test's golden file
// and against `src` in the interpreter.
void expect_replaced(const std::string& src, const std::string& block, const Proc& sub,
                     const std::map<std::string, int64_t>& sizes = {}) {
  Proc p = parse_proc(src);
  Proc q = replace(p, block, sub);
  expect_golden(to_string(q));
  expect_equivalent(p, q, sizes);
}

TEST(Replace, CopyLoopBecomesLoad) {
  expect_replaced(R"(def copy(N: size, A: f32[N, 16] @ DRAM, B: f32[N, 16] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 16):
            B[i, j] = A[i, j]
)",
                  "for j in _: _", instr("vld"), {{"N", 3}});
}

TEST(Replace, ReductionBecomesFma) {
  expect_replaced(R"(def dot(x: f32[16] @ DRAM, y: f32[16] @ DRAM, z: f32[16] @ DRAM):
    for k in seq(0, 16):
        z[k] += x[k] * y[k]
)",
                  "for k in _: _", instr("vfma"));
}

const char* kGemmRow =
    R"(def row(K: size, A: f32[4, K] @ DRAM, B: f32[K, 16] @ DRAM, C: f32[4, 16] @ DRAM):
    for i in seq(0, 4):
        for k in seq(0, K):
            for j in seq(0, 16):
                C[i, j] += A[i, k] * B[k, j]
)";

TEST(Replace, DisjointWindowsOfOneWrittenBufferAreTwoArguments) {
  // Two rows of one buffer (two registers of one register array): the checker proves the
  // windows x[0, 0:16] and x[1, 0:16] disjoint, so the written one aliases nothing.
  expect_replaced(R"(def rows(x: f32[2, 16] @ DRAM, y: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[0, i] += x[1, i] * y[i]
)",
                  "for i in _: _", instr("vfma"));
}

TEST(Replace, AControlValueStoredIntoDataSolvesTheIndexArgument) {
  // `base + i` against `8 + 16 * k + j`: an index equation (base = 8 + 16 k), not two
  // expressions matched operand by operand.
  expect_replaced(R"(def iota(n: size, y: i32[n, 16] @ DRAM):
    assert n <= 100
    for k in seq(0, n):
        for j in seq(0, 16):
            y[k, j] = 8 + 16 * k + j
)",
                  "for j in _: _", instr("viota"), {{"n", 3}});
}

TEST(Replace, BroadcastFmaTakesAPointWindowOfA) {
  expect_replaced(kGemmRow, "for j in _: _", instr("vfma_bcast"), {{"K", 3}});
}

TEST(Replace, BroadcastFmaTakesAScalarElementOfA) {
  expect_replaced(kGemmRow, "for j in _: _", instr("vfma_scalar"), {{"K", 3}});
}

TEST(Replace, SizeArgumentIsSolvedFromTheLoopBound) {
  expect_replaced(R"(def tail(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    assert N >= 9
    assert N <= 24
    for i in seq(0, N - 8):
        B[i + 8] = A[i + 8]
)",
                  "for i in _: _", instr("vcopy_n"), {{"N", 13}});
}

TEST(Replace, IndexArgumentIsSolvedFromACondition) {
  expect_replaced(R"(def masked(N: size, A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    assert N <= 19
    for i in seq(0, 16):
        if i < N - 3:
            B[i] = A[i]
)",
                  "for i in _: _", instr("vmasked"), {{"N", 10}});
}

// A tensor parameter (a plain pointer) takes a dense part of a buffer, a row here; a column is
// refused (replace_refusal_test.cpp).
TEST(Replace, TensorParameterTakesADenseRow) {
  Module m = parse_module(R"(def copy8(dst: f32[8] @ DRAM, src: f32[8] @ DRAM):
    for i in seq(0, 8):
        dst[i] = src[i]

def rows(N: size, A: f32[N, 8] @ DRAM, B: f32[N, 8] @ DRAM):
    for r in seq(0, N):
        for c in seq(0, 8):
            B[r, c] = A[r, c]
)");
  Proc p = m.proc("rows");
  Proc q = replace(p, "for c in _: _", m.proc("copy8"));
  EXPECT_NE(to_string(q).find("copy8(B[r, 0:8], A[r, 0:8])"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 3}});
}

// Over the integers `i <= N` is `i < N + 1`: the instruction's `i < m` takes m := N + 1.
TEST(Replace, LessOrEqualGuardUnifiesWithALessThanOne) {
  expect_replaced(R"(def masked_le(N: size, A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    assert N < 16
    for i in seq(0, 16):
        if i <= N:
            B[i] = A[i]
)",
                  "for i in _: _", instr("vmasked"), {{"N", 9}});
}

TEST(Replace, MaskedTailLoadSolvesItsLaneCountFromTheGuard) {
  expect_replaced(R"(def tail(M: size, A: f32[M] @ DRAM, x: f32[16] @ DRAM):
    assert M % 16 > 0
    for ii in seq(0, 16):
        if 16 * (M / 16) + ii < M:
            x[ii] = A[16 * (M / 16) + ii]
        else:
            x[ii] = 0.0
)",
                  "for ii in _: _", instr("vmaskz"), {{"M", 37}});
}

TEST(Replace, TwoDimensionalWindowWithNonUnitOuterStride) {
  expect_replaced(R"(def tiles(N: size, A: f32[N, 12] @ DRAM, B: f32[4, 4] @ DRAM):
    assert N >= 6
    for i in seq(0, 4):
        for j in seq(0, 4):
            B[i, j] = A[i + 2, j + 8]
)",
                  "for i in _: _", instr("tile_copy"), {{"N", 7}});
}

TEST(Replace, OffsetLoopIsNormalisedToZero) {
  expect_replaced(R"(def shifted(x: f32[16] @ DRAM, y: f32[20] @ DRAM):
    for i in seq(2, 18):
        x[i - 2] = y[i + 1]
)",
                  "for i in _: _", instr("vld"));
}

TEST(Replace, IndicesEqualUpToArithmeticUnify) {
  expect_replaced(R"(def perm(x: f32[64] @ DRAM, y: f32[64] @ DRAM):
    for io in seq(0, 4):
        for ii in seq(0, 16):
            x[ii + io * 16] = y[16 * io + ii]
)",
                  "for ii in _: _", instr("vld"));
}

TEST(Replace, ConstantStoreIntoZeroInstruction) {
  expect_replaced(R"(def clear(x: f32[2, 16] @ DRAM):
    for r in seq(0, 2):
        for c in seq(0, 16):
            x[r, c] = 0.0
)",
                  "for c in _: _", instr("vzero"));
}

// examples/gemm.exo scheduled into a 16-wide micro-kernel whose loads, FMAs and stores
// become instructions: replace after divide_loop, reorder_loops and stage_mem.
TEST(Replace, ScheduledGemmMicroKernel) {
  Proc p = parse_proc(
      R"(def gemm(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, N] @ DRAM, C: f32[M, N] @ DRAM):
    assert N % 16 == 0
    for i in seq(0, M):
        for j in seq(0, N):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)");
  Proc q = divide_loop(p, "j", 16, {"jo", "ji"}, {.perfect = true});
  q = reorder_loops(q, "ji k");
  q = stage_mem(q, "for k in _: _", "C[i, 16 * jo:16 * jo + 16]", "C_reg");
  Cursor alloc = q.find("C_reg: _");
  Cursor load = alloc.next(), kloop = alloc.next(2), store = alloc.next(3);
  q = replace(q, load, instr("vld"));
  q = replace(q, q.forward(kloop).body()[0], instr("vfma_bcast"));
  q = replace(q, q.forward(store), instr("vld"));
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"M", 2}, {"N", 32}, {"K", 3}});
}

TEST(Replace, ForwardsCursorsAroundTheBlockAndInvalidatesThoseInside) {
  Proc p = parse_proc(R"(def two(x: f32[16] @ DRAM, y: f32[16] @ DRAM, z: f32[16] @ DRAM):
    z[0] = 1.0
    for i in seq(0, 16):
        x[i] = y[i]
    z[1] = 2.0
)");
  Cursor after = p.body_cursor()[2];
  Cursor inside = p.body_cursor()[1].body()[0];
  Proc q = replace(p, p.body_cursor()[1], instr("vld"));
  Cursor fa = q.forward(after);
  ASSERT_TRUE(fa.is_valid());
  EXPECT_EQ(to_string(fa.stmt()), "z[1] = 2.0\n");
  EXPECT_FALSE(q.forward(inside).is_valid());
  Cursor block = q.forward(p.body_cursor().slice(1, 2));  // the block itself: now the call
  ASSERT_TRUE(block.is_valid());
  EXPECT_EQ(block.stmts().at(0).kind(), StmtKind::Call);
  expect_equivalent(p, q);
}

TEST(Replace, ReplaceAllReplacesEveryMatchingBlock) {
  Proc p = parse_proc(R"(def many(x: f32[16] @ DRAM, y: f32[16] @ DRAM, z: f32[3, 16] @ DRAM):
    for i in seq(0, 16):
        x[i] = y[i]
    for r in seq(0, 3):
        for c in seq(0, 16):
            z[r, c] = x[c]
    for i in seq(0, 16):
        y[i] = y[i] + 1.0
)");
  Proc q = replace_all(p, instr("vld"));
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(Replace, ReplaceAllWithNoMatchReturnsTheSameProc) {
  Proc p = parse_proc(R"(def none(x: f32[8] @ DRAM):
    for i in seq(0, 8):
        x[i] = 1.0
)");
  Proc q = replace_all(p, instr("vld"));
  EXPECT_TRUE(q.same_as(p));
}

}  // namespace

namespace {

TEST(Replace, DividedLoopNestUnifiesWithOneLoop) {
  Proc p = parse_proc(R"(def copy(x: f32[2, 16] @ DRAM, y: f32[2, 16] @ DRAM):
    for r in seq(0, 2):
        for i in seq(0, 16):
            x[r, i] = y[r, i]
)");
  Proc q = divide_loop(p, "i", 4, {"io", "ii"}, {.perfect = true});
  Proc s = replace(q, "for io in _: _", instr("vld"));
  expect_golden(to_string(s));
  expect_equivalent(p, s);
}

TEST(Replace, OffsetNestUnifiesWithOneLoop) {
  expect_replaced(R"(def copy(x: f32[16] @ DRAM, y: f32[24] @ DRAM):
    for io in seq(1, 5):
        for ii in seq(0, 4):
            x[4 * io + ii - 4] = y[4 * io + ii]
)",
                  "for io in _: _", instr("vld"));
}

}  // namespace

namespace {

TEST(Replace, WindowArgumentsOfTheCallerWithAssertedStrides) {
  expect_replaced(R"(def k(x: [f32][16] @ DRAM, y: [f32][16] @ DRAM):
    assert stride(x, 0) == 1
    assert stride(y, 0) == 1
    for i in seq(0, 16):
        x[i] = y[i]
)",
                  "for i in _: _", instr("vld"));
}

TEST(Replace, ReadOnlyBufferMayBePassedForTwoArguments) {
  expect_replaced(R"(def sq(x: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] += y[i] * y[i]
)",
                  "for i in _: _", instr("vfma"));
}

TEST(Replace, BlockOfSeveralStatementsWithALocalBuffer) {
  Module m = parse_module(R"(def zadd(dst: [f32][16] @ DRAM, src: [f32][16] @ DRAM):
    t: f32[16] @ DRAM
    for i in seq(0, 16):
        t[i] = src[i] * 2.0
    for i in seq(0, 16):
        dst[i] += t[i]

def k(N: size, A: f32[N, 16] @ DRAM, B: f32[N, 16] @ DRAM):
    for r in seq(0, N):
        tmp: f32[16] @ DRAM
        for c in seq(0, 16):
            tmp[c] = A[r, c] * 2.0
        for c in seq(0, 16):
            B[r, c] += tmp[c]
)");
  Proc p = m.proc("k");
  Proc q = replace(p, p.find_loop("r").body(), m.proc("zadd"));
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 2}});
}

TEST(Replace, StrideArgumentSolvedFromAConfigWrite) {
  Module m = parse_module(R"(config Cfg:
    s: stride

def set_stride(s: stride):
    Cfg.s = s

def k(N: size, A: f32[N, 8] @ DRAM):
    Cfg.s = stride(A, 0)
)");
  Proc p = m.proc("k");
  Proc q = replace(p, "Cfg.s = _", m.proc("set_stride"));
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 2}});
}

}  // namespace

namespace {

// A copy of any length: divide_loop cuts a 16-wide main part (a load each) and a guarded tail,
// bound_and_guard gives the tail the masked instruction's shape, and replace solves its lane
// count N % 16 from the guard.
TEST(Replace, CutTailBecomesAMaskedInstruction) {
  Proc p = parse_proc(R"(def copy(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        B[i] = A[i]
)");
  Proc q = divide_loop(p, "i", 16, {"io", "ii"}, {.tail = Tail::CutAndGuard});
  q = replace(q, "for ii in _: _ #0", instr("vld"));
  q = bound_and_guard(q, "for ii in _: _", "16");
  q = replace(q, "for ii in _: _", instr("vmask_copy"));
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 37}});
  expect_equivalent(p, q, {{"N", 32}});
}

}  // namespace

namespace {

// ---- replace: unification (test_unify1 .. test_unify12) ---------------------------------------

// Replaces `block` of proc `caller` of `src` by proc `callee`; expects `expected` and an
// equivalent result.
void expect_unified(const std::string& src, const std::string& caller, const std::string& callee,
                    const CursorLike& block, const std::string& expected,
                    const std::map<std::string, int64_t>& sizes = {}) {
  Module m = parse_module(src);
  Proc p = m.proc(caller);
  Proc q = replace(p, block, m.proc(callee));
  EXPECT_EQ(to_string(q), expected);
  expect_equivalent(p, q, sizes);
}

// The masked copy of test_unify9 .. test_unify12, and a caller whose guard is `cond`.
const char* kMaskedCopy = R"(def bar(dst: [f32][8], src: [f32][8], bound: size):
    for i in seq(0, 8):
        if i < bound:
            dst[i] = src[i]
)";

std::string masked_caller(const std::string& cond, const std::string& x_extent = "n") {
  return std::string(kMaskedCopy) + "\ndef foo(n: size, m: size, x: f32[" + x_extent + R"(]):
    assert n - m >= 1
    assert n - m <= 8
    y: f32[8]
    for i in seq(0, 8):
        if )" +
         cond + R"(:
            y[i] = x[i]
)";
}

// Exo tests/test_schedules.py::test_unify1: a non-window tensor parameter takes the whole buffer.
TEST(Replace, Unify1) {
  expect_unified(R"(def bar(n: size, src: R[n, n], dst: R[n, n]):
    for i in seq(0, n):
        for j in seq(0, n):
            dst[i, j] = src[i, j]

def foo(x: R[5, 5], y: R[5, 5]):
    for i in seq(0, 5):
        for j in seq(0, 5):
            x[i, j] = y[i, j]
)",
                 "foo", "bar", "for i in _: _",
                 "def foo(x: R[5, 5] @ DRAM, y: R[5, 5] @ DRAM):\n    bar(5, y, x)\n");
}

// Exo tests/test_schedules.py::test_unify2: offsets become windows.
TEST(Replace, Unify2) {
  expect_unified(R"(def bar(n: size, src: [R][n, n], dst: [R][n, n]):
    for i in seq(0, n):
        for j in seq(0, n):
            dst[i, j] = src[i, j]

def foo(x: R[12, 12], y: R[12, 12]):
    for i in seq(0, 5):
        for j in seq(0, 5):
            x[i + 3, j + 1] = y[i + 5, j + 2]
)",
                 "foo", "bar", "for i in _: _",
                 "def foo(x: R[12, 12] @ DRAM, y: R[12, 12] @ DRAM):\n"
                 "    bar(5, y[5:10, 2:7], x[3:8, 1:6])\n");
}

// Exo tests/test_schedules.py::test_unify3: a 4-wide SIMD add inside a divided loop.
TEST(Replace, Unify3) {
  expect_unified(R"(def simd_add4(dst: [R][4], a: [R][4], b: [R][4]):
    for i in seq(0, 4):
        dst[i] = a[i] + b[i]

def foo(n: size, z: R[n], x: R[n], y: R[n]):
    assert n % 4 == 0
    for i in seq(0, n / 4):
        for j in seq(0, 4):
            z[4 * i + j] = x[4 * i + j] + y[4 * i + j]
)",
                 "foo", "simd_add4", "for j in _: _",
                 "def foo(n: size, z: R[n] @ DRAM, x: R[n] @ DRAM, y: R[n] @ DRAM):\n"
                 "    assert n % 4 == 0\n"
                 "    for i in seq(0, n / 4):\n"
                 "        simd_add4(z[4 * i:4 * i + 4], x[4 * i:4 * i + 4], y[4 * i:4 * i + 4])\n",
                 {{"n", 8}});
}

// Exo tests/test_schedules.py::test_unify4: a guarded body; the second dimension is a point.
TEST(Replace, Unify4) {
  expect_unified(
      R"(def bar(n: size, src: [R][n], dst: [R][n]):
    for i in seq(0, n):
        if i < n - 2:
            dst[i] = src[i] + src[i + 1]

def foo(x: R[50, 2], y: R[50, 2]):
    for j in seq(0, 50):
        if j < 48:
            y[j, 1] = x[j, 0] + x[j + 1, 0]
)",
      "foo", "bar", "for j in _: _",
      "def foo(x: R[50, 2] @ DRAM, y: R[50, 2] @ DRAM):\n    bar(50, x[0:50, 0], y[0:50, 1])\n");
}

// Exo tests/test_schedules.py::test_unify5: an allocation inside the block unifies with the
// callee's.
TEST(Replace, Unify5) {
  expect_unified(R"(def bar(n: size, src: R[n, n], dst: R[n, n]):
    for i in seq(0, n):
        for j in seq(0, n):
            tmp: f32
            tmp = src[i, j]
            dst[i, j] = tmp

def foo(x: R[5, 5], y: R[5, 5]):
    for i in seq(0, 5):
        for j in seq(0, 5):
            c: f32
            c = y[i, j]
            x[i, j] = c
)",
                 "foo", "bar", "for i in _: _",
                 "def foo(x: R[5, 5] @ DRAM, y: R[5, 5] @ DRAM):\n    bar(5, y, x)\n");
}

// Exo tests/test_schedules.py::test_unify6: two sizes solved from the trip counts; windows of a
// window argument.
TEST(Replace, Unify6) {
  expect_unified(R"(def load(n: size, m: size, src: [i8][n, m], dst: [i8][n, 16]):
    assert n <= 16
    assert m <= 16
    for i in seq(0, n):
        for j in seq(0, m):
            dst[i, j] = src[i, j]

def bar(K: size, A: [i8][16, K] @ DRAM):
    for k in seq(0, K / 16):
        a: i8[16, 16] @ DRAM
        for i in seq(0, 16):
            for k_in in seq(0, 16):
                a[i, k_in] = A[i, 16 * k + k_in]
)",
                 "bar", "load", "for i in _: _",
                 "def bar(K: size, A: [i8][16, K] @ DRAM):\n"
                 "    for k in seq(0, K / 16):\n"
                 "        a: i8[16, 16] @ DRAM\n"
                 "        load(16, 16, A[0:16, 16 * k:16 * k + 16], a[0:16, 0:16])\n",
                 {{"K", 32}});
}

// Exo tests/test_schedules.py::test_unify7. Deliberate difference: Exo fills arguments the block
// does not mention with defaults (`bar(False, 5, y, x, 0)`); our replace refuses an argument the
// block does not determine (docs/scheduling/replace.md), rather than invent a value.
TEST(Replace, Unify7UnusedArgumentsAreRefused) {
  Module m =
      parse_module(R"(def bar(unused_b: bool, n: size, src: R[n, n], dst: R[n, n], unused_m: index):
    for i in seq(0, n):
        for j in seq(0, n):
            dst[i, j] = src[i, j]

def foo(x: R[5, 5], y: R[5, 5]):
    for i in seq(0, 5):
        for j in seq(0, 5):
            x[i, j] = y[i, j]
)");
  expect_refused([&] { replace(m.proc("foo"), "for i in _: _", m.proc("bar")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify", "unused_b");
}

// Exo tests/test_schedules.py::test_unify8: the loops' lower bound is an argument.
TEST(Replace, Unify8) {
  expect_unified(R"(def bar(n: size, m: size, src: R[n, n], dst: R[n, n]):
    assert m < n
    for i in seq(m, n):
        for j in seq(m, n):
            dst[i, j] = src[i, j]

def foo(x: R[5, 5], y: R[5, 5]):
    for i in seq(3, 5):
        for j in seq(3, 5):
            x[i, j] = y[i, j]
)",
                 "foo", "bar", "for i in _: _",
                 "def foo(x: R[5, 5] @ DRAM, y: R[5, 5] @ DRAM):\n    bar(5, 3, y, x)\n");
}

// Exo tests/test_schedules.py::test_unify9. Deliberate difference: Exo passes x[0:8] although x has
// only n elements and nothing bounds n below by 8; our replace proves every window lies inside its
// buffer and refuses (docs/scheduling/replace.md). With x long enough the bound is solved from
// the guard as in Exo's golden.
TEST(Replace, Unify9WindowOutsideTheBufferIsRefused) {
  Module m = parse_module(masked_caller("i + m < n"));
  expect_refused([&] { replace(m.proc("foo"), m.proc("foo").find_loop("i"), m.proc("bar")); },
                 "replace", ErrorCode::NotProved, "checker.refuted", "x[0:8]");
}

// Ported from Exo tests/test_schedules.py.
TEST(Replace, Unify9) {
  Module m = parse_module(masked_caller("i + m < n", "n + 8"));
  Proc p = m.proc("foo");
  Proc q = replace(p, p.find_loop("i"), m.proc("bar"));
  // Exo's golden, after simplify: `bar(y[0:8], x[0:8], -m + n)`.
  EXPECT_EQ(to_string(q).substr(to_string(q).find("    bar(")),
            "    bar(y[0:8], x[0:8], -m + n)\n");
  expect_equivalent(p, q, {{"n", 5}, {"m", 2}});
}

// Exo tests/test_schedules.py::test_unify10: the caller's `i + m <= n` against the callee's `i <
// bound` unifies over the integers (`a <= b` is `a < b + 1`): bound := n - m + 1, as Exo's golden.
TEST(Replace, Unify10LessOrEqualAgainstLess) {
  Module m = parse_module(masked_caller("i + m <= n", "n + 8"));
  Proc p = m.proc("foo");
  Proc q = replace(p, p.find_loop("i"), m.proc("bar"));
  EXPECT_EQ(to_string(q).substr(to_string(q).find("    bar(")),
            "    bar(y[0:8], x[0:8], -m + n + 1)\n");
  expect_equivalent(p, q, {{"n", 5}, {"m", 2}});
}

// Exo tests/test_schedules.py::test_unify11. Deliberate difference: the guard `m > n + i` solves
// `bound` to m - n, which the asserts make negative; Exo passes it to the size parameter anyway,
// our replace refuses a size argument it cannot prove positive.
TEST(Replace, Unify11NonPositiveSizeIsRefused) {
  Module m = parse_module(masked_caller("m > n + i", "n + 8"));
  expect_refused([&] { replace(m.proc("foo"), m.proc("foo").find_loop("i"), m.proc("bar")); },
                 "replace", ErrorCode::NotProved, "checker.refuted", "the size argument 'bound'");
}

// Exo tests/test_schedules.py::test_unify12: `m >= n + i` against `i < bound` unifies (bound := m -
// n + 1), but the asserts make that size argument non-positive, so it is refused as in
// test_unify11.
TEST(Replace, Unify12NonPositiveSizeIsRefused) {
  Module m = parse_module(masked_caller("m >= n + i", "n + 8"));
  expect_refused([&] { replace(m.proc("foo"), m.proc("foo").find_loop("i"), m.proc("bar")); },
                 "replace", ErrorCode::NotProved, "checker.refuted", "the size argument 'bound'");
}

// Exo tests/test_schedules.py::test_mem_aware_replace: Exo's call_site_mem_aware_replace is replace
// with the memories checked at the call site, which our replace always does.
TEST(Replace, MemAwareReplace) {
  Proc bar = load_store();
  Proc q = replace(bar, "for i in _: _", avx2("mm256_loadu_ps"));
  q = replace(q, "for i in _: _", avx2("mm256_storeu_ps"));
  EXPECT_EQ(to_string(q), R"(def bar(src: f32[8] @ DRAM):
    dst: f32[8] @ AVX2
    mm256_loadu_ps(dst[0:8], src[0:8])
    mm256_storeu_ps(src[0:8], dst[0:8])
)");
  expect_equivalent(bar, q);
}

// Exo tests/test_schedules.py::test_mem_aware_replace_fail: the store writes DRAM, the first loop
// writes the AVX2 buffer.
TEST(Replace, MemAwareReplaceFail) {
  Proc bar = load_store();
  expect_refused([&] { replace(bar, "for i in _: _", avx2("mm256_storeu_ps")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify", "AVX2");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(Replace, ReplaceByAProcOfTheCallersNameIsRefused) {
  Proc g = parse_proc(R"(
def g(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { replace(g, g.body_cursor(), g); }, "replace", ErrorCode::BadArgument,
                 "arg.name", "same name as the caller");
}

// Trust (structure): every use is seen, declarations stay in scope.
// Redteam 14: a par callee loop cannot stand for a seq loop of the caller.
TEST(Replace, ReplaceRefusesParCalleeForSeqLoop) {
  Module m = parse_module(R"(
def cp(dst: [f32][1] @ DRAM, src: [f32][4] @ DRAM):
    for i in par(0, 4):
        dst[0] = src[i]

def f(x: f32[1] @ DRAM, y: f32[4] @ DRAM):
    for i in seq(0, 4):
        x[0] = y[i]
)");
  Proc f = m.proc("f");
  expect_refused([&] { return replace(f, f.find_loop("i"), m.proc("cp")); }, "`par`");
}

// Trust (structure): every use is seen, declarations stay in scope.
TEST(Replace, ReplaceAcceptsSeqCalleeForParLoop) {
  Module m = parse_module(R"(
def cp(dst: [f32][4] @ DRAM, src: [f32][4] @ DRAM):
    for i in seq(0, 4):
        dst[i] = src[i]

def f(x: f32[4] @ DRAM, y: f32[4] @ DRAM):
    for i in par(0, 4):
        x[i] = y[i]
)");
  Proc f = m.proc("f");
  Proc q = replace(f, f.find_loop("i"), m.proc("cp"));
  expect_equivalent(f, q);
}

// Trust (structure): every use is seen, declarations stay in scope.
TEST(Replace, ReplaceRefusesRAllocForIntegerAlloc) {
  Module m = parse_module(R"(
def sq(dst: [i8][1] @ DRAM, src: [i8][1] @ DRAM):
    t: R @ DRAM
    t = src[0] * src[0]
    dst[0] = t / 2

def f(x: i8[1] @ DRAM, y: i8[1] @ DRAM):
    t: i8 @ DRAM
    t = y[0] * y[0]
    x[0] = t / 2
)");
  Proc f = m.proc("f");
  expect_refused([&] { return replace(f, f.body_cursor(), m.proc("sq")); }, "R matches float");
}

}  // namespace
