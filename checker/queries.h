// The legality questions scheduling operations ask, one function each. Every query takes the
// Context of the code it concerns (Context::at(proc, stmt) for the statement or loop named)
// and answers Proved, Refuted (with a counterexample in words) or Unknown (outside the
// quasi-affine fragment, or Z3 timed out; a rewrite treats Unknown as a refusal).
//
// What "conflict" means throughout: two accesses of one location (same root buffer and equal
// indices, or one config field) where at least one writes; two reductions (`+=`) into one
// location commute with each other but not with reads or writes of it — unless one truncates
// its sum (a float addend into an integer buffer: core's reductions_regroup), which commutes
// with nothing. Buffers allocated
// inside the analysed code are private to it (to one iteration of a loop body). Distinct
// buffer arguments never alias (as in Exo); windows alias their parent buffer.
#pragma once

#include <cstdint>
#include <string>

#include "checker/answer.h"
#include "checker/context.h"
#include "core/ir.h"

namespace exocpp::checker {

// Do `a ; b` and `b ; a` have the same effect? Both blocks run in `ctx`, `a` first. Refuted
// when some run of `a` and some run of `b` conflict, or when `b` uses a buffer or window that
// `a` defines.
Answer stmts_commute(const Context& ctx, const Block& a, const Block& b);
Answer stmts_commute(const Context& ctx, const Stmt& a, const Stmt& b);

// May the iterations of `loop` (a For statement; `ctx` is its context) run in any order?
// Refuted when two different iterations conflict (reductions into one location commute).
Answer loop_iterations_commute(const Context& ctx, const Stmt& loop);
// May the iterations of `loop` run at the same time (`par`)? As above, but two iterations
// reducing into one location also conflict (a data race in the emitted C).
Answer loop_is_parallelizable(const Context& ctx, const Stmt& loop);

// May `for i: for j: body` become `for j: for i: body`? `outer` must hold exactly one statement,
// the inner loop, whose bounds must not depend on i (else Refuted with that reason). Refuted
// when iterations (i1, j1) and (i2, j2) with i1 < i2 and j1 > j2 conflict.
Answer loops_can_interchange(const Context& ctx, const Stmt& outer);

// May `for i: (s_0 .. s_{gap-1} ; s_gap .. s_n)` become `for i: s_0..; for i: s_gap..`?
// 0 < gap < body size. Refuted when a buffer or window defined before the gap is used after
// it, or when iteration i1 after the gap conflicts with a later iteration i2 > i1 before it.
Answer can_fission(const Context& ctx, const Stmt& loop, size_t gap);
// The other way to prove the same split (Exo's fission accepts it too): the part before the gap
// is the same idempotent work in every iteration, so the runs after the first change nothing
// and may all move in front of the second part. Proved when that part does not mention i, is
// idempotent (as loop_body_idempotent: no reduction outside its own allocations, no location
// both read and written), nothing defined before the gap is used after it, and no iteration
// of the part after the gap writes a location the part before it reads or writes.
Answer fission_first_part_idempotent(const Context& ctx, const Stmt& loop, size_t gap);

// May `for i in (lo, hi): A ; for j in (lo', hi'): B` become `for i: (A ; B[j := i])`?
// `first` and `second` are consecutive in `ctx`. Refuted when the bounds are not provably
// equal, or when B at iteration i1 conflicts with A at a later iteration i2 > i1.
Answer can_fuse(const Context& ctx, const Stmt& first, const Stmt& second);

// May `alloc` (a top-level statement of `loop`'s body) move in front of the loop, so that one
// buffer serves every iteration? Refuted when its shape depends on the iterator, or when an
// iteration reads (or reduces into) a location of it that an earlier iteration wrote and the
// reading iteration did not itself overwrite before: an unconditional write nest
// `for v..: t[v + e] = ..` covering the location counts as overwriting when it stands in an
// earlier statement of a block that holds the read (the loop body, or the body of a loop around
// both, as in `for j: (t[j] = ..; .. = t[j])`, where it covers for the read's own j).
Answer can_lift_alloc(const Context& ctx, const Stmt& loop, const Stmt& alloc);

// May dimension `dim` of `buf` (allocated in `ctx` just before `code`, which holds every use
// of it) keep only `size` entries, index e stored at e % size (a circular buffer: resize_dim's
// fold)? Proved when no access of `code` to `buf` touches an index at least `size` below one
// that an earlier access touched (the reads of one statement count as simultaneous). Then a
// value is never overwritten while live: a write of e clobbers only the slots of e - k size,
// which no later access touches, and of e + k size, which none has touched yet. Refuted with
// the two accesses. Accesses through windows or calls are not analysed (the caller refuses).
Answer can_fold_dim(const Context& ctx, const Block& code, const Sym& buf, int dim, int64_t size);

// Does `window` (a WindowExpr such as A[i, 0:16]) contain every location of its buffer that
// `code` reads, writes or reduces into (for staging)? Refuted with an access outside it.
Answer window_covers(const Context& ctx, const Expr& window, const Block& code);
// The opposite question, for code that stays on the buffer: is no location of `window` read,
// written or reduced into by `code` (windows it forms included)? Refuted with an access inside.
Answer window_disjoint(const Context& ctx, const Expr& window, const Block& code);

// Facts under the preconditions of `ctx` (asserts, positive sizes, enclosing loops and ifs).
Answer always_true(const Context& ctx, const Expr& cond);
Answer always_divisible(const Context& ctx, const Expr& e, int64_t divisor);  // divisor > 0
Answer always_in_range(const Context& ctx, const Expr& e, const Expr& lo,
                       const Expr& hi);  // lo <= e < hi

// Is running `loop`'s body twice the same as running it once (for remove_loop)? Refuted when
// the body mentions the iterator, reduces into a location it does not allocate, or both reads
// and writes one location. Whether the loop runs at least once is a separate question
// (always_true(ctx, lo < hi)).
Answer loop_body_idempotent(const Context& ctx, const Stmt& loop);

// Is config field `cfg.field` left unread by `code` (the statements between two points)?
Answer config_not_read(const Context& ctx, const Block& code, const Config& cfg,
                       const std::string& field);

// Does `e` (an expression valid in `ctx`, evaluated there just before `code` runs) keep its
// value while `code` runs and after it? Proved when `code` writes nothing `e` reads: no config
// field `e` reads (directly or inside a callee: any such write refutes, whatever guards it), and
// no location of a buffer `e` reads (decided with the usual index analysis; writes to buffers
// `code` allocates are private). Control variables never change. Every rewrite that MOVES an
// expression past `code`, or DUPLICATES it so that it is evaluated again during or after `code`
// (a loop bound re-read in a guard or a tail, a window or argument substituted into a body, a
// data expression moved across statements) asks this. Refuted naming the write at fault.
Answer value_unchanged_by(const Context& ctx, const Expr& e, const Block& code);

// Does CUDA kernel `kernel` (an outermost cuda_blocks loop that meets the structural rules of
// core/typecheck_cuda.cpp; `ctx` is its context) compute on a GPU what the interpreter's
// sequential run computes? Proved when (1) no two blocks touch one location where one writes it
// (each cuda_blocks loop's iterations are parallelizable; shared memory is per block), and (2)
// within a block, no two different threads touch one location where one writes it (reductions
// included) unless a barrier (a cuda_block sync instruction) separates the two accesses on every
// path between them. Thread numbers follow core/cuda.h. A refusal names both accesses, the lane
// iterators of each (which give the two threads) and the block. Conservative where exactness
// costs much: accesses in block-level expressions count as made by every thread, warp barriers
// (cuda_warp) separate nothing, and the seq loops around two different lane loops may be in any
// iterations.
Answer kernel_is_race_free(const Context& ctx, const Stmt& kernel);

}  // namespace exocpp::checker
