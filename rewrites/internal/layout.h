// The one rule of every operation that changes a buffer's layout: what code can observe of the
// layout (strides) keeps its value, and every call handed the buffer still meets its callee's
// preconditions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"

namespace exocpp::rw {

// A change of the layout of some buffers of a proc: the buffers of `before` whose shape, order of
// dimensions or identity changes, and the buffers of the new proc that hold their data.
struct LayoutChange {
  std::vector<Sym> before;  // in the input proc
  std::vector<Sym> after;   // in the new proc (the same names, or the new buffers)
  // Where the operation changes the proc's contract (transpose): a stride of a window argument
  // of the new proc (stride(A, d), a value its caller chooses) in the terms of the input proc.
  // The identity when empty.
  std::function<Expr(const Expr&)> to_before;
};

// For an operation that changes the layout of buffers (rearrange_dim, resize_dim, mult_dim,
// divide_dim, expand_dim, unroll_buffer, stage_mem, transpose): `after` is the new proc (an
// Edit's candidate), made from `before` by rewriting the accesses of `change.before` in place
// (statement for statement, expression for expression). Throws SchedulingError(op) unless
//
//  (a) every stride the code observes through the changed buffers keeps its value: each
//      `stride(n, d)` whose n is a changed buffer or a window statement onto one (windows of
//      windows included), and each stride of a window of one passed to a callee that observes
//      it (reads a stride of the parameter or of a window of it, in its asserts or body or a
//      callee's, or takes it as a dense tensor, or is an instruction) — NotProved,
//      "layout.stride_changed", naming the stride, the statement and its values before and
//      after, with the checker's counterexample; the two values are compared as expressions
//      of the proc's sizes under the context of the statement (Z3), so a layout change that
//      keeps them (an unobserved window, a dimension whose extent stays) is accepted; and
//  (b) every call handed a changed buffer or a window of one still meets its callee's
//      preconditions in `after` (checker::check_call) — NotProved,
//      "layout.call_precondition", with the checker's counterexample.
//
// The observations of `before` and `after` are paired in the order the code holds them; a
// rewrite that does not keep them in place is refused ("layout.unmatched").
void require_layout_observations_kept(const Cursor& where, const Proc& before, const Proc& after,
                                      const LayoutChange& change);

}  // namespace exocpp::rw
