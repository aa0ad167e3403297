// delete_pass: every `pass` removed, loops and ifs that did nothing with them.
#include <regex>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    pass
    for i in seq(0, N):
        pass
        A[i] = 1.0
        pass
    for j in seq(0, N):
        pass
    if N > 2:
        pass
    else:
        A[0] = 3.0
)";

TEST(DeletePass, RemovesPassesAndEmptiedLoops) {
  Proc p = parse_proc(kSrc);
  Proc q = delete_pass(p);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DeletePass, KeepsOnePassInAnEmptyProc) {
  Proc p = parse_proc(R"(def f(N: size):
    pass
    pass
)");
  Proc q = delete_pass(p);
  EXPECT_EQ(to_string(q), "def f(N: size):\n    pass\n");
  expect_equivalent(p, q);
}

TEST(DeletePass, LeavesAProcWithoutPassUnchanged) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  EXPECT_EQ(to_string(delete_pass(p)), to_string(p));
}

TEST(DeletePass, ForwardsSurvivingStatements) {
  Proc p = parse_proc(kSrc);
  Cursor assign = p.body_cursor()[1].body()[1];
  Cursor if_stmt = p.body_cursor()[3];
  Cursor gone = p.body_cursor()[2];
  Proc q = delete_pass(p);
  EXPECT_EQ(q.forward(assign).to_string(), "A[i] = 1.0");
  EXPECT_EQ(q.forward(assign).loc().lo, 0);
  EXPECT_EQ(q.forward(if_stmt).to_string(), "if N > 2: ...");
  EXPECT_FALSE(q.forward(gone).is_valid());
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_delete_pass / test_delete_pass_1.
TEST(DeletePass, DeletePass) {
  Proc f1 = parse_proc(R"(def foo(x: f32 @ DRAM):
    for i in seq(0, 16):
        pass
        for j in seq(0, 2):
            pass
            pass
        pass
    x = 0.0
)");
  Proc q1 = delete_pass(f1);
  EXPECT_EQ(to_string(q1), "def foo(x: f32 @ DRAM):\n    x = 0.0\n");
  EXPECT_EQ(to_string(delete_pass(q1)), to_string(q1));
  Proc f2 = parse_proc(R"(def foo(x: f32 @ DRAM):
    for i in seq(0, 16):
        x = 1.0
        pass
        for j in seq(0, 2):
            pass
            pass
        pass
    x = 0.0
)");
  Proc q2 = delete_pass(f2);
  EXPECT_EQ(to_string(q2),
            "def foo(x: f32 @ DRAM):\n    for i in seq(0, 16):\n        x = 1.0\n    x = 0.0\n");
  expect_equivalent(f2, q2);
}

}  // namespace
