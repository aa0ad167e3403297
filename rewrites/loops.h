// Exo's loop and scope scheduling operations: divide_loop, reorder_loops, fission, remove_loop,
// add_loop, unroll_loop, lift_scope, fuse, cut_loop, rotate_loop, bound_and_guard, shift_loop,
// mult_loops, join_loops, specialize, autofission, divide_with_recompute. Names, argument order and
// rewrite rules follow Exo's primitives (docs/primitives/loop_ops.md); every legality condition is
// decided by the checker (checker/queries.h). See docs/scheduling/loops.md.
//
// Every operation returns a new proc derived from `p` (so p.forward(c) carries cursors into it)
// and throws SchedulingError naming the operation, the target's location and the reason (and
// the checker's counterexample) when the rewrite is not legal; it never returns a changed proc
// then. Exo's `unsafe_disable_check(s)` flags are deliberately not offered.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rewrites/target.h"

namespace exocpp {

// How divide_loop handles the iterations past the last full chunk.
//   Guard:       for io in seq(0, (N + q - 1) / q): for ii in seq(0, q): if q*io + ii < N: s
//   Cut:         the full chunks, then `for ii in seq(0, N % q): s[i -> q*(N/q) + ii]`
//   CutAndGuard: as Cut, with the tail loop inside `if N % q > 0:`
enum class Tail { Guard, Cut, CutAndGuard };

struct DivideLoopOptions {
  Tail tail = Tail::Guard;
  bool perfect = false;  // N % q == 0 must be proved; no tail, no guard
};
// for i in seq(0, N): s  -->  for io in seq(0, N / q): for ii in seq(0, q): s[i -> q*io + ii]
// (plus the tail per `tail`). `loop` must start at 0; q >= 1; new_iters = {outer, inner}.
Proc divide_loop(const Proc& p, const CursorLike& loop, int64_t div_const,
                 const std::vector<std::string>& new_iters, const DivideLoopOptions& opts = {});

// for i in _: for j in _: s  -->  for j in _: for i in _: s
// `nested_loops`: "i j" (loop i whose only statement is loop j, optionally "#n"), a loop
// pattern, or a cursor to the outer loop. Legal when j's bounds do not depend on i and no two
// conflicting iterations change order (checker::loops_can_interchange).
Proc reorder_loops(const Proc& p, const CursorLike& nested_loops);

struct FissionOptions {
  int n_lifts = 1;  // how many enclosing loops/ifs to split
};
// for i in _: (s1 ; <gap> ; s2)  -->  for i in _: s1 ; for i in _: s2   (also through ifs)
Proc fission(const Proc& p, const CursorLike& gap, const FissionOptions& opts = {});

// for i in _: s  -->  s   when s is idempotent, does not use i, and the loop runs at least once.
Proc remove_loop(const Proc& p, const CursorLike& loop);

struct AddLoopOptions {
  bool guard = false;  // wrap the block in `if iter == 0:` (no idempotence needed)
};
// s  -->  for iter in seq(0, hi): s   when hi > 0 and s is idempotent (or guard).
Proc add_loop(const Proc& p, const CursorLike& block, const std::string& iter_name,
              const std::string& hi_expr, const AddLoopOptions& opts = {});

// for i in seq(a, b): s  -->  s[i -> a] ; s[i -> a+1] ; ... ; s[i -> b-1]   (constant a, b)
Proc unroll_loop(const Proc& p, const CursorLike& loop);

// Moves a for/if up past its parent for/if, of which it must be the only statement:
//   for i: if c: A else: B  -->  if c: (for i: A) else: (for i: B)   (c independent of i)
//   if c: for i: A          -->  for i: if c: A                      (the if has no else)
//   if c: (if d: A else: B) else: C  -->  if d: (if c: A else: C) else: (if c: B else: C)
//   if c: A else: (if d: B else: C)  -->  if d: (if c: A else: B) else: (if c: A else: C)
//   for i: for j: A         -->  reorder_loops
Proc lift_scope(const Proc& p, const CursorLike& scope);
// Exo's stdlib lift_if: lift_scope applied n_lifts times to an if statement (each time to where
// the last one put it). A refusal says how many lifts remain, with lift_scope's reason.
Proc lift_if(const Proc& p, const CursorLike& if_stmt, int n_lifts = 1);

// for i in e: s1 ; for j in e: s2  -->  for i in e: (s1 ; s2[j -> i])   (checker::can_fuse)
// if c: s1 else: t1 ; if c: s2 else: t2  -->  if c: (s1 ; s2) else: (t1 ; t2)
Proc fuse(const Proc& p, const CursorLike& stmt1, const CursorLike& stmt2);

// for i in seq(lo, hi): s  -->  for i in seq(lo, cut): s ; for i in seq(cut, hi): s
// (lo <= cut <= hi must be proved).
Proc cut_loop(const Proc& p, const CursorLike& loop, const std::string& cut_point);
// for i in seq(lo, hi): (A ; B)  -->  if lo < hi: (A[i -> lo] ;
//                                      for i in seq(lo, hi): (B ; if i + 1 < hi: A[i -> i + 1]))
// A is the body's first `n_stmts` statements. The same statements run in the same order; the
// loop must be seq, A must declare nothing at its top level, and lo and hi must keep their
// values through the loop (proved). The step towards software pipelining.
Proc rotate_loop(const Proc& p, const CursorLike& loop, int n_stmts);
// for i in seq(lo, e): s  -->  for i in seq(lo, c): if i < e: s        (e <= c proved)
// Gives a tail loop the shape of a masked instruction's body. (Exo's stdlib bound_and_guard.)
Proc bound_and_guard(const Proc& p, const CursorLike& loop, const std::string& bound);

// for i in seq(lo, hi): s  -->  for i in seq(new_lo, new_lo + hi - lo): s[i -> i + (lo - new_lo)]
// (new_lo >= 0 must be proved).
Proc shift_loop(const Proc& p, const CursorLike& loop, const std::string& new_lo);

// for i in seq(0, e): for j in seq(0, c): s  -->  for k in seq(0, e * c): s[i -> k / c, j -> k % c]
// (c an integer constant > 0; both loops start at 0; loop i holds only loop j).
Proc mult_loops(const Proc& p, const CursorLike& nested_loops, const std::string& new_iter_name);

// for i in seq(lo, mid): s ; for j in seq(mid, hi): s[i -> j]  -->  for i in seq(lo, hi): s
// (adjacent loops, bodies the same up to the loop variable, loop1's hi equal to loop2's lo).
Proc join_loops(const Proc& p, const CursorLike& loop1, const CursorLike& loop2);

// B  -->  if c0: B elif c1: B ... else: B   (one copy per condition plus the default copy)
Proc specialize(const Proc& p, const CursorLike& block, const std::vector<std::string>& conds);

// for i in seq(0, N): s  -->
// for io in seq(0, outer_hi): for ii in seq(0, outer_stride + (N - outer_hi * outer_stride)):
//     s[i -> outer_stride * io + ii]
// Neighbouring chunks overlap, so some iterations run again: legal when N >= outer_hi *
// outer_stride, outer_hi > 0, the iterations commute and each iteration is idempotent.
Proc divide_with_recompute(const Proc& p, const CursorLike& loop, const std::string& outer_hi,
                           int64_t outer_stride, const std::vector<std::string>& new_iters);

struct AutofissionOptions {
  int n_lifts = 1;
};
// fission, then remove every loop copy the split made that remove_loop accepts (a half whose
// statements no longer depend on the loop).
Proc autofission(const Proc& p, const CursorLike& gap, const AutofissionOptions& opts = {});

}  // namespace exocpp
