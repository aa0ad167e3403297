// replace and replace_all: accepted unifications (copy into a load, reductions into FMAs, a
// scheduled gemm micro-kernel, strided and 2-D windows, solved size/index arguments, offset
// loops, asserts that hold), goldens of each result, forwarding, and interpreter equivalence.
// Refusals are in replace_refusal_test.cpp.
#include "replace_test.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// Replaces `block` of the proc `src` by `sub`; checks the result against golden `golden` and
// against `src` in the interpreter.
void expect_replaced(const std::string& src, const std::string& block, const Proc& sub,
                     const std::string& golden, const std::map<std::string, int64_t>& sizes = {}) {
  Proc p = parse_proc(src);
  Proc q = replace(p, block, sub);
  expect_golden(golden, to_string(q));
  expect_equivalent(p, q, sizes);
}

TEST(Replace, CopyLoopBecomesLoad) {
  expect_replaced(R"(def copy(N: size, A: f32[N, 16] @ DRAM, B: f32[N, 16] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 16):
            B[i, j] = A[i, j]
)",
                  "for j in _: _", instr("vld"), "replace_copy", {{"N", 3}});
}

TEST(Replace, ReductionBecomesFma) {
  expect_replaced(R"(def dot(x: f32[16] @ DRAM, y: f32[16] @ DRAM, z: f32[16] @ DRAM):
    for k in seq(0, 16):
        z[k] += x[k] * y[k]
)",
                  "for k in _: _", instr("vfma"), "replace_fma");
}

const char* kGemmRow =
    R"(def row(K: size, A: f32[4, K] @ DRAM, B: f32[K, 16] @ DRAM, C: f32[4, 16] @ DRAM):
    for i in seq(0, 4):
        for k in seq(0, K):
            for j in seq(0, 16):
                C[i, j] += A[i, k] * B[k, j]
)";

TEST(Replace, BroadcastFmaTakesAPointWindowOfA) {
  expect_replaced(kGemmRow, "for j in _: _", instr("vfma_bcast"), "replace_fma_bcast", {{"K", 3}});
}

TEST(Replace, BroadcastFmaTakesAScalarElementOfA) {
  expect_replaced(kGemmRow, "for j in _: _", instr("vfma_scalar"), "replace_fma_scalar",
                  {{"K", 3}});
}

TEST(Replace, SizeArgumentIsSolvedFromTheLoopBound) {
  expect_replaced(R"(def tail(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    assert N >= 9
    assert N <= 24
    for i in seq(0, N - 8):
        B[i + 8] = A[i + 8]
)",
                  "for i in _: _", instr("vcopy_n"), "replace_size_arg", {{"N", 13}});
}

TEST(Replace, IndexArgumentIsSolvedFromACondition) {
  expect_replaced(R"(def masked(N: size, A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    assert N <= 19
    for i in seq(0, 16):
        if i < N - 3:
            B[i] = A[i]
)",
                  "for i in _: _", instr("vmasked"), "replace_index_arg", {{"N", 10}});
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
                  "for i in _: _", instr("vmasked"), "replace_le_guard", {{"N", 9}});
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
                  "for ii in _: _", instr("vmaskz"), "replace_masked_tail", {{"M", 37}});
}

TEST(Replace, TwoDimensionalWindowWithNonUnitOuterStride) {
  expect_replaced(R"(def tiles(N: size, A: f32[N, 12] @ DRAM, B: f32[4, 4] @ DRAM):
    assert N >= 6
    for i in seq(0, 4):
        for j in seq(0, 4):
            B[i, j] = A[i + 2, j + 8]
)",
                  "for i in _: _", instr("tile_copy"), "replace_tile", {{"N", 7}});
}

TEST(Replace, OffsetLoopIsNormalisedToZero) {
  expect_replaced(R"(def shifted(x: f32[16] @ DRAM, y: f32[20] @ DRAM):
    for i in seq(2, 18):
        x[i - 2] = y[i + 1]
)",
                  "for i in _: _", instr("vld"), "replace_offset_loop");
}

TEST(Replace, IndicesEqualUpToArithmeticUnify) {
  expect_replaced(R"(def perm(x: f32[64] @ DRAM, y: f32[64] @ DRAM):
    for io in seq(0, 4):
        for ii in seq(0, 16):
            x[ii + io * 16] = y[16 * io + ii]
)",
                  "for ii in _: _", instr("vld"), "replace_commuted_indices");
}

TEST(Replace, ConstantStoreIntoZeroInstruction) {
  expect_replaced(R"(def clear(x: f32[2, 16] @ DRAM):
    for r in seq(0, 2):
        for c in seq(0, 16):
            x[r, c] = 0.0
)",
                  "for c in _: _", instr("vzero"), "replace_zero");
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
  expect_golden("replace_gemm_kernel", to_string(q));
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
  expect_golden("replace_all", to_string(q));
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
  expect_golden("replace_divided_nest", to_string(s));
  expect_equivalent(p, s);
}

TEST(Replace, OffsetNestUnifiesWithOneLoop) {
  expect_replaced(R"(def copy(x: f32[16] @ DRAM, y: f32[24] @ DRAM):
    for io in seq(1, 5):
        for ii in seq(0, 4):
            x[4 * io + ii - 4] = y[4 * io + ii]
)",
                  "for io in _: _", instr("vld"), "replace_offset_nest");
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
                  "for i in _: _", instr("vld"), "replace_window_args");
}

TEST(Replace, ReadOnlyBufferMayBePassedForTwoArguments) {
  expect_replaced(R"(def sq(x: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] += y[i] * y[i]
)",
                  "for i in _: _", instr("vfma"), "replace_shared_input");
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
  expect_golden("replace_block_with_local", to_string(q));
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
  expect_golden("replace_stride_arg", to_string(q));
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
  expect_golden("replace_masked_cut_tail", to_string(q));
  expect_equivalent(p, q, {{"N", 37}});
  expect_equivalent(p, q, {{"N", 32}});
}

}  // namespace
