// extract_subproc: a block -> a call of a new proc holding it.
#include "rewrite_test_util.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, M: size, A: f32[N, 4] @ DRAM, B: f32[N, M] @ DRAM):
    assert N >= 2
    assert M >= 1
    for i in seq(0, N):
        A[i, 0] = 0.0
        A[i, 1] = B[i, 0]
        A[i, 2] = 2.0
)";

std::string both(const Extracted& e) { return to_string(e.subproc) + "\n" + to_string(e.proc); }

TEST(ExtractSubproc, BlockInALoopBecomesACall) {
  Proc p = parse_proc(kSrc);
  Extracted e = extract_subproc(p, p.find_loop("i").body().slice(0, 2), "g");
  expect_golden("ExtractSubproc_BlockInALoopBecomesACall", both(e));
  expect_equivalent(p, e.proc, {{"N", 3}, {"M", 2}});
}

TEST(ExtractSubproc, InliningTheCallGivesBackTheOriginal) {
  Proc p = parse_proc(kSrc);
  Extracted e = extract_subproc(p, p.find_loop("i").body().slice(0, 2), "g");
  Proc back = inline_proc(e.proc, "g(_)");
  EXPECT_EQ(to_string(back), to_string(p));
  expect_equivalent(p, back, {{"N", 3}, {"M", 2}});
}

TEST(ExtractSubproc, WithoutAssertsTheSubprocHasNone) {
  Proc p = parse_proc(kSrc);
  Extracted e =
      extract_subproc(p, p.find_loop("i").body().slice(1, 2), "g", {.include_asserts = false});
  EXPECT_TRUE(e.subproc.preds().empty());
  expect_golden("ExtractSubproc_WithoutAssertsTheSubprocHasNone", both(e));
  expect_equivalent(p, e.proc, {{"N", 3}, {"M", 2}});
}

TEST(ExtractSubproc, PassesAllocationsAndWindowsWithTheirMemories) {
  Proc p = parse_proc(R"(def f(A: f32[8, 8] @ DRAM, B: f32[8, 8] @ DRAM):
    t: f32[4] @ DRAM_STATIC
    for j in seq(0, 2):
        w = B[j, 2:6]
        for k in seq(0, 4):
            t[k] = w[k]
        for k in seq(0, 4):
            A[j + 2, k] = t[k]
)");
  Cursor blk = p.find_loop("j").body().slice(1, 3);
  Extracted e = extract_subproc(p, blk, "copy");
  expect_golden("ExtractSubproc_PassesAllocationsAndWindowsWithTheirMemories", both(e));
  expect_equivalent(p, e.proc);
  expect_equivalent(p, inline_proc(e.proc, "copy(_)"));
}

TEST(ExtractSubproc, IfConditionsBecomeAsserts) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < 3:
            A[i] = 1.0
        else:
            A[i] = 2.0
)");
  Extracted then_part = extract_subproc(p, p.find("A[_] = 1.0"), "low");
  Extracted else_part = extract_subproc(p, p.find("A[_] = 2.0"), "high");
  expect_golden("ExtractSubproc_IfConditionsBecomeAsserts",
                both(then_part) + "\n" + both(else_part));
  expect_equivalent(p, then_part.proc, {{"N", 5}});
  expect_equivalent(p, else_part.proc, {{"N", 5}});
}

TEST(ExtractSubproc, ABufferBringsTheSizesOfItsShape) {
  Proc p = parse_proc(kSrc);
  Extracted e = extract_subproc(p, p.find("A[_] = B[_]"), "g");
  std::vector<std::string> names;
  for (const FnArg& a : e.subproc.args()) names.push_back(a.name.name());
  EXPECT_EQ(names, (std::vector<std::string>{"N", "M", "A", "B", "i"}));
}

TEST(ExtractSubproc, TheCallerStaysEquivalentTheSubprocIsNew) {
  Proc p = parse_proc(kSrc);
  Extracted e = extract_subproc(p, p.find_loop("i"), "g");
  EXPECT_TRUE(procs_equivalent(p, e.proc));
  EXPECT_FALSE(procs_equivalent(p, e.subproc));
}

TEST(ExtractSubproc, ForwardsTheBlockToTheCall) {
  Proc p = parse_proc(kSrc);
  Cursor blk = p.find_loop("i").body().slice(0, 2);
  Cursor inside = blk[1];
  Cursor after = p.find("A[_] = 2.0");
  Extracted e = extract_subproc(p, blk, "g");
  EXPECT_EQ(e.proc.forward(blk).to_string(), "g(N, M, A, B, i)");
  EXPECT_EQ(e.proc.forward(after).to_string(), "A[i, 2] = 2.0");
  EXPECT_FALSE(e.proc.forward(inside).is_valid());
}

TEST(ExtractSubproc, RefusesABlockDefiningANameUsedAfterIt) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32 @ DRAM
    t = 1.0
    A[0] = t
)");
  expect_refused([&] { extract_subproc(p, p.body_cursor().slice(0, 2), "g"); }, "extract_subproc",
                 "the block defines 't', which is used after it");
}

TEST(ExtractSubproc, RefusesArgumentsThatAliasAWrittenBuffer) {
  Proc p = parse_proc(R"(def f(A: f32[8, 8] @ DRAM):
    for j in seq(0, 2):
        w = A[j, 2:6]
        A[j + 2, 0] = w[0]
)");
  expect_refused([&] { extract_subproc(p, p.find("A[_] = _"), "g"); }, "extract_subproc",
                 "would pass 'A' and 'w', which view the same buffer 'A'");
}

TEST(ExtractSubproc, AcceptsAWindowAndItsBufferWhenBothAreOnlyRead) {
  Proc p = parse_proc(R"(def f(A: f32[8, 8] @ DRAM, C: f32[8] @ DRAM):
    for j in seq(0, 2):
        w = A[j, 2:6]
        C[j] = w[0] + A[j, 0]
)");
  Extracted e = extract_subproc(p, p.find("C[_] = _"), "g");
  EXPECT_EQ(to_string(e.proc.find("g(_)").stmt()), "g(A, C, j, w)\n");
  expect_equivalent(p, e.proc);
}

TEST(ExtractSubproc, RefusesAGap) {
  Proc p = parse_proc(kSrc);
  EXPECT_THROW(extract_subproc(p, p.find_loop("i").before(), "g"), SchedulingError);
}

TEST(ExtractSubproc, RefusesAnInvalidName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { extract_subproc(p, p.find_loop("i"), "2g"); }, "extract_subproc",
                 "'2g' is not a valid proc name");
}

}  // namespace
