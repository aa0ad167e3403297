// extract_subproc: a block -> a call of a new proc holding it.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/fixtures.h"
#include "rewrites/subprocs.h"
#include "support/csr_fixture.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

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
  expect_golden(both(e));
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
  expect_golden(both(e));
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
  expect_golden(both(e));
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
  expect_golden(both(then_part) + "\n" + both(else_part));
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
                 ErrorCode::NotProved, "scope.escapes",
                 "the block defines 't', which is used after it");
}

TEST(ExtractSubproc, RefusesArgumentsThatAliasAWrittenBuffer) {
  Proc p = parse_proc(R"(def f(A: f32[8, 8] @ DRAM):
    for j in seq(0, 2):
        w = A[j, 2:6]
        A[j + 2, 0] = w[0]
)");
  expect_refused([&] { extract_subproc(p, p.find("A[_] = _"), "g"); }, "extract_subproc",
                 ErrorCode::NotProved, "buffer.aliased",
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
                 ErrorCode::BadArgument, "arg.name", "'2g' is not a valid proc name");
}

}  // namespace

namespace {

const char* kExtractHeader = "def foo(N: size, M: size, K: size, x: R[N, K + M]):\n";

// Exo tests/test_schedules.py::test_extract_subproc: with and without asserts.
TEST(ExtractSubproc, ExtractSubproc) {
  Proc foo = parse_proc(R"(def foo():
    x: R @ DRAM
    y: R[8] @ DRAM
    for j in seq(0, 8):
        x = 0.0
        for i in seq(0, 8):
            x += y[j] * 2.0
)");
  Extracted no_asserts =
      extract_subproc(foo, "for i in _: _", "fooooo", {.include_asserts = false});
  EXPECT_EQ(to_string(no_asserts.subproc), R"(def fooooo(x: R @ DRAM, y: R[8] @ DRAM, j: index):
    for i in seq(0, 8):
        x += y[j] * 2.0
)");
  Extracted e = extract_subproc(foo, "for i in _: _", "fooooo");
  EXPECT_EQ(to_string(e.proc), R"(def foo():
    x: R @ DRAM
    y: R[8] @ DRAM
    for j in seq(0, 8):
        x = 0.0
        fooooo(x, y, j)
)");
  EXPECT_EQ(to_string(e.subproc), R"(def fooooo(x: R @ DRAM, y: R[8] @ DRAM, j: index):
    assert 0 <= j
    assert j < 8
    for i in seq(0, 8):
        x += y[j] * 2.0
)");
  expect_equivalent(foo, e.proc);
  expect_equivalent(foo, no_asserts.proc);
}

// Exo tests/test_schedules.py::test_extract_subproc2: the sizes x's shape mentions are passed too.
TEST(ExtractSubproc, ExtractSubproc2) {
  Proc foo = parse_proc(std::string(kExtractHeader) + R"(    assert N >= 8
    for i in seq(0, 8):
        x[i, 0] += 2.0
)");
  Extracted e = extract_subproc(foo, "for i in _: _", "fooooo");
  EXPECT_EQ(to_string(e.proc), R"(def foo(N: size, M: size, K: size, x: R[N, K + M] @ DRAM):
    assert N >= 8
    fooooo(N, M, K, x)
)");
  EXPECT_EQ(to_string(e.subproc), R"(def fooooo(N: size, M: size, K: size, x: R[N, K + M] @ DRAM):
    assert N >= 8
    for i in seq(0, 8):
        x[i, 0] += 2.0
)");
  expect_equivalent(foo, e.proc, {{"N", 9}, {"M", 1}, {"K", 2}});
}

// Exo tests/test_schedules.py::test_extract_subproc3: the enclosing if's condition (or its negation
// in the else branch) becomes an assert. Exo prints it as `(cond) == True` / `(cond) == False`;
// ours asserts the condition itself and, in the else branch, its negation pushed through `and`.
TEST(ExtractSubproc, ExtractSubproc3) {
  Proc foo = parse_proc(std::string(kExtractHeader) + R"(    assert N >= 8
    assert M >= 2
    if N < 10 and M < 4:
        for i in seq(0, 8):
            x[i, 0] += 2.0
    else:
        for i in seq(0, 8):
            x[i, 0] += 1.0
)");
  auto [q1, foo_if] = extract_subproc(foo, "for i in _: _", "foo_if");
  auto [q2, foo_else] = extract_subproc(q1, "for i in _: _", "foo_else");
  EXPECT_EQ(to_string(q2), R"(def foo(N: size, M: size, K: size, x: R[N, K + M] @ DRAM):
    assert N >= 8
    assert M >= 2
    if N < 10 and M < 4:
        foo_if(N, M, K, x)
    else:
        foo_else(N, M, K, x)
)");
  EXPECT_EQ(to_string(foo_if), R"(def foo_if(N: size, M: size, K: size, x: R[N, K + M] @ DRAM):
    assert N >= 8
    assert M >= 2
    assert N < 10 and M < 4
    for i in seq(0, 8):
        x[i, 0] += 2.0
)");
  EXPECT_EQ(to_string(foo_else), R"(def foo_else(N: size, M: size, K: size, x: R[N, K + M] @ DRAM):
    assert N >= 8
    assert M >= 2
    assert N >= 10 or M >= 4
    for i in seq(0, 8):
        x[i, 0] += 1.0
)");
  expect_equivalent(foo, q2, {{"N", 9}, {"M", 3}, {"K", 2}});
  expect_equivalent(foo, q2, {{"N", 12}, {"M", 3}, {"K", 2}});
}

// Exo tests/test_schedules.py::test_extract_subproc4: the whole body.
TEST(ExtractSubproc, ExtractSubproc4) {
  Proc foo = parse_proc(std::string(kExtractHeader) + R"(    assert N >= 8
    x[0, 0] = 0.0
    for i in seq(0, 8):
        x[i, 0] += 2.0
)");
  Extracted e = extract_subproc(foo, foo.body_cursor(), "fooooo");
  EXPECT_EQ(to_string(e.proc), R"(def foo(N: size, M: size, K: size, x: R[N, K + M] @ DRAM):
    assert N >= 8
    fooooo(N, M, K, x)
)");
  EXPECT_EQ(to_string(e.subproc), R"(def fooooo(N: size, M: size, K: size, x: R[N, K + M] @ DRAM):
    assert N >= 8
    x[0, 0] = 0.0
    for i in seq(0, 8):
        x[i, 0] += 2.0
)");
  expect_equivalent(foo, e.proc, {{"N", 9}, {"M", 1}, {"K", 2}});
}

// Exo tests/test_schedules.py::test_extract_subproc5: an allocation made before the block is passed
// with its memory.
TEST(ExtractSubproc, ExtractSubproc5) {
  register_port_memories();
  Proc foo = parse_proc(R"(def foo(x: f32[8], y: f32[8]):
    reg: f32[8] @ DRAM
    for i in seq(0, 8):
        reg[i] = x[i]
    for i in seq(0, 8):
        y[i] = reg[i]
)");
  foo = set_memory(foo, "reg : _", "AVX2");  // as load_store() does, for the same reason
  Cursor body = foo.body_cursor();
  Extracted e = extract_subproc(foo, body.slice(1, body.size()), "fooooo");
  EXPECT_EQ(to_string(e.proc), R"(def foo(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    reg: f32[8] @ AVX2
    fooooo(x, y, reg)
)");
  EXPECT_EQ(to_string(e.subproc),
            R"(def fooooo(x: f32[8] @ DRAM, y: f32[8] @ DRAM, reg: f32[8] @ AVX2):
    for i in seq(0, 8):
        reg[i] = x[i]
    for i in seq(0, 8):
        y[i] = reg[i]
)");
  expect_equivalent(foo, e.proc);
}

// Exo tests/test_schedules.py::test_extract_subproc6: only the arguments the block uses, and only
// their asserts.
TEST(ExtractSubproc, ExtractSubproc6) {
  register_port_memories();
  Proc foo = parse_proc(R"(def foo(x: [f32][8], y: [f32][8]):
    assert stride(x, 0) == 1
    assert stride(y, 0) == 1
    reg: f32[8] @ DRAM
    for i in seq(0, 8):
        reg[i] = x[i]
)");
  foo = set_memory(foo, "reg : _", "AVX2");  // as load_store() does, for the same reason
  Cursor body = foo.body_cursor();
  Extracted e = extract_subproc(foo, body.slice(1, body.size()), "fooooo");
  EXPECT_EQ(to_string(e.proc), R"(def foo(x: [f32][8] @ DRAM, y: [f32][8] @ DRAM):
    assert stride(x, 0) == 1
    assert stride(y, 0) == 1
    reg: f32[8] @ AVX2
    fooooo(x, reg)
)");
  EXPECT_EQ(to_string(e.subproc), R"(def fooooo(x: [f32][8] @ DRAM, reg: f32[8] @ AVX2):
    assert stride(x, 0) == 1
    for i in seq(0, 8):
        reg[i] = x[i]
)");
  expect_equivalent(foo, e.proc);
}

// Exo tests/test_schedules.py::test_extract_subproc7: after fission and a reorder, the j loop's
// body of a gemv.
TEST(ExtractSubproc, ExtractSubproc7) {
  Proc gemv = parse_proc(
      R"(def gemv(m: size, n: size, alpha: R, beta: R, A: [R][m, n], x: [R][n],
         y: [R][m]):
    assert stride(A, 1) == 1
    for i in seq(0, m):
        y[i] = y[i] * beta
        for j in seq(0, n):
            y[i] += alpha * x[j] * A[i, j]
)");
  Proc g = fission(gemv, gemv.find("y[_] = _").after());
  g = reorder_loops(g, g.find_loop("i #1"));
  Extracted e = extract_subproc(g, g.find_loop("i #1"), "fooooo");
  EXPECT_EQ(to_string(e.proc),
            R"(def gemv(m: size, n: size, alpha: R @ DRAM, beta: R @ DRAM,
         A: [R][m, n] @ DRAM, x: [R][n] @ DRAM, y: [R][m] @ DRAM):
    assert stride(A, 1) == 1
    for i in seq(0, m):
        y[i] = y[i] * beta
    for j in seq(0, n):
        fooooo(m, n, alpha, A, x, y, j)
)");
  EXPECT_EQ(to_string(e.subproc),
            R"(def fooooo(m: size, n: size, alpha: R @ DRAM, A: [R][m, n] @ DRAM,
           x: [R][n] @ DRAM, y: [R][m] @ DRAM, j: index):
    assert stride(A, 1) == 1
    assert 0 <= j
    assert j < n
    for i in seq(0, m):
        y[i] += alpha * x[j] * A[i, j]
)");
  expect_equivalent(gemv, e.proc, {{"m", 3}, {"n", 4}});
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(ExtractSubproc, ExtractSubprocRefusesBadNames) {
  Proc p = parse_proc(kNamesSrc);
  for (const BadName& b : kBadNames) {
    SCOPED_TRACE("name '" + b.name + "'");
    expect_refused([&] { extract_subproc(p, p.find_loop("i"), b.name); }, "extract_subproc",
                   ErrorCode::BadArgument, "arg.name", b.phrase);
  }
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(ExtractSubproc, ExtractSubprocRefusesTheCallersName) {
  Proc p = parse_proc(kNamesSrc);
  expect_refused([&] { extract_subproc(p, p.find_loop("i"), "f"); }, "extract_subproc",
                 ErrorCode::BadArgument, "arg.name", "proc 'f' itself");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(ExtractSubproc, ExtractSubprocRefusesTheNameOfACallee) {
  Proc p = parse_module(kNamesCaller).proc("top");
  expect_refused([&] { extract_subproc(p, p.find("A[_] = _"), "mid"); }, "extract_subproc",
                 ErrorCode::BadArgument, "arg.name", "calls another proc");
  // ... also one called through another proc.
  expect_refused([&] { extract_subproc(p, p.find("A[_] = _"), "leaf"); }, "extract_subproc",
                 ErrorCode::BadArgument, "arg.name", "calls another proc");
}

}  // namespace

namespace {

// An index argument the block reads stays an index argument of the new proc, with its range
// and the sizes the range names; the call passes it whole (the checker proves the ranges agree).
TEST(ExtractSubproc, AnIndexArgumentKeepsItsRange) {
  Proc p = parse_proc(exocpp::testing::kCsrSpmv);
  Extracted e = extract_subproc(p, p.find_loop("j"), "row");
  EXPECT_TRUE(has(e.subproc, "col: i32[nnz] @ DRAM in range(0, n)")) << e.subproc;
  EXPECT_TRUE(has(e.subproc, "rowptr: i32[m + 1] @ DRAM in range(0, nnz + 1)")) << e.subproc;
  EXPECT_NO_THROW(checker::check_proc(e.proc)) << e.proc;
  expect_equivalent(p, e.proc);
}

}  // namespace
