// Issue 11, class 5: structural rewrites see every use of a buffer (through window statements
// too), keep declarations in scope, respect loop modes, and add no unguarded access.
#include <gtest/gtest.h>

#include "rewrite_test_util.h"

namespace exocpp::testing {
namespace {

void expect_refused(const std::function<Proc()>& op, const std::string& phrase) {
  try {
    Proc q = op();
    ADD_FAILURE() << "accepted:\n" << q;
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
}

// Redteam 14: a par callee loop cannot stand for a seq loop of the caller.
TEST(TrustStructure, ReplaceRefusesParCalleeForSeqLoop) {
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

TEST(TrustStructure, ReplaceAcceptsSeqCalleeForParLoop) {
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

TEST(TrustStructure, ReplaceRefusesRAllocForIntegerAlloc) {
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

// specialize copied the allocation into both branches while a use stayed after the `if`.
TEST(TrustStructure, SpecializeRefusesDeclarationUsedAfterBlock) {
  Proc p = parse_proc(R"(
def f(n: size, a: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, 4):
        t[i] = 1.0
    for i in seq(0, 4):
        a[i] = t[i]
)");
  expect_refused(
      [&] { return specialize(p, p.body_cursor()[0].as_block().expand(0, 1), {"n > 2"}); },
      "used after it");
}

TEST(TrustStructure, SpecializeAcceptsWholeLifetime) {
  Proc p = parse_proc(R"(
def f(n: size, a: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, 4):
        t[i] = 1.0
    for i in seq(0, 4):
        a[i] = t[i]
)");
  Proc q = specialize(p, p.body_cursor(), {"n > 2"});
  expect_equivalent(p, q, {{"n", 1}});
  expect_equivalent(p, q, {{"n", 3}});
}

// reuse_buffer ignored a live window onto the reused buffer.
TEST(TrustStructure, ReuseBufferRefusesLiveWindow) {
  Proc p = parse_proc(R"(
def f(a: f32[4] @ DRAM, b: f32[4] @ DRAM):
    x: f32[4] @ DRAM
    for i in seq(0, 4):
        x[i] = a[i]
    w = x[0:4]
    y: f32[4] @ DRAM
    for i in seq(0, 4):
        y[i] = 2.0
    for i in seq(0, 4):
        b[i] = w[i] + y[i]
)");
  expect_refused([&] { return reuse_buffer(p, "x: _", "y: _"); }, "still live");
}

// stage_mem of a point window: the load ran even where the block's access does not.
TEST(TrustStructure, StageMemGuardsPointIndex) {
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

}  // namespace
}  // namespace exocpp::testing
