// Exo's statement and expression scheduling operations: renaming a proc, pass statements,
// reordering statements, parallel loops, expression rewrites (commute, reassociate, rewrite by
// an equal expression), write merging and splitting, inlining an assignment, lifting a constant
// out of a reduction, dead-code elimination and simplification.
//
// Each operation follows Exo's primitive of the same name (docs/primitives/other_ops.md and
// backend_ops.md of exo-lang/exo): required arguments positional in Exo's order, targets as
// CursorLike (a pattern string or a cursor of this proc or an ancestor). An illegal request
// throws SchedulingError naming the operation, the target and the reason (with the checker's
// counterexample where there is one); it never returns a changed proc. Every result is a
// derived proc whose forwarding function carries cursors of the input into it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/ir.h"
#include "rewrites/target.h"

namespace exocpp {

// The proc with a new name. `name` must be an identifier.
Proc rename(const Proc& p, const std::string& name);

// Exo's partial_eval: the control arguments named in `values` fixed to those constants and
// removed from the signature (a new proc, not an equivalent one).
Proc partial_eval(const Proc& p, const std::map<std::string, int64_t>& values);

// Exo's Procedure.transpose: the two-dimensional tensor or window argument `arg` with its
// dimensions swapped and every access to it transposed (A[i, j] -> A[j, i], stride(A, 0) <->
// stride(A, 1)). The caller passes the transposed array, so it is a new proc (a fresh
// equivalence class). Refused when A is passed whole to a call or windowed in both dimensions.
Proc transpose(const Proc& p, const CursorLike& arg);

// Exo's add_assertion: `p` with `assert cond` added (cond over its control arguments). The
// result accepts only arguments satisfying it, so it is a new proc (a fresh equivalence
// class); a condition that simplifies to false is refused, to true changes nothing.
Proc add_assertion(const Proc& p, const std::string& cond);

// `s1 ; s2` --> `s1 ; pass ; s2` at the gap (a statement means the gap after it).
Proc insert_pass(const Proc& p, const CursorLike& gap);

// `s1 ; s2` --> `s1 ; f(a_1, ..., a_n) ; s2` for a subproc f whose body is `pass` (a call
// that changes no value: a prefetch, a hint), with `args` parsed at the gap (expressions,
// buffer names, windows "A[i, 0:16]"). The call must type-check against f's signature, its
// windows lie inside their buffers and f's asserts hold at the gap.
Proc insert_noop_call(const Proc& p, const CursorLike& gap, const Proc& subproc,
                      const std::vector<std::string>& args);

// Every `pass` removed; a body left empty keeps one `pass`.
Proc delete_pass(const Proc& p);

// `s1 ; s2` --> `s2 ; s1` for a block of two statements (or a statement and the one after it),
// when the checker proves they commute.
Proc reorder_stmts(const Proc& p, const CursorLike& block);

// `for i in seq(lo, hi): s` --> `for i in par(lo, hi): s` when no two iterations conflict
// (reductions into one location are races too).
Proc parallelize_loop(const Proc& p, const CursorLike& loop);

// `for i in m(lo, hi): s` --> `for i in mode(lo, hi): s`, where `mode` names a loop mode
// ("seq", "par", "cuda_blocks", "cuda_threads", "cuda_warps"). A parallel mode needs the
// checker's proof that no two iterations conflict; the result must meet the GPU rules (the
// structure of core/typecheck_cuda.cpp and the kernel race rule, docs/gpu.md).
Proc set_loop_mode(const Proc& p, const CursorLike& loop, const std::string& mode);

// `a + b` --> `b + a`, `a * b` --> `b * a` at each of the expressions.
Proc commute_expr(const Proc& p, const std::vector<CursorLike>& exprs);

// `a + (b + c)` --> `(a + b) + c` (also for `*`).
Proc left_reassociate_expr(const Proc& p, const CursorLike& expr);

// `e` --> `new_expr` (parsed in the scope of the statement holding `e`) when the checker proves
// `e == new_expr` under the context (asserts, enclosing loops and ifs).
Proc rewrite_expr(const Proc& p, const CursorLike& expr, const std::string& new_expr);

// Two consecutive writes to one location made one:
//   a = b ; a = c   --> a = c          a += b ; a = c  --> a = c
//   a = b ; a += c  --> a = b + c      a += b ; a += c --> a += b + c
// The indices must be provably equal and `c` must not read the buffer `a`.
Proc merge_writes(const Proc& p, const CursorLike& block);

// `a = b + c` --> `a = b ; a += c`, `a += b + c` --> `a += b ; a += c` (c must not read a).
Proc split_write(const Proc& p, const CursorLike& stmt);

// `a = a + e` --> `a += e` (the read on the left of `+` is the written location).
Proc fold_into_reduce(const Proc& p, const CursorLike& assign);

// `x = e ; s` --> `s[x -> e]`: the scalar x (allocated earlier in the same block) is replaced by
// e in the rest of the block and the assignment removed. `s` must not write x or anything e reads.
Proc inline_assign(const Proc& p, const CursorLike& assign);

// Halide's compute_inline: the producer `for x..: f[x + c] = e` (a perfect nest around one
// assignment, f allocated earlier in the same block) is removed with f's allocation, and every
// later read f[r] becomes e[x := r - c]. Each read must lie in the produced region and the rest
// of the block must write nothing e reads (see rewrites/compute_inline.cpp). A copy
// `g[i] = f[r]` (g of f's precision, as stage_mem makes) takes the producer's whole innermost
// body instead, so there the store to f may wrap or round, and the body may compute locals
// first (`s: ui16; s = a + b; f[x] = s / 3`).
Proc compute_inline(const Proc& p, const CursorLike& producer);

// `x = 0.0 ; for i in _: x += c * y` --> `x = 0.0 ; for i in _: x += y ; x = c * x` for a block
// of two statements, where every reduction into x in the loop body is scaled by the same c,
// which the loop does not change.
Proc lift_reduce_constant(const Proc& p, const CursorLike& block);

// The names rfactor gives its loops (over groups of lanes, and the lane loops) and its lane
// buffers (each accumulator's name followed by `suffix`).
struct RfactorOptions {
  std::string outer = "io";
  std::string lane = "l";
  std::string suffix = "_lanes";
};
// Halide's rfactor for sums: every accumulator of the loop (a buffer reduced into at one place
// that does not change with the loop) gets `lanes` lanes (`acc_lanes[lanes]`, from 0), each
// accumulating the iterations lo + lanes * io + l, added into the accumulator after the groups;
// then the loop runs on over the iterations past the last full group. The iterations keep their
// order; only the sums regroup, as reals (rewrites/rfactor.cpp states the rule and conditions).
Proc rfactor(const Proc& p, const CursorLike& loop, int64_t lanes, const RfactorOptions& opts = {});

// What rfactor_argmax makes: the names of the loop over groups of lanes, of the lane loops, of
// the lane-merge loop, and of the buffers of the lanes' best values and indices (empty: the
// best value's and the index's names followed by `_lanes`); and, with merge_width W > 0
// (dividing the lane count), a lane-wise merge of lanes W.. into lanes 0..W-1 before the fold,
// so that only W lanes are folded into (A, I) (one register's worth, when W is its width).
struct RfactorArgmaxOptions {
  std::string outer = "io";
  std::string lane = "l";
  std::string values = "";
  std::string indices = "";
  int64_t merge_width = 0;
  std::string merge_outer = "g";
};
// Halide's rfactor for an argmax (argmin) loop `for i in seq(lo, hi): if E > A: A = E; I = i`:
// `lanes` lanes (buffers values[lanes], indices[lanes], starting from A and I) each keep the
// best of the iterations lo + lanes * io + l, folded into (A, I) after the groups (a better
// value wins; among equal ones the lower index), then the loop runs on over the iterations
// past the last full group. Exact, NaN and ties included (the rule and its conditions:
// rewrites/rfactor_argmax.cpp); the index type must hold every index of the loop.
Proc rfactor_argmax(const Proc& p, const CursorLike& loop, int64_t lanes,
                    const RfactorArgmaxOptions& opts = {});

// `if p: s1 else: s2` --> `s1` when p always holds (`s2` when it never does); a loop whose
// range is always empty is removed. Decided by the checker.
Proc eliminate_dead_code(const Proc& p, const CursorLike& stmt);

// Every expression of the body simplified (core/simplify.h).
Proc simplify(const Proc& p);

}  // namespace exocpp
