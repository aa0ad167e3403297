// The expression simplifier: each rule on a small expression, checked through the printer.
#include "core/simplify.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

using namespace exocpp;

namespace {

// Parses `text` with index variables i, j, io, ii and sizes N, M in scope, simplifies, prints.
std::string simp(const std::string& text) {
  std::vector<ScopeVar> scope;
  for (const char* n : {"i", "j", "io", "ii"}) scope.push_back({Sym(n), Type(ScalarKind::Index)});
  for (const char* n : {"N", "M"}) scope.push_back({Sym(n), Type(ScalarKind::Size)});
  return to_string(simplify_expr(parse_expr(text, scope)));
}

void check(const std::string& in, const std::string& expected) {
  EXPECT_EQ(simp(in), expected) << "input: " << in;
}

TEST(Simplify, FoldsConstants) { check("2 + 3 * 4", "14"); }
TEST(Simplify, CollectsLikeTerms) { check("2 * i + 3 * i", "5 * i"); }
TEST(Simplify, CancelsTerms) { check("i + j - i", "j"); }
TEST(Simplify, DropsZeroOffsets) { check("(i + 1) - 1", "i"); }
// X - k * (X / k) is X % k for every X with floor division and modulo.
TEST(Simplify, RemainderOfADivisionBecomesAModulo) { check("N - 4 * (N / 4) + 7", "N % 4 + 7"); }
TEST(Simplify, RemainderOfASumBecomesAModulo) {
  check("N + 3 - 4 * ((N + 3) / 4) + M", "M + (N + 3) % 4");
}
TEST(Simplify, KeepsADivisionWhoseDividendIsNotAllThere) {
  check("N - 4 * ((N + M) / 4)", "N - 4 * ((N + M) / 4)");
}
TEST(Simplify, KeepsTermOrderOfFirstAppearance) { check("4 * io + ii + 0", "4 * io + ii"); }
TEST(Simplify, SubtractsNegativeTerms) { check("N - 2 * i - 1", "N - 2 * i - 1"); }
TEST(Simplify, DistributesConstants) { check("4 * (io + 1)", "4 * io + 4"); }
TEST(Simplify, ExactDivision) { check("(4 * io + 8) / 4", "io + 2"); }
TEST(Simplify, ExactModulo) { check("(4 * io + 6) % 4", "2"); }
TEST(Simplify, FloorDivisionOfNegativeConstant) { check("-7 / 2", "-4"); }
TEST(Simplify, FloorModuloOfNegativeConstant) { check("-7 % 2", "1"); }
TEST(Simplify, InexactDivisionStaysAnAtom) {
  check("(i + 1) / 4 + (i + 1) / 4", "2 * ((i + 1) / 4)");
}
TEST(Simplify, ProductsOfVariables) { check("N * M - M * N + i", "i"); }
TEST(Simplify, FoldsConstantComparisons) { check("i + 1 > i", "True"); }
TEST(Simplify, KeepsUndecidedComparisons) { check("i < N", "i < N"); }
TEST(Simplify, FoldsAndWithTrue) { check("i + 1 > i and j < N", "j < N"); }
TEST(Simplify, FoldsOrWithTrue) { check("j < N or 0 == 0", "True"); }

TEST(Simplify, SimplifiesIndicesInsideDataExpressions) {
  Proc p = parse_module(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i + 1 - 1] = A[2 * i - i] * 2.0
)")
               .proc("f");
  Block b = simplify_block(p.body());
  EXPECT_EQ(to_string(b), "for i in seq(0, N):\n    A[i] = A[i] * 2.0\n");
}

}  // namespace

// Division and modulo folded with the ranges of enclosing constant-bound loops.
namespace {
std::string simp_proc(const std::string& src) {
  Module m = parse_module(src);
  Proc p = m.procs.back();
  Block b = simplify_block(p.body());
  return to_string(Proc(
      std::make_shared<ProcNode>(ProcNode{p->name, p->args, p->preds, b, p->instr, p->srcinfo})));
}
}  // namespace

TEST(SimplifyRanges, FoldsDivisionByTheLoopRange) {
  std::string out = simp_proc(R"(def f(A: f32[4, 16] @ DRAM, B: f32[64] @ DRAM):
    for io in seq(0, 4):
        for ii in seq(0, 16):
            A[(16 * io + ii) / 16, (16 * io + ii) % 16] = B[16 * io + ii]
)");
  EXPECT_NE(out.find("A[io, ii] = B[16 * io + ii]"), std::string::npos) << out;
}

TEST(SimplifyRanges, KeepsDivisionWhenTheRangeCrossesAMultiple) {
  std::string out = simp_proc(R"(def f(A: f32[8] @ DRAM, B: f32[64] @ DRAM):
    for io in seq(0, 4):
        for ii in seq(0, 17):
            A[(16 * io + ii) / 16] = B[io]
)");
  EXPECT_NE(out.find("A[(16 * io + ii) / 16]"), std::string::npos) << out;
}

TEST(SimplifyRanges, FoldsAnOffsetRemainder) {
  // ii + 3 lies in [3, 10], inside [0, 16): (16*io + ii + 3) / 16 is io, whatever io's range.
  std::string out = simp_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for io in seq(0, N):
        for ii in seq(0, 8):
            A[(16 * io + ii + 3) / 16] = 0.0
)");
  EXPECT_NE(out.find("A[io] = 0.0"), std::string::npos) << out;
}

TEST(SimplifyRanges, UsesNoRangeForLoopsWithSymbolicBounds) {
  std::string out = simp_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i / 16] = 0.0
)");
  EXPECT_NE(out.find("A[i / 16]"), std::string::npos) << out;
}
