// stage_mem: golden results (load/store, accum, read-only, point windows, guards), every
// refusal with its message, cursor forwarding, and interpreter equivalence of each rewrite.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kAdd = R"(def add(N: size, A: f32[N, 16] @ DRAM, B: f32[N, 16] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 16):
            A[i, j] = A[i, j] + B[i, j]
)";

const char* kSum = R"(def rowsum(N: size, A: f32[N, 8] @ DRAM, C: f32[N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 8):
            C[i] += A[i, j]
)";

const char* kTail = R"(def inc(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = A[i] + 1.0
)";

TEST(StageMem, StagesAReadWrittenRowWithLoadAndStore) {
  Proc p = parse_proc(kAdd);
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "A[i, 0:16]", "A_t");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(StageMem, ReadOnlyBufferIsLoadedButNotStored) {
  Proc p = parse_proc(kAdd);
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "B[i, 0:16]", "B_t");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(StageMem, AccumZeroInitialisesAndAddsBack) {
  Proc p = parse_proc(kSum);
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "C[i]", "acc", {.accum = true});
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(StageMem, PointWindowStagesOneElementAroundAReduction) {
  Proc p = parse_proc(kSum);
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "C[i]", "c");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(StageMem, TwoDimensionalWindowAroundALoopNest) {
  Proc p = parse_proc(kAdd);
  Proc q = stage_mem(p, p.body_cursor()[0], "A[0:N, 0:16]", "A_all");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 2}});
}

TEST(StageMem, WindowReachingPastTheBufferIsGuarded) {
  Proc p = parse_proc(kTail);
  Proc q = stage_mem(p, p.body_cursor()[0], "A[0:N + 3]", "A_pad");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(StageMem, RefusesAWindowThatMissesAnAccess) {
  Proc p = parse_proc(kAdd);
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[i, 0:8]", "A_t"); },
                 "stage_mem", ErrorCode::NotProved, "checker.refuted",
                 "covers every access of 'A'");
}

TEST(StageMem, RefusesAccumWhenTheBlockReadsTheBuffer) {
  Proc p = parse_proc(kAdd);
  expect_refused(
      [&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[i, 0:16]", "A_t", {.accum = true}); },
      "stage_mem", ErrorCode::NotProved, "stmt.form", "may only reduce");
}

// Found by the soak: with accum the addends are summed apart and added once, so a float addend
// into an integer buffer would be truncated per addend instead of per sum.
TEST(StageMem, RefusesAccumOfFloatAddendsIntoAnIntegerBuffer) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, X: i8[4] @ DRAM):
    for i in seq(0, N):
        X[1] += A[i]
)");  // X[1] + -0.5 + -0.5 truncates once; -0.5 staged alone truncates to 0 twice
  expect_refused([&] { return stage_mem(p, p.body_cursor()[0], "X[1]", "acc", {.accum = true}); },
                 "stage_mem", ErrorCode::NotProved, "precision.regroup");
}

TEST(StageMem, AccumOfIntegerAddendsIntoAnIntegerBufferWrapsAlike) {
  Proc p = parse_proc(R"(def f(N: size, Y: i8[N] @ DRAM, X: i8[4] @ DRAM):
    for i in seq(0, N):
        X[1] += Y[i] * 3
)");  // sums modulo 2^8 regroup exactly
  Proc q = stage_mem(p, p.body_cursor()[0], "X[1]", "acc", {.accum = true});
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(StageMem, RefusesABufferTheBlockDoesNotAccess) {
  Proc r = parse_proc(R"(def g(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { stage_mem(r, r.body_cursor()[0], "B[0:N]", "t"); }, "stage_mem",
                 ErrorCode::NotProved, "buffer.not_accessed", "not accessed");
}

TEST(StageMem, RefusesAWindowOfTheWrongRank) {
  Proc p = parse_proc(kAdd);
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[0:16]", "A_t"); }, "stage_mem",
                 ErrorCode::BadArgument, "arg.expression", "dimensions");
}

TEST(StageMem, RefusesAWindowWhoseExtentDependsOnALoopVariable) {
  Proc p = parse_proc(kAdd);
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[0:i + 1, 0:16]", "t"); },
                 "stage_mem", ErrorCode::NotProved, "alloc.size", "but it uses 'i'");
}

TEST(StageMem, RefusesANameAlreadyInUse) {
  Proc p = parse_proc(kAdd);
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[i, 0:16]", "B"); },
                 "stage_mem", ErrorCode::BadArgument, "arg.name", "already used");
}

TEST(StageMem, RefusesSomethingThatIsNotAWindow) {
  Proc p = parse_proc(kAdd);
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "i + 1", "t"); }, "stage_mem",
                 ErrorCode::BadArgument, "arg.expression", "expected a window");
}

TEST(StageMem, RefusesAnEmptyWindow) {
  Proc p = parse_proc(kAdd);
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[i, 4:0]", "t"); }, "stage_mem",
                 ErrorCode::NotProved, "checker.refuted", "not empty");
}

TEST(StageMem, ForwardsCursorsIntoTheStagedBlock) {
  Proc p = parse_proc(kAdd);
  Cursor assign = p.body_cursor()[0].body()[0].body()[0];
  Cursor loop = p.body_cursor()[0].body()[0];
  Proc q = stage_mem(p, loop, "A[i, 0:16]", "A_t");
  Cursor fa = q.forward(assign);
  ASSERT_TRUE(fa.is_valid());
  EXPECT_EQ(fa.to_string(), "A_t[j] = A_t[j] + B[i, j]");
  EXPECT_EQ(q.forward(loop).to_string(), "for j in seq(0, 16): ...");
  EXPECT_EQ(q.forward(loop).prev().to_string(), "for i0 in seq(0, 16): ...");
}

}  // namespace

namespace {

TEST(StageMem, RefusesAccessesThroughAWindowDefinedBeforeTheBlock) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 16] @ DRAM):
    for i in seq(0, N):
        w = A[i, 0:16]
        for j in seq(0, 16):
            w[j] = 1.0
)");
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[1], "A[i, 0:16]", "t"); },
                 "stage_mem", ErrorCode::NotProved, "buffer.aliased", "through the window 'w'");
}

// The whole window a statement of the block forms is renumbered into the staged buffer, not
// only the elements accessed through it (found by the soak).
TEST(StageMem, RefusesAWindowStatementReachingOutsideTheStagedWindow) {
  Proc p = parse_proc(R"(def f(X: i8[8] @ DRAM):
    w = X[2:6]
    w[0] = X[1]
)");
  expect_refused([&] { stage_mem(p, p.body_cursor(), "X[1:3]", "t"); }, "stage_mem",
                 ErrorCode::NotProved, "checker.refuted", "the block forms a window reaching X[5]");
}

TEST(StageMem, StagesAWindowStatementInsideTheStagedWindow) {
  Proc p = parse_proc(R"(def f(X: i8[8] @ DRAM):
    w = X[2:6]
    w[0] = X[1]
)");
  Proc q = stage_mem(p, p.body_cursor(), "X[1:6]", "t");
  expect_equivalent(p, q);
}

// Staging a window w while the block also writes w's root buffer directly: the store of the
// staged copy would overwrite the direct write (found by the soak).
TEST(StageMem, RefusesAWindowWhoseRootTheBlockAlsoAccesses) {
  Proc p = parse_proc(R"(def f(N: size, Z: i32[N + 8] @ DRAM):
    for i in seq(0, N):
        w = Z[i:i + 4]
        w[1] = w[0]
        Z[i] += w[3]
)");
  Cursor body = p.body_cursor()[0].body();
  expect_refused([&] { stage_mem(p, body[1].as_block().expand(0, 1), "w", "t"); }, "stage_mem",
                 ErrorCode::NotProved, "buffer.aliased",
                 "the block also accesses 'Z', which shares memory with the window 'w'");
}

TEST(StageMem, StagesAWindowPassedToACallInsideTheBlock) {
  Module m = parse_module(R"(def fill(x: [f32][8] @ DRAM):
    for k in seq(0, 8):
        x[k] = 3.0

def f(N: size, A: f32[N, 16] @ DRAM):
    for i in seq(0, N):
        fill(A[i, 4:12])
)");
  Proc p = m.proc("f");
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "A[i, 0:16]", "t");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 2}});
}

TEST(StageMem, RefusesAScalarThatIsNotABuffer) {
  Proc p = parse_proc(kAdd);
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "i", "t"); }, "stage_mem",
                 ErrorCode::BadArgument, "arg.expression", "is not a data buffer");
}

}  // namespace

namespace {

TEST(StageMem, StagesATileOfADividedLoopWithSimplifiedIndices) {
  Proc p =
      parse_proc(R"(def mv(N: size, A: f32[N, 16] @ DRAM, x: f32[16] @ DRAM, C: f32[N, 16] @ DRAM):
    for i in seq(0, N):
        for jo in seq(0, 4):
            for ji in seq(0, 4):
                C[i, 4 * jo + ji] += A[i, 4 * jo + ji] * x[4 * jo + ji]
)");
  Cursor ji = p.body_cursor()[0].body()[0].body()[0];
  Proc q = stage_mem(p, ji, "C[i, 4 * jo:4 * jo + 4]", "C_reg", {.accum = true});
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 2}});
}

}  // namespace

namespace {

TEST(StageMem, StoresBackAnElementPassedToACall) {
  Module m = parse_module(R"(def set1(x: f32 @ DRAM):
    x = 1.0

def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        set1(A[i])
)");
  Proc p = m.proc("f");
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "A[i]", "a");
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

// The staged buffer has its own strides: a window handed to a callee that observes them must
// keep them (rw::require_layout_observations_kept).
const char* kStridedCallee = R"(def g(dst: [f32][4] @ DRAM):
    assert stride(dst, 0) == 16
    for k in seq(0, 4):
        dst[k] = dst[k] + 1.0

def f(A: f32[8, 16] @ DRAM):
    for j in seq(0, 8):
        g(A[0:4, j])
)";

TEST(StageMem, RefusesChangingTheStrideOfAWindowACalleeAsserts) {
  Proc p = parse_module(kStridedCallee).proc("f");
  expect_refused([&] { stage_mem(p, "for j in _: _", "A[0:4, 0:8]", "At"); }, "stage_mem",
                 ErrorCode::NotProved, "layout.stride_changed");
}

TEST(StageMem, KeepsAStrideTheStagedBufferShares) {
  Proc p = parse_module(R"(def g(dst: [f32][16] @ DRAM):
    assert stride(dst, 0) == 1
    for k in seq(0, 16):
        dst[k] = dst[k] + 1.0

def f(A: f32[8, 16] @ DRAM):
    for i in seq(0, 4):
        g(A[i, 0:16])
)")
               .proc("f");
  Proc q = stage_mem(p, "for i in _: _", "A[0:4, 0:16]", "At");
  EXPECT_TRUE(has(q, "g(At[i, 0:16])")) << q;
  expect_equivalent(p, q);
}

}  // namespace

// Exo's test_stage_mem_okay, with the read moved outside the window: a statement whose accesses
// all lie outside the window keeps using the buffer, and the staged copy holds only the window.
TEST(StageMem, StatementOutsideTheWindowStaysOnTheBuffer) {
  Proc p = parse_proc(R"(def foo(x: i8[10, 10, 10] @ DRAM, y: i8 @ DRAM):
    for i in seq(0, 10):
        x[i, 0, i] = 1.0
        y = x[2, 1, 3]
)");
  Proc q = stage_mem(p, p.find_loop("i"), "x[0:10, 0, 0:10]", "x_tmp");
  std::string text = to_string(q);
  EXPECT_NE(text.find("x_tmp[i, i] = 1.0"), std::string::npos) << text;
  EXPECT_NE(text.find("y = x[2, 1, 3]"), std::string::npos) << text;
  expect_equivalent(p, q);
}

// A statement is outside only where every one of its executions is: x[i, 0, j] meets the
// window x[0:10, 0, 0:10] for every i, so nothing is left on x and the window must cover it.
TEST(StageMem, RefusesAStatementThatIsOnlySometimesOutsideTheWindow) {
  Proc p = parse_proc(R"(def foo(x: i8[10, 10, 10] @ DRAM, y: i8 @ DRAM):
    for i in seq(0, 10):
        x[i, 0, i] = 1.0
        y = x[2, i % 2, 3]
)");
  expect_refused([&] { stage_mem(p, p.find_loop("i"), "x[0:10, 0, 0:10]", "x_tmp"); }, "stage_mem",
                 ErrorCode::NotProved, "checker.refuted", "covers every access of 'x'");
}

// Exo's test_fail_stage_mem: B is read at [4i+ii, 4k+kk] (inside the tile) and at
// [4k+kk, 4j+jj], which meets the tile for some i, j, k: refused, as Exo refuses it.
TEST(StageMem, RefusesAReadThatOverlapsTheWindowForSomeIterations) {
  Proc p = parse_proc(R"(def sqmat(n: size, A: R[n, n], B: R[n, n]):
    assert n % 4 == 0
    for i in seq(0, n / 4):
        for j in seq(0, n / 4):
            for k in seq(0, n / 4):
                for ii in seq(0, 4):
                    for jj in seq(0, 4):
                        for kk in seq(0, 4):
                            A[4 * i + ii, 4 * j + jj] += B[4 * i + ii, 4 * k + kk] * B[4 * k + kk, 4 * j + jj]
)");
  expect_refused([&] { stage_mem(p, "for ii in _: _", "B[4*i:4*i+4, 4*k:4*k+4]", "Btile"); },
                 "stage_mem", ErrorCode::NotProved, "checker.refuted",
                 "covers every access of 'B'");
}

// A write outside the window between the load and the store is kept, and the store writes back
// only the window, so neither overwrites the other.
TEST(StageMem, WriteOutsideTheWindowSurvivesTheStore) {
  Proc p = parse_proc(R"(def foo(N: size, x: f32[N + 1] @ DRAM):
    for i in seq(0, N):
        x[i] += 1.0
        x[N] = x[i]
)");
  Proc q = stage_mem(p, p.find_loop("i"), "x[0:N]", "x_tmp");
  std::string text = to_string(q);
  EXPECT_NE(text.find("x[N] = x_tmp[i]"), std::string::npos) << text;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 6}});
}

namespace {

const char* kSqmat = R"(def sqmat(n: size, A: f32[n, n] @ DRAM, B: f32[n, n] @ DRAM):
    assert n % 4 == 0
    for i in seq(0, n / 4):
        for j in seq(0, n / 4):
            for k in seq(0, n / 4):
                for ii in seq(0, 4):
                    for jj in seq(0, 4):
                        for kk in seq(0, 4):
                            A[4 * i + ii, 4 * j + jj] += B[4 * i + ii, 4 * k + kk] * B[4 * k + kk, 4 * j + jj]
)";

const char* kAxpy = R"(def axpy(n: size, x: f32[n], y: f32[n]):
    for i in seq(0, n):
        y[i] += x[i]
)";

const char* kMemcpy = R"(def memcpy(n: size, x: f32[n], y: f32[n]):
    for i in seq(0, n):
        x[i] = y[i]
)";

const char* kMemcpy2D = R"(def memcpy_2D(m: size, n: size, x: f32[m, n], y: f32[m, n]):
    for i in seq(0, m):
        for j in seq(0, n):
            x[i, j] = y[i, j]
)";

// Exo tests/test_schedules.py::test_stage_mem: A's 4x4 tile staged around the k loop (load, compute
// in Atile, store).
TEST(StageMem, StageMem) {
  Proc p = parse_proc(kSqmat);
  Proc q = simplify(stage_mem(p, "for k in _: _", "A[4 * i:4 * i + 4, 4 * j:4 * j + 4]", "Atile"));
  EXPECT_TRUE(has(q, "Atile: f32[4, 4]")) << q;
  EXPECT_TRUE(has(q, "Atile[ii, jj] +=")) << q;
  expect_equivalent(p, q, {{"n", 8}});
}

// Exo tests/test_schedules.py::test_stage_mem_accum: the same with an accumulating tile (zeroed,
// then added back).
TEST(StageMem, StageMemAccum) {
  Proc p = parse_proc(kSqmat);
  StageMemOptions o;
  o.accum = true;
  Proc q =
      simplify(stage_mem(p, "for k in _: _", "A[4 * i:4 * i + 4, 4 * j:4 * j + 4]", "Atile", o));
  EXPECT_TRUE(has(q, "= 0.0")) << q;
  EXPECT_TRUE(has(q, "+= Atile[")) << q;
  expect_equivalent(p, q, {{"n", 8}});
}

// Exo tests/test_schedules.py::test_fail_stage_mem: inside the ii loop B is read outside the staged
// 4x4 tile.
TEST(StageMem, StageMemFailOutOfBounds) {
  Proc p = parse_proc(kSqmat);
  EXPECT_THROW(stage_mem(p, "for ii in _: _", "B[4 * i:4 * i + 4, 4 * k:4 * k + 4]", "Btile"),
               SchedulingError);
}

// Exo tests/test_schedules.py::test_stage_mem_point: a single point of C staged around the k loop.
TEST(StageMem, StageMemPoint) {
  Proc p = parse_proc(
      R"(def matmul(n: size, A: f32[n, n] @ DRAM, B: f32[n, n] @ DRAM, C: f32[n, n] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, n):
            for k in seq(0, n):
                C[i, j] += A[i, k] * B[k, j]
)");
  Proc q = simplify(stage_mem(p, "for k in _: _", "C[i, j]", "res"));
  EXPECT_TRUE(has(q, "res: f32")) << q;
  EXPECT_TRUE(has(q, "res = C[i, j]")) << q;
  EXPECT_TRUE(has(q, "res += A[i, k] * B[k, j]")) << q;
  EXPECT_TRUE(has(q, "C[i, j] = res")) << q;
  expect_equivalent(p, q, {{"n", 3}});
}

// Exo tests/test_schedules.py::test_stage_mem_assign
TEST(StageMem, StageMemAssign) {
  Proc foo = parse_proc(R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result = x[i] + x[i]
)");
  Proc q = simplify(stage_mem(foo, "result = _ #1", "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result = tile + tile
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// Exo tests/test_schedules.py::test_stage_mem_assign2: a block of two statements.
TEST(StageMem, StageMemAssign2) {
  Proc foo = parse_proc(R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result = x[i]
        result = x[i]
)");
  Proc q = simplify(stage_mem(foo, foo.find("result = _ #1").expand(0, 1), "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result = tile
        result = tile
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// Exo tests/test_schedules.py::test_stage_mem_reduce
TEST(StageMem, StageMemReduce) {
  Proc foo = parse_proc(R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result += x[i] + x[i]
)");
  Proc q = simplify(stage_mem(foo, "result += _", "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result += tile + tile
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// Exo tests/test_schedules.py::test_stage_mem_accum2: a 2-D window of a 3-D buffer, read and
// written back.
TEST(StageMem, StageMemAccum2) {
  Proc accum = parse_proc(R"(def accum(out: R[4, 16, 16], w: R[16], im: R[16]):
    for k in seq(0, 4):
        for i in seq(0, 16):
            for j in seq(0, 16):
                out[k, i, j] += w[j] * im[i]
)");
  Proc q = simplify(stage_mem(accum, "for i in _:_", "out[k, 0:16, 0:16]", "o"));
  EXPECT_EQ(to_string(q),
            R"(def accum(out: R[4, 16, 16] @ DRAM, w: R[16] @ DRAM, im: R[16] @ DRAM):
    for k in seq(0, 4):
        o: R[16, 16] @ DRAM
        for i0 in seq(0, 16):
            for i1 in seq(0, 16):
                o[i0, i1] = out[k, i0, i1]
        for i in seq(0, 16):
            for j in seq(0, 16):
                o[i, j] += w[j] * im[i]
        for i0 in seq(0, 16):
            for i1 in seq(0, 16):
                out[k, i0, i1] = o[i0, i1]
)");
  expect_equivalent(accum, q);
}

// Exo tests/test_schedules.py::test_stage_mem_twice: B staged once by
// bind_expr/expand_dim/autolift_alloc/autofission, then again by stage_mem. Exo's golden orders the
// index terms `4 * i + ii` (and `B1: R[4, 4]` has no memory); exocpp's simplify writes every index
// in Exo's normal form, `ii + 4 * i` (docs/exo-differences.md, "Printing"), the same sums. The long
// statement stays on one line.
TEST(StageMem, StageMemTwice) {
  Proc sqmat = parse_proc(R"(def sqmat(n: size, A: R[n, n], B: R[n, n]):
    assert n % 4 == 0
    for i in seq(0, n / 4):
        for j in seq(0, n / 4):
            for k in seq(0, n / 4):
                for ii in seq(0, 4):
                    for jj in seq(0, 4):
                        for kk in seq(0, 4):
                            A[4 * i + ii, 4 * j + jj] += (B[4 * i + ii, 4 * k + kk] * B[4 * k + kk, 4 * j + jj])
)");
  Proc p = bind_expr(sqmat, "B[4*i+ii,4*k+kk]", "B1");
  p = expand_dim(p, "B1 : _", "4", "kk");
  p = expand_dim(p, "B1 : _", "4", "ii");
  p = autolift_alloc(p, "B1 : _", {.n_lifts = 3});
  p = autofission(p, p.find("B1[_] = _").after(), {.n_lifts = 3});
  Proc q = simplify(stage_mem(p, "for ii in _: _ #1", "B[4*k:4*k+4, 4*j:4*j+4]", "B2"));
  EXPECT_EQ(to_string(q), R"(def sqmat(n: size, A: R[n, n] @ DRAM, B: R[n, n] @ DRAM):
    assert n % 4 == 0
    for i in seq(0, n / 4):
        for j in seq(0, n / 4):
            for k in seq(0, n / 4):
                B1: R[4, 4] @ DRAM
                for ii in seq(0, 4):
                    for kk in seq(0, 4):
                        B1[ii, kk] = B[ii + 4 * i, kk + 4 * k]
                B2: R[4, 4] @ DRAM
                for i0 in seq(0, 4):
                    for i1 in seq(0, 4):
                        B2[i0, i1] = B[i0 + 4 * k, i1 + 4 * j]
                for ii in seq(0, 4):
                    for jj in seq(0, 4):
                        for kk in seq(0, 4):
                            A[ii + 4 * i, jj + 4 * j] += B1[ii, kk] * B2[kk, jj]
)");
  expect_equivalent(sqmat, q, {{"n", 4}});
  expect_equivalent(sqmat, q, {{"n", 8}});
}

// Exo tests/test_schedules.py::test_stage_mem_recursive: the staged window is written and then read
// inside the block. Exo's printer breaks the long statements; ours keeps each on one line.
TEST(StageMem, StageMemRecursive) {
  Proc recursive = parse_proc(R"(def recursive(n: size, y: R[n] @ DRAM, x: R[n] @ DRAM):
    assert n > 2
    assert (-2 + n) % 4 == 0
    for io in seq(0, (-2 + n) / 4):
        y[2 + 4 * io] = y[1 + 4 * io] + y[4 * io] + x[4 * io]
        y[3 + 4 * io] = (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io])
        y[4 + 4 * io] = (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io])
        y[5 + 4 * io] = (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io]) + x[3 + 4 * io])
)");
  Proc q = simplify(
      stage_mem(recursive, recursive.find_loop("io").body(), "y[2+4*io : 6+4*io]", "y_tmp"));
  EXPECT_EQ(to_string(q), R"(def recursive(n: size, y: R[n] @ DRAM, x: R[n] @ DRAM):
    assert n > 2
    assert (-2 + n) % 4 == 0
    for io in seq(0, (-2 + n) / 4):
        y_tmp: R[4] @ DRAM
        for i0 in seq(0, 4):
            y_tmp[i0] = y[2 + i0 + 4 * io]
        y_tmp[0] = y[1 + 4 * io] + y[4 * io] + x[4 * io]
        y_tmp[1] = y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io]
        y_tmp[2] = y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io]
        y_tmp[3] = y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io]) + x[3 + 4 * io]
        for i0 in seq(0, 4):
            y[2 + i0 + 4 * io] = y_tmp[i0]
)");
  expect_equivalent(recursive, q, {{"n", 6}});
  expect_equivalent(recursive, q, {{"n", 14}});
}

// Exo tests/test_schedules.py::test_stage_mem_asum
TEST(StageMem, StageMemAsum) {
  Proc asum = parse_proc(R"(def asum(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result += select(0.0, x[i], x[i], -x[i])
)");
  Proc q = simplify(stage_mem(asum, "result += _", "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def asum(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result += select(0.0, tile, tile, -tile)
)");
  expect_equivalent(asum, q, {{"n", 1}});
  expect_equivalent(asum, q, {{"n", 6}});
}

// Exo tests/test_schedules.py::test_stage_mem_should_fail: Exo says "Buffer has accesses" (outside
// the window).
TEST(StageMem, StageMemShouldFail) {
  Proc foo = parse_proc(R"(def foo(x: i8[10, 10, 10]):
    for i in seq(0, 10):
        x[i, i, i] = 1.0
)");
  expect_refused([&] { stage_mem(foo, foo.find_loop("i"), "x[0:10, 0:2, 0:10]", "x_tmp"); },
                 "stage_mem", ErrorCode::NotProved, "checker.refuted",
                 "does not cover every access of x in the block");
}

// Exo tests/test_schedules.py::test_stage_mem_should_fail2: a point window in the middle dimension.
TEST(StageMem, StageMemShouldFail2) {
  Proc foo = parse_proc(R"(def foo(x: i8[10, 10, 10]):
    y: i8
    for i in seq(0, 10):
        y = x[i, i, i]
)");
  expect_refused([&] { stage_mem(foo, foo.find_loop("i"), "x[0:10, 0, 0:10]", "x_tmp"); },
                 "stage_mem", ErrorCode::NotProved, "checker.refuted",
                 "does not cover every access of x in the block");
}

// Exo tests/test_schedules.py::test_stage_mem_should_fail3: Exo says "Cannot stage" a buffer the
// block does not access.
TEST(StageMem, StageMemShouldFail3) {
  Proc foo = parse_proc(R"(def foo(x: i8[10, 10, 10], y: i8[10]):
    for i in seq(0, 10):
        x[i, i, i] = 0.0
)");
  expect_refused([&] { stage_mem(foo, foo.find_loop("i"), "y[0:10]", "y_tmp"); }, "stage_mem",
                 ErrorCode::NotProved, "buffer.not_accessed",
                 "'y' is not accessed in the block, nothing to stage");
}

// Exo tests/test_schedules.py::test_stage_mem_should_fail4: Exo says "Existing WindowExpr"; the
// block reads A through a window bound inside it.
TEST(StageMem, StageMemShouldFail4) {
  Proc foo = parse_proc(R"(def foo(N: size, A: i8[N, N]):
    sum_: i8
    for i in seq(0, N):
        for jo in seq(0, N / 4):
            for ji in seq(0, 4):
                A[i, 4 * jo + ji] = 0.0
                y = A[i : i + 1, 4 * jo + ji]
                sum_ += y[0]
)");
  expect_refused([&] { stage_mem(foo, "for ji in _:_", "A[i, 4*jo:4*jo+4]", "tile"); }, "stage_mem",
                 ErrorCode::NotProved, "buffer.aliased",
                 "the block accesses 'A' through the window 'y'");
}

// Exo tests/test_schedules.py::test_stage_mem_should_fail5: a window statement reaching outside the
// staged window.
TEST(StageMem, StageMemShouldFail5) {
  Proc foo = parse_proc(R"(def foo(N: size, A: i8[N, N]):
    for i in seq(0, N):
        for jo in seq(0, N / 4):
            for ji in seq(0, 4):
                A[i, 4 * jo + ji] = 0.0
                y = A[i : i + 4, 4 * jo + ji]
)");
  expect_refused([&] { stage_mem(foo, "for ji in _:_", "A[i-1:i+1, 4*jo:4*jo+4]", "tile"); },
                 "stage_mem", ErrorCode::NotProved, "checker.refuted",
                 "does not cover every access of A in the block");
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bound_block: the window may reach past x's
// end; the load is guarded.
TEST(StageMem, StageMemOutOfBoundBlock) {
  Proc axpy = parse_proc(kAxpy);
  Proc p = divide_loop(axpy, axpy.find_loop("i"), 5, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("io").body(), "x[5*io:5*io+5]", "xReg"));
  EXPECT_EQ(to_string(q), R"(def axpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (4 + n) / 5):
        xReg: f32[5] @ DRAM
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                xReg[i0] = x[i0 + 5 * io]
        for ii in seq(0, 5):
            if ii + 5 * io < n:
                y[ii + 5 * io] += xReg[ii]
)");
  expect_equivalent(axpy, q, {{"n", 5}});
  expect_equivalent(axpy, q, {{"n", 12}});
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bound_point: a point window under the block's
// guard.
TEST(StageMem, StageMemOutOfBoundPoint) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: f32[n], y: f32[n]):
    assert m >= n
    for i in seq(0, m):
        if i < n:
            y[i] = x[i]
)");
  Proc q = stage_mem(foo, foo.find_loop("i").body(), "x[i]", "tmp");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    assert m >= n
    for i in seq(0, m):
        tmp: f32 @ DRAM
        if i < n:
            tmp = x[i]
        if i < n:
            y[i] = tmp
)");
  expect_equivalent(foo, q, {{"n", 3}, {"m", 3}});
  expect_equivalent(foo, q, {{"n", 3}, {"m", 7}});
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bounds_load_1D (Exo's get_1D_memcpy_tiled,
// then stage_mem).
TEST(StageMem, StageMemOutOfBoundsLoad1D) {
  Proc memcpy = parse_proc(kMemcpy);
  Proc p = divide_loop(memcpy, memcpy.find_loop("i"), 4, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "y[4 * io:4 * io + 4]", "yReg"));
  EXPECT_EQ(to_string(q), R"(def memcpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (3 + n) / 4):
        yReg: f32[4] @ DRAM
        for i0 in seq(0, 4):
            if i0 + 4 * io < n:
                yReg[i0] = y[i0 + 4 * io]
        for ii in seq(0, 4):
            if ii + 4 * io < n:
                x[ii + 4 * io] = yReg[ii]
)");
  expect_equivalent(memcpy, q, {{"n", 4}});
  expect_equivalent(memcpy, q, {{"n", 7}});
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bounds_load_2D_one_cond (Exo's
// get_2D_mempcpy_1D_tiled).
TEST(StageMem, StageMemOutOfBoundsLoad2DOneCond) {
  Proc memcpy = parse_proc(kMemcpy2D);
  Proc p = divide_loop(memcpy, memcpy.find_loop("j"), 4, {"jo", "ji"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ji"), "y[i, 4 * jo:4 * jo + 4]", "yReg"));
  EXPECT_EQ(to_string(q),
            R"(def memcpy_2D(m: size, n: size, x: f32[m, n] @ DRAM, y: f32[m, n] @ DRAM):
    for i in seq(0, m):
        for jo in seq(0, (3 + n) / 4):
            yReg: f32[4] @ DRAM
            for i0 in seq(0, 4):
                if i0 + 4 * jo < n:
                    yReg[i0] = y[i, i0 + 4 * jo]
            for ji in seq(0, 4):
                if ji + 4 * jo < n:
                    x[i, ji + 4 * jo] = yReg[ji]
)");
  expect_equivalent(memcpy, q, {{"m", 2}, {"n", 4}});
  expect_equivalent(memcpy, q, {{"m", 3}, {"n", 7}});
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bounds_load_2D_two_conds (Exo's
// get_2D_mempcpy_2D_tiled: both loops divided with guards, the j loops lifted out of the i guard
// and loop).
TEST(StageMem, StageMemOutOfBoundsLoad2DTwoConds) {
  Proc memcpy = parse_proc(kMemcpy2D);
  Cursor i_loop = memcpy.find_loop("i");
  Cursor j_loop = memcpy.find_loop("j");
  Proc p = divide_loop(memcpy, j_loop, 4, {"jo", "ji"}, {.tail = Tail::Guard});
  p = divide_loop(p, i_loop, 7, {"io", "ii"}, {.tail = Tail::Guard});
  p = lift_scope(p, j_loop);
  p = lift_scope(p, j_loop);
  Proc q =
      simplify(stage_mem(p, p.find_loop("ii"), "y[7 * io: 7 * io + 7, 4 * jo:4 * jo + 4]", "yReg"));
  EXPECT_EQ(to_string(q),
            R"(def memcpy_2D(m: size, n: size, x: f32[m, n] @ DRAM, y: f32[m, n] @ DRAM):
    for io in seq(0, (6 + m) / 7):
        for jo in seq(0, (3 + n) / 4):
            yReg: f32[7, 4] @ DRAM
            for i0 in seq(0, 7):
                for i1 in seq(0, 4):
                    if i0 + 7 * io < m and i1 + 4 * jo < n:
                        yReg[i0, i1] = y[i0 + 7 * io, i1 + 4 * jo]
            for ii in seq(0, 7):
                if ii + 7 * io < m:
                    for ji in seq(0, 4):
                        if ji + 4 * jo < n:
                            x[ii + 7 * io, ji + 4 * jo] = yReg[ii, ji]
)");
  expect_equivalent(memcpy, q, {{"m", 7}, {"n", 4}});
  expect_equivalent(memcpy, q, {{"m", 9}, {"n", 6}});
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bounds_store_1D: the block only writes the
// window, under a guard. exocpp loads the window first (docs/exo-differences.md, "stage_mem loads a
// window the block only writes"): the store copies the whole window back, so the load keeps what
// the block leaves unwritten. Exo's golden has no load.
TEST(StageMem, StageMemOutOfBoundsStore1D) {
  Proc memcpy = parse_proc(kMemcpy);
  Proc p = divide_loop(memcpy, memcpy.find_loop("i"), 4, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "x[4 * io:4 * io + 4]", "xReg"));
  EXPECT_EQ(to_string(q), R"(def memcpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (3 + n) / 4):
        xReg: f32[4] @ DRAM
        for i0 in seq(0, 4):
            if i0 + 4 * io < n:
                xReg[i0] = x[i0 + 4 * io]
        for ii in seq(0, 4):
            if ii + 4 * io < n:
                xReg[ii] = y[ii + 4 * io]
        for i0 in seq(0, 4):
            if i0 + 4 * io < n:
                x[i0 + 4 * io] = xReg[i0]
)");
  expect_equivalent(memcpy, q, {{"n", 4}});
  expect_equivalent(memcpy, q, {{"n", 7}});
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bounds_reduction: load and store both guarded.
TEST(StageMem, StageMemOutOfBoundsReduction) {
  Proc axpy = parse_proc(kAxpy);
  Proc p = divide_loop(axpy, axpy.find_loop("i"), 5, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "y[5*io:5*io+5]", "yReg"));
  EXPECT_EQ(to_string(q), R"(def axpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (4 + n) / 5):
        yReg: f32[5] @ DRAM
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                yReg[i0] = y[i0 + 5 * io]
        for ii in seq(0, 5):
            if ii + 5 * io < n:
                yReg[ii] += x[ii + 5 * io]
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                y[i0 + 5 * io] = yReg[i0]
)");
  expect_equivalent(axpy, q, {{"n", 5}});
  expect_equivalent(axpy, q, {{"n", 12}});
}

// Exo tests/test_schedules.py::test_stage_mem_out_of_bound_reduction_accum: zero-initialised,
// accumulated back under a guard.
TEST(StageMem, StageMemOutOfBoundReductionAccum) {
  Proc axpy = parse_proc(kAxpy);
  Proc p = divide_loop(axpy, axpy.find_loop("i"), 5, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "y[5*io:5*io+5]", "yReg", {.accum = true}));
  EXPECT_EQ(to_string(q), R"(def axpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (4 + n) / 5):
        yReg: f32[5] @ DRAM
        for i0 in seq(0, 5):
            yReg[i0] = 0.0
        for ii in seq(0, 5):
            if ii + 5 * io < n:
                yReg[ii] += x[ii + 5 * io]
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                y[i0 + 5 * io] += yReg[i0]
)");
  expect_equivalent(axpy, q, {{"n", 5}});
  expect_equivalent(axpy, q, {{"n", 12}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(StageMem, StageMemRefusesAWindowTheBlockChanges) {
  Proc p = eval_once_proc(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    for i in seq(0, 2):
        C.k = 4
        A[i] = 1.0
)");
  expect_refused([&] { stage_mem(p, "for i in _: _", "A[C.k:C.k + 2]", "At"); }, "stage_mem",
                 ErrorCode::BadArgument, "arg.parse_or_type", "C.k");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(StageMem, StageMemRefusesBadNames) {
  Proc p = parse_proc(kNamesSrc);
  expect_all_refused("stage_mem",
                     [&](const std::string& n) { stage_mem(p, p.find_loop("i"), "A[0:N]", n); });
}

// Trust (structure): every use is seen, declarations stay in scope.
// stage_mem of a point window: the load ran even where the block's access does not.
TEST(StageMem, StageMemGuardsPointIndex) {
  Proc p = parse_proc(R"(
def f(n: size, a: f32[4] @ DRAM):
    for j in seq(0, n):
        if j < 4:
            a[j] = 1.0
)");
  Proc q = stage_mem(p, p.find("if _: _"), "a[j]", "t");
  expect_equivalent(p, q, {{"n", 1}});
  expect_equivalent(p, q, {{"n", 6}});
}

// Par loops: a par result's iterations must be proved independent.
// Any operation that rebuilds a par loop re-proves it (rewrites/internal/operation.h,
// require_well_formed): here stage_mem copies the whole buffer in and out in every iteration, so
// the iterations, each apart before, now all write every element. Found by the soak (the emitted C,
// run by OpenMP, disagreed with the interpreter).
TEST(StageMem, StageMemRefusesStagingAWholeBufferInsideAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 8] @ DRAM):
    for i in par(0, N):
        A[i] = A[i] + 0.5 * A[i]
)");
  expect_refused([&] { stage_mem(p, p.body_cursor()[0].body()[0], "A[0:N + 8]", "stz"); },
                 "stage_mem", ErrorCode::NotProved, "checker.par_conflict", kParLoopNeedle);
}

// Par loops: a par result's iterations must be proved independent.
TEST(StageMem, StageMemOfTheIterationsOwnElementKeepsTheLoopPar) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 8] @ DRAM):
    for i in par(0, N):
        A[i] = A[i] + 0.5 * A[i]
)");
  Proc q = stage_mem(p, p.body_cursor()[0].body()[0], "A[i:i + 1]", "stz");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

}  // namespace

namespace {

// Found by the soak: an if's condition reading the buffer outside the window was rewritten as if
// inside (W[0] became stz0[-1]); the condition's reads are classified like the body's.
TEST(StageMem, ADataConditionReadOutsideTheWindowStaysOnTheBuffer) {
  Proc p = parse_proc(R"(def f(W: ui16[8] @ DRAM, A: f32[8] @ DRAM):
    if W[0] >= W[1]:
        A[0] = 1.0
)");
  Proc q = stage_mem(p, p.body_cursor()[0], "W[1:3]", "stz");
  EXPECT_TRUE(has(q, "    if W[0] >= stz[0]:\n")) << q;
  expect_equivalent(p, q);
}

}  // namespace
