// sink_alloc (rewrites/sink_alloc.cpp): its results, its refusals and the interpreter equivalence
// of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <regex>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// s carries a value from one iteration to the next: not liftable.
const char* kCarry = R"(def g(N: size, A: f32[N] @ DRAM):
    s: f32 @ DRAM
    s = 0.0
    for i in seq(0, N):
        s += A[i]
        A[i] = s
)";

// Exo tests/test_schedules.py::test_sink_alloc_simple_if_stmt: the allocation moves into the if.
TEST(SinkAlloc, SinkAllocSimpleIfStmt) {
  Proc foo = parse_proc(R"(def foo():
    a: i8[10] @ DRAM
    if 1 < 10:
        a[1] = 0.0
)");
  Proc q = sink_alloc(foo, foo.find("a : _"));
  EXPECT_EQ(to_string(q), R"(def foo():
    if 1 < 10:
        a: i8[10] @ DRAM
        a[1] = 0.0
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_sink_alloc_simple_for_loop / _simple_if_stmt.
TEST(SinkAlloc, SinkAlloc) {
  Proc f1 = parse_proc(R"(def foo():
    a: i8[10] @ DRAM
    for i in seq(0, 10):
        pass
)");
  Proc q1 = sink_alloc(f1, "a : _");
  EXPECT_TRUE(to_string(q1).find("for i") < to_string(q1).find("a: i8[10]")) << q1;
  expect_equivalent(f1, q1);
  Proc f2 = parse_proc(R"(def foo():
    a: i8[10] @ DRAM
    if 1 < 10:
        a[1] = 0.0
)");
  Proc q2 = sink_alloc(f2, "a : _");
  EXPECT_TRUE(to_string(q2).find("if") < to_string(q2).find("a: i8[10]")) << q2;
  expect_equivalent(f2, q2);
}

// Exo tests/test_schedules.py::test_sink_alloc_when_if_has_else: Exo's golden puts a copy of the
// allocation in both branches.
TEST(SinkAlloc, SinkAllocIfElse) {
  Proc f = parse_proc(R"(def foo():
    a: i8[10] @ DRAM
    if 1 < 10:
        a[1] = 0.0
    else:
        a[1] = 1.0
)");
  Proc q = sink_alloc(f, "a : _");
  std::string t = to_string(q);
  size_t first = t.find("a: i8[10]");
  EXPECT_TRUE(first != std::string::npos && t.find("a: i8[10]", first + 1) != std::string::npos)
      << q;
  EXPECT_TRUE(t.find("if") < first) << q;
  expect_equivalent(f, q);
}

// Exo tests/test_schedules.py::test_sink_alloc_fail_because_accesses_outside_scope.
TEST(SinkAlloc, SinkAllocFail) {
  Proc f = parse_proc(R"(def foo():
    a: i8[10] @ DRAM
    for i in seq(0, 10):
        pass
    a[0] = 0.0
)");
  EXPECT_THROW(sink_alloc(f, "a : _"), SchedulingError);
}

TEST(SinkAlloc, SinksIntoTheFollowingLoop) {
  Proc p = parse_proc(kSinkOk);
  Proc q = sink_alloc(p, p.body_cursor()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(SinkAlloc, SinksIntoBothBranchesOfAnIf) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    t: f32 @ DRAM
    if N > 2:
        t = A[0]
        A[1] = t
    else:
        t = A[1]
        A[0] = t
)");
  Proc q = sink_alloc(p, p.body_cursor()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
  expect_equivalent(p, q, {{"N", 2}});
}

TEST(SinkAlloc, RefusesAValueCarriedAcrossIterations) {
  Proc p = parse_proc(kCarry);
  Proc q = parse_proc(R"(def g(N: size, A: f32[N] @ DRAM):
    s: f32 @ DRAM
    for i in seq(0, N):
        if i == 0:
            s = 0.0
        s += A[i]
        A[i] = s
)");
  expect_refused([&] { sink_alloc(q, q.body_cursor()[0]); }, "sink_alloc", ErrorCode::NotProved,
                 "checker.refuted", "written by an earlier one");
  (void)p;
}

TEST(SinkAlloc, RefusesWhenUsedAfterTheLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    t: f32 @ DRAM
    for i in seq(0, N):
        t = A[i]
    A[0] = t
)");
  expect_refused([&] { sink_alloc(p, p.body_cursor()[0]); }, "sink_alloc", ErrorCode::NotProved,
                 "scope.escapes", "is used after the loop");
}

TEST(SinkAlloc, RefusesWhenNoLoopOrIfFollows) {
  Proc p = parse_proc(kCarry);
  expect_refused([&] { sink_alloc(p, p.body_cursor()[0]); }, "sink_alloc", ErrorCode::NotProved,
                 "stmt.form", "must be a loop or an if");
}

TEST(SinkAlloc, ForwardsTheAllocationIntoTheLoop) {
  Proc p = parse_proc(kSinkOk);
  Cursor t = p.body_cursor()[0];
  Cursor assign = p.body_cursor()[1].body()[0];
  Proc q = sink_alloc(p, t);
  EXPECT_EQ(q.forward(t).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(assign).loc(), q.body_cursor()[0].body()[1].loc());
}

}  // namespace
