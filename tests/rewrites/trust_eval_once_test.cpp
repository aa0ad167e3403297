// Issue 11, class 1: expressions evaluated twice. Every operation that moves or duplicates an
// expression (a loop bound re-read by a guard or a tail, a window or argument substituted at
// every use, a condition evaluated once instead of per iteration...) proves that the code in
// between writes nothing the expression reads (checker::value_unchanged_by), or refuses.
// Reproductions: redteam 03 (divide_loop), 07 (inline_window), 08 (inline_proc).
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kCfg = R"(
config C:
    n: index
    k: index
)";

Proc P(const std::string& body) { return parse_proc(std::string(kCfg) + body); }

const char* kPhrase = "has the same value where the rewritten proc evaluates it";

// --- divide_loop ---------------------------------------------------------------------------

TEST(TrustEvalOnce, DivideLoopGuardRereadsAConfigBoundTheBodyWrites) {  // redteam 03
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 2
        A[i] = 1.0
)");
  expect_refused([&] { divide_loop(p, "i", 4, {"io", "ii"}); }, "divide_loop", kPhrase);
  expect_refused([&] { divide_loop(p, "i", 4, {"io", "ii"}); }, "divide_loop", "writes C.n");
}

TEST(TrustEvalOnce, DivideLoopTailRereadsAConfigBoundTheBodyWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.n = 7
    for i in seq(0, C.n):
        C.n = 2
        A[i] = 1.0
)");
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Cut});
      },
      "divide_loop", "tail loop");
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::CutAndGuard});
      },
      "divide_loop", kPhrase);
}

TEST(TrustEvalOnce, DivideLoopAcceptsAConfigBoundNobodyWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.n = 7
    for i in seq(0, C.n):
        A[i] = 1.0
)");
  Proc q = divide_loop(p, "i", 4, {"io", "ii"});
  expect_equivalent(p, q);
}

// --- shift_loop, cut_loop, join_loops, bound_and_guard, divide_with_recompute ----------------

TEST(TrustEvalOnce, ShiftLoopRefusesALowerBoundTheBodyWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.k = 2
    for i in seq(C.k, 8):
        C.k = 0
        A[i] = 1.0
)");
  expect_refused([&] { shift_loop(p, "i", "0"); }, "shift_loop", "writes C.k");
}

TEST(TrustEvalOnce, ShiftLoopAcceptsALowerBoundNobodyWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.k = 2
    for i in seq(C.k, 8):
        A[i] = 1.0
)");
  Proc q = shift_loop(p, "i", "0");
  expect_equivalent(p, q);
}

TEST(TrustEvalOnce, CutLoopRefusesAnUpperBoundTheFirstHalfWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 12
        A[i] = 1.0
)");
  expect_refused([&] { cut_loop(p, "i", "0"); }, "cut_loop", "writes C.n");
}

TEST(TrustEvalOnce, JoinLoopsRefusesSecondBoundsTheFirstLoopWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, 4):
        C.n = 6
        A[i] = 1.0
    for i in seq(4, C.n):
        C.n = 6
        A[i] = 1.0
)");
  expect_refused([&] { join_loops(p, "i #0", "i #1"); }, "join_loops", "writes C.n");
}

TEST(TrustEvalOnce, BoundAndGuardRefusesABoundTheBodyWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 2
        A[i] = 1.0
)");
  expect_refused([&] { bound_and_guard(p, "i", "16"); }, "bound_and_guard", "writes C.n");
}

// --- fission, fuse, lift_scope, reorder_loops ----------------------------------------------

TEST(TrustEvalOnce, FissionRefusesBoundsTheFirstHalfWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, C.n):
        C.n = 4
        A[i] = 1.0
        B[i] = 2.0
)");
  expect_refused([&] { fission(p, p.find("A[_] = _").after()); }, "fission", "writes C.n");
}

TEST(TrustEvalOnce, FissionRefusesAConditionTheFirstHalfWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    if C.n > 4:
        C.n = 2
        B[0] = 2.0
)");
  expect_refused([&] { fission(p, p.find("C.n = _ #1").after()); }, "fission", "writes C.n");
}

TEST(TrustEvalOnce, FissionAcceptsAConditionOnlyTheSecondHalfWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    if C.n > 4:
        A[0] = 1.0
        C.n = 2
)");
  Proc q = fission(p, p.find("A[_] = _").after());
  expect_equivalent(p, q);
}

TEST(TrustEvalOnce, FuseRefusesSecondBoundsTheFirstLoopWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, 8):
        C.n = 4
        A[i] = 1.0
    for j in seq(0, C.n):
        B[j] = 2.0
)");
  expect_refused([&] { fuse(p, "for i in _: _", "for j in _: _"); }, "fuse", "writes C.n");
}

TEST(TrustEvalOnce, ReorderLoopsRefusesABoundTheNestWrites) {
  Proc p = P(R"(
def f(A: f32[16, 16] @ DRAM):
    C.n = 8
    for i in seq(0, 4):
        for j in seq(0, C.n):
            C.n = 4
            A[i, j] = 1.0
)");
  expect_refused([&] { reorder_loops(p, "i j"); }, "reorder_loops", "writes C.n");
}

TEST(TrustEvalOnce, LiftScopeRefusesAConditionTheLoopWrites) {
  Proc p = P(R"(
def f(A: f32[16] @ DRAM):
    C.n = 8
    for i in seq(0, 8):
        if C.n > 4:
            C.n = 2
            A[i] = 1.0
)");
  expect_refused([&] { lift_scope(p, "if _: _"); }, "lift_scope", "writes C.n");
}

// --- inline_window, inline_proc, reorder_stmts, stage_mem -----------------------------------

TEST(TrustEvalOnce, InlineWindowRefusesBoundsWrittenBeforeAUse) {  // redteam 07
  Proc p = P(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    w = A[C.k:C.k + 2]
    C.k = 4
    w[0] = 1.0
)");
  expect_refused([&] { inline_window(p, p.find("w = _")); }, "inline_window", "writes C.k");
}

TEST(TrustEvalOnce, InlineWindowAcceptsBoundsNobodyWrites) {
  Proc p = P(R"(
def f(A: f32[8] @ DRAM):
    C.k = 3
    w = A[C.k:C.k + 2]
    w[1] = 1.0
)");
  Proc q = inline_window(p, p.find("w = _"));
  expect_equivalent(p, q);
}

TEST(TrustEvalOnce, InlineProcRefusesAnArgumentTheCalleeChanges) {  // redteam 08
  Proc p = P(R"(
def g(n: index, A: f32[8] @ DRAM):
    assert 0 <= n and n < 4
    C.k = 5
    A[n] = 1.0

def f(A: f32[8] @ DRAM):
    C.k = 1
    g(C.k, A)
)");
  expect_refused([&] { inline_proc(p, "g(_)"); }, "inline_proc", "writes C.k");
}

TEST(TrustEvalOnce, InlineProcRefusesAWindowArgumentTheCalleeChanges) {
  Proc p = P(R"(
def g(a: [f32][2] @ DRAM):
    C.k = 5
    a[1] = 1.0

def f(A: f32[8] @ DRAM):
    C.k = 1
    g(A[C.k:C.k + 2])
)");
  expect_refused([&] { inline_proc(p, "g(_)"); }, "inline_proc", "writes C.k");
}

TEST(TrustEvalOnce, InlineProcAcceptsArgumentsTheCalleeLeavesAlone) {
  Proc p = P(R"(
def g(n: index, A: f32[8] @ DRAM):
    assert 0 <= n and n < 4
    C.n = 5
    A[n] = 1.0

def f(A: f32[8] @ DRAM):
    C.k = 1
    g(C.k, A)
)");
  Proc q = inline_proc(p, "g(_)");
  expect_equivalent(p, q);
}

TEST(TrustEvalOnce, ReorderStmtsSeesTheReadsOfAWindowStatement) {
  Proc p = P(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    w = A[C.k:C.k + 2]
    C.k = 4
    w[0] = 1.0
)");
  expect_refused([&] { reorder_stmts(p, "w = _ ; C.k = _"); }, "reorder_stmts", "");
}

TEST(TrustEvalOnce, ReorderStmtsNeverDecidesAViewWithALaterConfigValue) {
  // w[0] is A[0] (C.k was 0 at the window statement), not A[4]: swapping the two writes is
  // wrong, and the checker must not read w's bounds with C.k's later value.
  Proc p = P(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    w = A[C.k:C.k + 2]
    C.k = 4
    A[0] = 2.0
    w[0] = 1.0
)");
  expect_refused([&] { reorder_stmts(p, "A[_] = _ ; w[_] = _"); }, "reorder_stmts", "");
}

TEST(TrustEvalOnce, StageMemRefusesAWindowTheBlockChanges) {
  Proc p = P(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    for i in seq(0, 2):
        C.k = 4
        A[i] = 1.0
)");
  expect_refused([&] { stage_mem(p, "for i in _: _", "A[C.k:C.k + 2]", "At"); }, "stage_mem",
                 "C.k");
}

}  // namespace
