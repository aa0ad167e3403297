// inline_window (rewrites/inline_window.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <regex>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

const char* kWin = R"(def f(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        w = A[i, 2:6]
        for j in seq(0, 4):
            w[j] = w[j] + 1.0
)";

// Exo tests/test_schedules.py::test_inline_window: y's uses read x through the window's offsets.
TEST(InlineWindow, InlineWindow) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: f32[n, m] @ DRAM):
    assert n > 4
    assert m > 4
    y = x[2:n - 2, 1:m - 3]
    for i in seq(0, n - 4):
        for j in seq(0, m - 4):
            a: f32 @ DRAM
            a = x[i, j] * y[i, j]
            y[i, j] = a + x[i + 1, j + 1]
)");
  Proc q = inline_window(foo, "y = _");
  EXPECT_FALSE(has(q, "y")) << q;
  EXPECT_TRUE(has(q, "x[i + 2, j + 1]")) << q;
  expect_equivalent(foo, q, {{"n", 6}, {"m", 7}});
}

// Exo tests/test_schedules.py::test_inline_window2: a stride of the window passed to a call becomes
// the buffer's.
TEST(InlineWindow, InlineWindowRewritesAStridePassedToACall) {
  Module m = parse_module(R"(def bar(s: stride):
    x: R
    x = 0.0

def foo(n: size, m: size, k: size, x: R[n, m, k, 10]):
    y = x[0, 0:m, 0:k, 0]
    y[0, 0] = 0.0
    bar(stride(y, 1))
)");
  Proc foo = m.proc("foo");
  Proc q = simplify(inline_window(foo, "y = _"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, k: size, x: R[n, m, k, 10] @ DRAM):
    x[0, 0, 0, 0] = 0.0
    bar(stride(x, 2))
)");
  expect_equivalent(foo, q, {{"n", 2}, {"m", 2}, {"k", 2}});
}

// Exo tests/test_schedules.py::test_inline_window3: the window passed to a call becomes a window of
// the buffer.
TEST(InlineWindow, InlineWindowPassedToACall) {
  Module m = parse_module(R"(def inner_memset(x: [R][16] @ DRAM):
    for i in seq(0, 16):
        x[i] = 0.0

def memset(n: size, x: [R][n] @ DRAM):
    assert n % 16 == 0
    res: R
    for io in seq(0, n / 16):
        x_1 = x[16 * io:16 * io + 16]
        inner_memset(x_1)
        res += x_1[0]
)");
  Proc p = m.proc("memset");
  Proc q = simplify(inline_window(p, "x_1 = _"));
  EXPECT_EQ(to_string(q), R"(def memset(n: size, x: [R][n] @ DRAM):
    assert n % 16 == 0
    res: R @ DRAM
    for io in seq(0, n / 16):
        inner_memset(x[16 * io:16 + 16 * io])
        res += x[16 * io]
)");
  expect_equivalent(p, q, {{"n", 32}});
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(InlineWindow, InlineWindowRefusesBoundsWrittenBeforeAUse) {  // redteam 07
  Proc p = eval_once_proc(R"(
def f(A: f32[8] @ DRAM):
    C.k = 0
    w = A[C.k:C.k + 2]
    C.k = 4
    w[0] = 1.0
)");
  expect_refused([&] { inline_window(p, p.find("w = _")); }, "inline_window", ErrorCode::NotProved,
                 "checker.value_changed", "writes C.k");
}

// Trust (evaluated once): a moved or duplicated expression keeps its value.
TEST(InlineWindow, InlineWindowAcceptsBoundsNobodyWrites) {
  Proc p = eval_once_proc(R"(
def f(A: f32[8] @ DRAM):
    C.k = 3
    w = A[C.k:C.k + 2]
    w[1] = 1.0
)");
  Proc q = inline_window(p, p.find("w = _"));
  expect_equivalent(p, q);
}

TEST(InlineWindow, ReplacesWindowAccessesByBufferAccesses) {
  Proc p = parse_proc(kWin);
  Proc q = inline_window(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(InlineWindow, ComposesWindowsOfTheWindow) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        w = A[i, 2:8]
        v = w[1:5]
        for j in seq(0, 4):
            v[j] = 2.0
)");
  Proc q = inline_window(p, p.body_cursor()[0].body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 2}});
}

TEST(InlineWindow, RefusesAStatementThatIsNotAWindow) {
  Proc p = parse_proc(kWin);
  expect_refused([&] { inline_window(p, p.body_cursor()[0].body()[1]); }, "inline_window",
                 ErrorCode::BadArgument, "target.wrong_kind");
}

TEST(InlineWindow, ForwardsTheFollowingStatementsUpOne) {
  Proc p = parse_proc(kWin);
  Cursor loop = p.body_cursor()[0].body()[1];
  Proc q = inline_window(p, p.body_cursor()[0].body()[0]);
  EXPECT_EQ(q.forward(loop).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_FALSE(q.forward(p.body_cursor()[0].body()[0]).is_valid());
}

}  // namespace
