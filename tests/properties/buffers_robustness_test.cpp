// Every buffer operation applied to every statement of a few procs with assorted arguments:
// each call either succeeds (and then preserves the proc's meaning) or refuses with a
// SchedulingError naming the operation; nothing crashes or raises an internal error.
#include <functional>
#include <set>

#include "rewrites/buffers.h"
#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kProcs[] = {
    R"(def f(N: size, A: f32[N, 8] @ DRAM, B: f32[N] @ DRAM):
    assert N >= 2
    for i in seq(0, N):
        t: f32[8] @ DRAM
        for j in seq(0, 8):
            t[j] = A[i, j] * 2.0
        s: f32 @ DRAM
        s = 0.0
        for j in seq(0, 8):
            s += t[j]
        B[i] = s
)",
    R"(def g(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        w = A[i, 2:6]
        if i < 3:
            for j in seq(0, 4):
                w[j] = w[j] + 1.0
        else:
            if stride(w, 0) == 1:
                A[i, 0] = 1.0
)",
    R"(def h(N: size, A: f32[4] @ DRAM):
    x: f32[2, 4] @ DRAM
    for j in seq(0, 4):
        x[0, j] = A[j]
        x[1, j] = A[j] * 2.0
    for j in seq(0, 4):
        A[j] = x[0, j] + x[1, j]
    y: f32[2, 4] @ DRAM
    c: f32 @ DRAM
    for j in seq(0, 4):
        c = A[j]
        y[1, j] = c
    for j in seq(0, 4):
        A[j] = y[1, j]
)",
};

void all_stmts(const Cursor& block, std::vector<Cursor>& out) {
  for (int k = 0; k < block.size(); ++k) {
    Cursor s = block[k];
    out.push_back(s);
    StmtKind kind = s.stmt().kind();
    if (kind == StmtKind::For || kind == StmtKind::If) all_stmts(s.body(), out);
    if (kind == StmtKind::If && s.orelse().is_valid()) all_stmts(s.orelse(), out);
  }
}

// Runs `f`; a result must be equivalent, an error must be a SchedulingError naming `op`.
int successes = 0;
std::set<std::string> succeeded_ops;

void try_op(const Proc& p, const std::string& op, const std::function<Proc()>& f) {
  try {
    Proc q = f();
    ++successes;
    succeeded_ops.insert(op);
    expect_equivalent(p, q, {{"N", 3}});
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_FALSE(e.reason().empty());
  }
}

TEST(BufferOpsRobustness, EveryOperationOnEveryStatementSucceedsOrRefuses) {
  const std::vector<std::string> windows = {
      "A[i, 0:8]", "A[0:N, 0:8]", "t[0:8]",    "s",    "B[i]",   "A[i, j]",
      "w[0:4]",    "N",           "A[i, 0:4]", "A[i]", "B[0:N]", "A[0:N + 1, 0:8]"};
  const std::vector<std::string> exprs = {"4", "N", "i", "0", "N + 1", "j", "q"};
  for (const char* src : kProcs) {
    Proc p = parse_proc(src);
    std::vector<Cursor> stmts;
    all_stmts(p.body_cursor(), stmts);
    for (const Cursor& s : stmts) {
      SCOPED_TRACE(s.to_string());
      for (const std::string& w : windows)
        for (bool accum : {false, true})
          try_op(p, "stage_mem", [&] { return stage_mem(p, s, w, "st", {.accum = accum}); });
      try_op(p, "stage_mem",
             [&] { return stage_mem(p, s.as_block().expand(0, -1), "A[i, 0:8]", "st"); });
      try_op(p, "lift_alloc", [&] { return lift_alloc(p, s); });
      try_op(p, "lift_alloc", [&] { return lift_alloc(p, s, {.n_lifts = 2}); });
      try_op(p, "sink_alloc", [&] { return sink_alloc(p, s); });
      try_op(p, "delete_buffer", [&] { return delete_buffer(p, s); });
      try_op(p, "inline_window", [&] { return inline_window(p, s); });
      try_op(p, "autolift_alloc", [&] { return autolift_alloc(p, s, {.keep_dims = true}); });
      for (const std::string& a : exprs)
        for (const std::string& b : exprs) {
          try_op(p, "expand_dim", [&] { return expand_dim(p, s, a, b); });
          try_op(p, "resize_dim", [&] { return resize_dim(p, s, 0, a, b); });
        }
      for (int d = -1; d < 3; ++d) {
        try_op(p, "divide_dim", [&] { return divide_dim(p, s, d, 2); });
        try_op(p, "mult_dim", [&] { return mult_dim(p, s, d, 0); });
        try_op(p, "unroll_buffer", [&] { return unroll_buffer(p, s, d); });
        try_op(p, "rearrange_dim", [&] { return rearrange_dim(p, s, {d}); });
      }
      for (const Cursor& s2 : stmts)
        try_op(p, "reuse_buffer", [&] { return reuse_buffer(p, s, s2); });
      if (s.stmt().kind() == StmtKind::Assign || s.stmt().kind() == StmtKind::Reduce) {
        try_op(p, "bind_expr", [&] { return bind_expr(p, s.rhs(), "bx"); });
        if (s.rhs().num_children() > 0)
          try_op(p, "bind_expr", [&] { return bind_expr(p, s.rhs().child(0), "bx"); });
      }
    }
  }
  // The sweep must exercise the rewrites, not only their refusals.
  EXPECT_GT(successes, 40);
  for (const char* op :
       {"stage_mem", "lift_alloc", "sink_alloc", "inline_window", "autolift_alloc", "expand_dim",
        "resize_dim", "divide_dim", "unroll_buffer", "rearrange_dim", "reuse_buffer", "bind_expr"})
    EXPECT_TRUE(succeeded_ops.count(op)) << op << " never succeeded";
}

}  // namespace
