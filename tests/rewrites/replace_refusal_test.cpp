// replace: every way unification or the call-site checks refuse, each with its message (and
// the unchanged proc never observed: replace throws before building anything).
#include "replace_test.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// replace(`block` of the proc `src`, `sub`) is refused with a message containing `needle`.
void expect_replace_refused(const std::string& src, const std::string& block, const Proc& sub,
                            const std::string& needle) {
  Proc p = parse_proc(src);
  expect_refused([&] { replace(p, block, sub); }, "replace", needle);
}

Proc copy16(const std::string& body_line, const std::string& extra_args = "") {
  return parse_proc("def k(x: f32[16] @ DRAM, y: f32[16] @ DRAM" + extra_args +
                    "):\n    for i in seq(0, 16):\n        " + body_line + "\n");
}

TEST(ReplaceRefusal, StatementKindDiffers) {
  Proc p = copy16("x[i] += y[i]");
  expect_refused([&] { replace(p, "for i in _: _", instr("vld")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify",
                 "the reduction `x[i] += y[i]` does not match `dst[i] = src[i]` of 'vld': expected "
                 "an assignment");
}

// -0.0 and 0.0 are different constants: a block storing one is not the instruction storing the
// other.
TEST(ReplaceRefusal, NegativeZeroDoesNotMatchZero) {
  Module lib = parse_module(R"(@instr("zero({x_data});")
def zero(x: [f32][16] @ DRAM):
    for i in seq(0, 16):
        x[i] = 0.0
)");
  expect_replace_refused(R"(def k(x: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] = -0.0
)",
                         "for i in _: _", lib.proc("zero"), "the constants differ");
}

TEST(ReplaceRefusal, TripCountDiffers) {
  expect_replace_refused(
      R"(def k(x: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for i in seq(0, 8):
        x[i] = y[i]
)",
      "for i in _: _", instr("vld"),
      "the trip count 8 of `for i in seq(0, 8):` cannot equal the trip count 16");
}

TEST(ReplaceRefusal, StridedIndexFitsNoWindow) {
  expect_replace_refused(R"(def k(x: f32[16] @ DRAM, y: f32[32] @ DRAM):
    for i in seq(0, 16):
        x[i] = y[2 * i]
)",
                         "for i in _: _", instr("vld"),
                         "`y[2 * i]` cannot equal `src[i]` for any window of 'y'");
}

TEST(ReplaceRefusal, ShiftedIndexInAnotherDimensionFitsNoWindow) {
  expect_replace_refused(
      R"(def k(A: f32[17, 17] @ DRAM, x: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] = A[i, i + 1]
)",
      "for i in _: _", instr("vld"),
      "'A' varies in more dimensions across the block than the argument 'src' of 'vld' has (1)");
}

TEST(ReplaceRefusal, WrittenBufferPassedForTwoArguments) {
  Proc p = copy16("x[i] += x[i] * y[i]");
  expect_refused([&] { replace(p, "for i in _: _", instr("vfma")); }, "replace",
                 ErrorCode::NotProved, "buffer.aliased",
                 "'x' would be passed for both 'dst' and 'a' of 'vfma', and 'dst' is written");
}

TEST(ReplaceRefusal, OverlappingWindowsOfAWrittenBufferAreRefused) {
  // x[0:16] and x[8:24] share eight elements: the call's dst would alias its a.
  Proc p = parse_proc(R"(def k(x: f32[32] @ DRAM, y: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] += x[i + 8] * y[i]
)");
  expect_refused([&] { replace(p, "for i in _: _", instr("vfma")); }, "replace",
                 ErrorCode::NotProved, "buffer.aliased",
                 "'x' would be passed for both 'dst' and 'a' of 'vfma'");
}

TEST(ReplaceRefusal, OneArgumentWouldBeTwoBuffers) {
  Proc sq = parse_module(R"(def sq(dst: [f32][16] @ DRAM, a: [f32][16] @ DRAM):
    for i in seq(0, 16):
        dst[i] += a[i] * a[i]
)")
                .procs[0];
  Proc p2 = copy16("x[i] += y[i] * z[i]", ", z: f32[16] @ DRAM");
  expect_refused([&] { replace(p2, "for i in _: _", sq); }, "replace", ErrorCode::NotProved,
                 "replace.no_unify",
                 "the argument 'a' of 'sq' would have to be both 'y' (`y[i]`) and 'z' (`z[i]`)");
}

TEST(ReplaceRefusal, PrecisionDiffers) {
  expect_replace_refused(
      R"(def k(x: f64[16] @ DRAM, y: f64[16] @ DRAM):
    for i in seq(0, 16):
        x[i] = y[i]
)",
      "for i in _: _", instr("vld"),
      "'x' holds f64 but the argument 'dst' of 'vld' is f32: precisions must agree");
}

TEST(ReplaceRefusal, MemoryDiffers) {
  Proc p = copy16("x[i] = y[i]");
  expect_refused([&] { replace(p, "for i in _: _", instr("vld_vec")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify",
                 "'x' lives in DRAM but the argument 'dst' of 'vld_vec' is declared @ VEC");
}

TEST(ReplaceRefusal, StrideAssertFailsForAColumn) {
  expect_replace_refused(
      R"(def k(A: f32[16, 16] @ DRAM, x: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] = A[i, 3]
)",
      "for i in _: _", instr("vld"),
      "the assert `stride(src, 0) == 1` of 'vld' holds at the call (as `stride(A, 0) == 1`)");
}

TEST(ReplaceRefusal, SizeAssertFailsWithACounterexample) {
  Proc p = parse_proc(R"(def k(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    assert N >= 9
    for i in seq(0, N - 8):
        B[i] = A[i]
)");
  try {
    replace(p, "for i in _: _", instr("vcopy_n"));
    ADD_FAILURE() << "expected a refusal";
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find("the assert `n <= 16` of 'vcopy_n' holds at the call"),
              std::string::npos)
        << e.what();
    EXPECT_NE(e.counterexample().find("N"), std::string::npos) << e.what();
  }
}

TEST(ReplaceRefusal, SizeArgumentMayBeZero) {
  expect_replace_refused(R"(def k(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    assert N <= 20
    for i in seq(0, N - 4):
        B[i] = A[i]
)",
                         "for i in _: _", instr("vcopy_n"),
                         "the size argument 'n' = `N - 4` is positive");
}

TEST(ReplaceRefusal, MaskedLoadOverAWholeRowFailsItsLaneAssert) {
  expect_replace_refused(
      R"(def k(M: size, A: f32[M] @ DRAM, x: f32[8, 16] @ DRAM):
    assert M <= 128
    for jo in seq(0, (M + 15) / 16):
        for ii in seq(0, 16):
            if 16 * jo + ii < M:
                x[jo, ii] = A[16 * jo + ii]
            else:
                x[jo, ii] = 0.0
)",
      "for ii in _: _", instr("vmaskz"),
      "the assert `N <= 16` of 'vmaskz' holds at the call (as `-16 * jo + M <= 16`)");
}

TEST(ReplaceRefusal, WindowReachesOutsideTheBuffer) {
  Proc half = parse_module(R"(def half(dst: [f32][16] @ DRAM, src: [f32][16] @ DRAM):
    for i in seq(0, 8):
        dst[i] = src[i]
)")
                  .procs[0];
  Proc p = parse_proc(R"(def k(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    for i in seq(0, 8):
        x[i] = y[i]
)");
  expect_refused([&] { replace(p, "for i in _: _", half); }, "replace", ErrorCode::NotProved,
                 "checker.refuted", "the window `x[0:16]` passed for 'dst' lies inside 'x'");
}

TEST(ReplaceRefusal, ScalarArgumentVariesAcrossTheLoop) {
  expect_replace_refused(
      R"(def k(x: f32[16] @ DRAM, a: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] += a[i] * y[i]
)",
      "for i in _: _", instr("vfma_scalar"),
      "the argument 'a' of 'vfma_scalar' is a scalar, but `a[i]` names a different element");
}

TEST(ReplaceRefusal, OperatorDiffers) {
  Proc p = copy16("x[i] += y[i] + y[i]");
  expect_refused([&] { replace(p, "for i in _: _", instr("vfma")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify",
                 "the expression `y[i] + y[i]` does not match `a[i] * b[i]` of 'vfma': the "
                 "operators differ (+ vs *)");
}

TEST(ReplaceRefusal, ConstantDiffers) {
  Proc p = copy16("x[i] = 1.0");
  expect_refused([&] { replace(p, "for i in _: _", instr("vzero")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify",
                 "the expression `1.0` does not match `0.0` of 'vzero': the constants differ");
}

TEST(ReplaceRefusal, LoopWhereAnAssignmentIsExpected) {
  expect_replace_refused(
      R"(def k(x: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for r in seq(0, 2):
        for i in seq(0, 16):
            x[i] = y[i]
)",
      "for r in _: _", instr("vld"),
      "the loop `for i in seq(0, 16):` does not match `dst[i] = src[i]` of 'vld'");
}

TEST(ReplaceRefusal, BlockHasMoreStatements) {
  Proc p = parse_proc(R"(def k(x: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for i in seq(0, 16):
        x[i] = y[i]
    for i in seq(0, 16):
        y[i] = x[i]
)");
  expect_refused([&] { replace(p, p.body_cursor(), instr("vld")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify",
                 "the block has 2 statements but the matching part of 'vld' has 1 statement");
}

TEST(ReplaceRefusal, ArgumentTheBodyNeverFixes) {
  Proc odd = parse_module(R"(def odd(n: size, dst: [f32][16] @ DRAM):
    for i in seq(0, 16):
        dst[i] = 0.0
)")
                 .procs[0];
  Proc p = copy16("x[i] = 0.0");
  expect_refused([&] { replace(p, "for i in _: _", odd); }, "replace", ErrorCode::NotProved,
                 "replace.no_unify", "cannot determine the argument 'n' of 'odd' from the block");
}

TEST(ReplaceRefusal, LocalAllocationUsedAfterTheBlock) {
  Proc withtmp = parse_module(R"(def withtmp(dst: [f32][16] @ DRAM):
    t: f32 @ DRAM
    t = 0.0
    for i in seq(0, 16):
        dst[i] = t
)")
                     .procs[0];
  Proc p = parse_proc(R"(def k(x: f32[16] @ DRAM):
    s: f32 @ DRAM
    s = 0.0
    for i in seq(0, 16):
        x[i] = s
    x[0] = s
)");
  expect_refused([&] { replace(p, p.body_cursor().slice(0, 3), withtmp); }, "replace",
                 ErrorCode::NotProved, "scope.escapes",
                 "'s' is allocated in the block and used after it");
}

TEST(ReplaceRefusal, QuietGivesAOneLineReason) {
  Proc p = copy16("x[i] += y[i]");
  try {
    replace(p, "for i in _: _", instr("vld"), {.quiet = true});
    ADD_FAILURE() << "expected a refusal";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.reason(), "the block does not unify with the body of 'vld'");
  }
}

TEST(ReplaceRefusal, MismatchIsReportedAtTheBlockStatement) {
  Proc p = copy16("x[i] += y[i]");
  try {
    replace(p, "for i in _: _", instr("vld"));
    ADD_FAILURE() << "expected a refusal";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.loc().line, 3) << e.what();  // the reduction's line
  }
}

}  // namespace

namespace {

TEST(ReplaceRefusal, TransposedNestFitsNoWindow) {
  expect_replace_refused(R"(def k(x: f32[16] @ DRAM, y: f32[16] @ DRAM):
    for ii in seq(0, 4):
        for io in seq(0, 4):
            x[4 * io + ii] = y[4 * io + ii]
)",
                         "for ii in _: _", instr("vld"),
                         "`x[4 * io + ii]` cannot equal `dst[i]` for any window of 'x'");
}

}  // namespace

namespace {

TEST(ReplaceRefusal, StrideOfAnUnassertedWindowArgumentIsNotProved) {
  expect_replace_refused(
      R"(def k(x: f32[16] @ DRAM, y: [f32][16] @ DRAM):
    for i in seq(0, 16):
        x[i] = y[i]
)",
      "for i in _: _", instr("vld"),
      "the assert `stride(src, 0) == 1` of 'vld' holds at the call (as `stride(y, 0) == 1`)");
}

TEST(ReplaceRefusal, TensorParameterRefusesAColumn) {
  Module m = parse_module(R"(def copy4(dst: f32[4] @ DRAM, src: f32[4] @ DRAM):
    for i in seq(0, 4):
        dst[i] = src[i]

def cols(A: f32[4, 4] @ DRAM, B: f32[4, 4] @ DRAM):
    for r in seq(0, 4):
        B[r, 1] = A[r, 2]
)");
  Proc p = m.proc("cols");
  expect_refused([&] { replace(p, "for r in _: _", m.proc("copy4")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify",
                 "is a tensor, which takes a dense buffer, but the block uses `B[0:4, 1]`, which "
                 "may be strided");
}

// An equality never unifies with an ordering (a `<=` does with a `<`: a <= b is a < b + 1).
TEST(ReplaceRefusal, ComparisonsDiffer) {
  expect_replace_refused(R"(def k(N: size, A: f32[16] @ DRAM, B: f32[16] @ DRAM):
    for i in seq(0, 16):
        if i == N:
            B[i] = A[i]
)",
                         "for i in _: _", instr("vmasked"), "the comparisons differ (== vs <)");
}

}  // namespace

namespace {

// Every statement of block `b` and of the blocks inside it, and every pair of neighbours.
void all_blocks(const Cursor& b, std::vector<Cursor>& out) {
  for (int i = 0; i < b.size(); ++i) {
    out.push_back(b[i]);
    if (i + 1 < b.size()) out.push_back(b.slice(i, i + 2));
    Stmt s = b[i].stmt();
    if (s.is<ForNode>() || s.is<IfNode>()) all_blocks(b[i].body(), out);
    if (const IfNode* n = s.as<IfNode>(); n && !n->orelse.empty()) all_blocks(b[i].orelse(), out);
  }
}

// Every statement of a few kernels, tried against every instruction of the library: each try
// either gives an equivalent proc or a SchedulingError from replace (never another error).
TEST(ReplaceRefusal, EveryStatementAgainstEveryInstructionAcceptsOrRefusesCleanly) {
  const std::pair<const char*, std::map<std::string, int64_t>> kernels[] = {
      {
          R"(def a(M: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, 16] @ DRAM, C: f32[M, 16] @ DRAM):
    for i in seq(0, M):
        for k in seq(0, K):
            for j in seq(0, 16):
                C[i, j] += A[i, k] * B[k, j]
        for j in seq(0, 16):
            C[i, j] = 0.0
)",
          {{"M", 2}, {"K", 3}}},
      {
          R"(def b(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM, s: f32 @ DRAM):
    assert N >= 20
    for i in seq(0, 16):
        if i < N - 4:
            x[i] = y[i + 1]
    for i in seq(4, N):
        x[i] += s * y[i]
    for i in seq(0, 4):
        for j in seq(0, 4):
            x[4 * j + i] = y[4 * i + j]
)",
          {{"N", 21}}}};
  int accepted = 0, refused = 0;
  for (const auto& [src, sizes] : kernels) {
    Proc p = parse_proc(src);
    std::vector<Cursor> blocks;
    all_blocks(p.body_cursor(), blocks);
    for (const Proc& sub : replace_lib().procs)
      for (const Cursor& c : blocks) {
        try {
          Proc q = replace(p, c, sub);
          ++accepted;
          expect_equivalent(p, q, sizes);
        } catch (const SchedulingError& e) {
          ++refused;
          EXPECT_EQ(e.op(), "replace") << e.what();
          EXPECT_TRUE(e.loc().known()) << e.what();
        }
      }
  }
  EXPECT_GT(accepted, 2);
  EXPECT_GT(refused, 20);
}

}  // namespace

namespace {

TEST(ReplaceRefusal, WrittenArgumentAliasesAnotherThroughAWindow) {
  expect_replace_refused(
      R"(def k(x: f32[32] @ DRAM):
    w = x[16:32]
    for i in seq(0, 16):
        w[i] = x[i]
)",
      "for i in _: _", instr("vld"),
      "'w' and 'x' (views of one buffer) would be passed for both 'dst' and 'src' of 'vld'");
}

TEST(ReplaceRefusal, ArgumentAllocatedInsideTheBlock) {
  Proc p = parse_proc(R"(def k(x: f32[16] @ DRAM):
    for r in seq(0, 2):
        t: f32[16] @ DRAM
        for i in seq(0, 16):
            t[i] = 0.0
        for i in seq(0, 16):
            x[i] = t[i]
)");
  // The callee clears its own `u` but copies from its argument `src`: the caller's `t` plays both.
  Module m = parse_module(R"(def two(dst: [f32][16] @ DRAM, src: [f32][16] @ DRAM):
    u: f32[16] @ DRAM
    for i in seq(0, 16):
        u[i] = 0.0
    for i in seq(0, 16):
        dst[i] = src[i]
)");
  expect_refused([&] { replace(p, p.find_loop("r").body(), m.proc("two")); }, "replace",
                 ErrorCode::NotProved, "replace.no_unify",
                 "'t' would be passed for 'src' of 'two', but it is allocated inside the block");
}

}  // namespace
