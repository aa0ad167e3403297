// delete_buffer (rewrites/delete_buffer.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <regex>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/fixtures.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// Exo tests/test_schedules.py::test_delete_buffer / test_delete_buffer_fail.
TEST(DeleteBuffer, DeleteBuffer) {
  Proc foo = parse_proc(R"(def foo():
    a: i8[10] @ DRAM
)");
  Proc q = delete_buffer(foo, "a : _");
  EXPECT_FALSE(has(q, "a: i8")) << q;
  Proc bad = parse_proc(R"(def foo():
    a: i8[10] @ DRAM
    a[0] = 1.0
)");
  EXPECT_THROW(delete_buffer(bad, "a : _"), SchedulingError);
}

TEST(DeleteBuffer, DeletesAnUnusedAllocation) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, N):
        A[i] = 1.0
)");
  Cursor loop = p.body_cursor()[1];
  Proc q = delete_buffer(p, p.body_cursor()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
  EXPECT_EQ(q.forward(loop).loc(), q.body_cursor()[0].loc());
}

TEST(DeleteBuffer, RefusesAUsedAllocation) {
  Proc p = parse_proc(kTmpRows);
  expect_refused([&] { delete_buffer(p, tmp_alloc(p)); }, "delete_buffer", ErrorCode::NotProved,
                 "alloc.live", "is still used");
}

}  // namespace
