// Halide-style scheduling composites built only out of Exo's primitives (rewrites/loops.h,
// rewrites/stmts.h, rewrites/buffers.h, rewrites/replace.h): 2-D tiling, compute_at as loop
// fusion and with a halo (compute_and_store_at), the sliding window with storage folding, and
// vectorize. They add no legality reasoning of their own: every step is a primitive that asks
// the checker, so a composite is exactly as safe as the primitives it calls, and a refused step
// names the primitive that refused (a composite refuses by its own name only arguments it
// cannot use: a strip no instruction fits, a region it cannot bound or that is always empty).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/printer.h"
#include "rewrites/loops.h"
#include "rewrites/target.h"

namespace exocpp {

struct Tile2dOptions {
  // Prove that both tile sizes divide the loop extents (no guards, no tails).
  bool perfect = false;
  // Otherwise, the partial tiles: Tail::Guard keeps them in the tile loops behind ifs;
  // Tail::Cut and Tail::CutAndGuard cut them out as their own loops (divide_loop's tails,
  // CutAndGuard behind `if N % ti > 0`), so the full tiles run without a test:
  //   for io: for jo: for ii: for ji: s                  the full tiles
  //   [if ..:] for ii in N % ti: for jo: for ji: s        the last rows, full column tiles
  //   for i: [if ..:] for ji in M % tj: s                 the last columns, every row
  Tail tail = Tail::Guard;
};

// Tiles two directly nested loops (Halide's `tile`):
//
//   for i in seq(0, n):               for io in _:
//       for j in seq(0, m):    -->        for jo in _:
//           s                                 for ii in seq(0, ti):
//                                                 for ji in seq(0, tj):
//                                                     s[i -> ti*io + ii, j -> tj*jo + ji]
//
// (with `if` guards on partial tiles, or the partial tiles cut out: see Tile2dOptions). `loop_pair`
// is "i j" (loop i whose only statement is loop j) or a cursor to the outer loop; tile_sizes = {ti,
// tj}; new_names = {io, jo, ii, ji} (outer names first, as Halide). Built from divide_loop (twice),
// lift_scope (to move jo above i's guard) and reorder_loops.
Proc tile2d(const Proc& p, const CursorLike& loop_pair, const std::vector<int64_t>& tile_sizes,
            const std::vector<std::string>& new_names, const Tile2dOptions& opts = {});

// Computes a producer loop inside its consumer loop (Halide's `compute_at` at the consumer's
// outer loop):
//
//   for i in e: P ; S1 ; ... ; Sk ; for j in e: C   -->   S1 ; ... ; Sk ; for i in e: (P ; C[j ->
//   i])
//
// The producer is moved down past the statements in between with reorder_stmts (each swap
// proved to commute), then fused with the consumer by fuse (which proves the bounds equal and
// that no consumer iteration needs a later producer iteration). Both loops must be in the
// same statement list, the producer first.
Proc compute_at(const Proc& p, const CursorLike& producer, const CursorLike& consumer);

// Halide's compute_at with store_at at the same level: the values of the producer nest that one
// iteration of a consumer loop reads are computed inside that iteration, into a buffer local to
// it, halo included (recomputed by each iteration that reads it):
//
//   f : T[H + 2, W]                         for yo in seq(0, H / 8):
//   for y in seq(0, H + 2):                     f_yo : T[10, W]
//       for x in seq(0, W):          -->        for i0 in seq(0, 10):
//           f[y, x] = e(y, x)                       for i1 in seq(0, W):
//   for yo in seq(0, H / 8):                            f_yo[i0, i1] = e(8 * yo + i0, i1)
//       .. f[8 * yo + yi + k, x] ..             .. f_yo[yi + k, x] ..
//
// The region is inferred from the consumer's indices (core/bounds_inference.h). Each entry of
// `at` is a loop (a pattern or a statement cursor: computed per iteration, as above, into
// `f_<iter>`) or a block cursor (`loop.as_block()`: the region the whole block reads, computed
// once just before it, into `f_block`, as for a cut tail of strips). Every later code reading
// f must be inside one of them. Built from stage_mem (one per entry: the region covers the
// reads) and compute_inline (the producer, whose body may compute locals first and whose store
// may wrap, becomes the copies; it refuses a region the producer did not compute: "lies in the
// produced range"), then simplify.
Proc compute_and_store_at(const Proc& p, const CursorLike& producer,
                          const std::vector<CursorLike>& at);

struct VectorizeOptions {
  // The iterations past the last full vector: a scalar loop of their own (Tail::Cut) or behind
  // a test (Tail::CutAndGuard); `perfect` proves there are none (implied when the trip count is
  // a constant multiple of the width).
  Tail tail = Tail::Cut;
  bool perfect = false;
};

// Halide's vectorize: the loop is divided by `width` and each statement of a full strip becomes
// instructions (procs whose bodies are `width`-lane loops, such as hwlibs/x86's):
//
//   for x in seq(0, n):                 for xo in seq(0, n / w):
//       t : T                               t : T[w] @ MEM ; v0 : T[w] @ MEM ; ..
//       t = a[x] + b[x]          -->        load(v0, a[w xo:w xo + w]) ; load(v1, ..)
//       c[x] = t / 3                        add(t, v0, v1) ; div3(v2, t) ; store(c[..], v2)
//                                       for xi in seq(0, n % w): (the scalar tail)
//
// Scalar locals of the body become registers in memory `memory`; a body of several statements
// that one instruction computes whole (a lane body with branches on data) becomes that
// instruction; otherwise each statement is lowered on its own. Elements read at constant
// indices (a filter's weights) are bound once before the loop nest, below a parallel loop
// around it, so each thread has its own (bind_expr with `before`)
// into one-element DRAM_STACK buffers a broadcast instruction reads; a statement no instruction
// takes whole has its operands bound into registers first, equal operands sharing one (bind_expr:
// an integer sum keeps its own precision where it only wraps into the store), recursively. A
// literal operand (`x * 1.5`) is bound the same way before the loop nest, then broadcast; a
// reduction into a register (`acc += a[x] * b[x]`) has its right-hand side bound into a register
// and is then offered whole again (an accumulate instruction such as reduce_add_wide). A
// reduction into memory along the lanes (`y[.., x] += e`, which no instruction takes) has the
// lanes it touches staged in a register around the strip (stage_mem): a load, the reduction
// into the register, a store, each lowered in turn.
// A parallel loop keeps its mode on the outer loop (its strips run in parallel; each strip's
// lanes in order). Refused, naming the strip, when some strip fits no instruction, and naming
// the literal when a literal operand cannot be bound (one no precision holds exactly, 0.1).
Proc vectorize(const Proc& p, const CursorLike& loop, int width, const std::string& memory,
               const std::vector<Proc>& instructions, const VectorizeOptions& opts = {});

// Halide's store_at (Exo's stdlib store_at): the allocation right before `loop` moves into it
// (sink_alloc) and each dimension is cut to the box one iteration touches (bounds inference,
// then resize_dim, which proves the accesses lie in it):
//
//   f : T[H, W]                      for yo in seq(0, H / 8):
//   for yo in seq(0, H / 8):   -->       f : T[8, W]
//       ... f[8 yo + yi, x] ...          ... f[yi, x] ...
//
// Refused by sink_alloc when an iteration reads what an earlier one stored or the buffer is
// used after the loop; by name when the loop is not right after the allocation, the box cannot
// be inferred, or its size depends on the loop variable.
Proc store_at(const Proc& p, const CursorLike& alloc, const CursorLike& loop);

struct SlidingWindowOptions {
  // Fold the producer's buffer to the rows still live (a circular buffer, resize_dim fold).
  bool fold = true;
  // The folded size; 0: the halo plus one (the rows one consumer iteration reads).
  int fold_rows = 0;
};

// Halide's sliding window with storage folding (store_at the outer loop, compute_at the inner
// one): a producer loop that computes rows ahead of the consumer loop right after it, k more
// rows than the consumer's iterations (its halo, a constant), becomes the prologue and one loop
// that computes each next row just before the consumer iteration that first reads it:
//
//   for i in seq(0, n + k): P(i)           for i in seq(0, k): P(i)
//   for j in seq(0, n): C(j)       -->     for j in seq(0, n): (P(j + k) ; C(j))
//
// and with fold the producer's buffer keeps only fold_rows rows (k + 1 by default), indexed
// modulo that count. Typically applied to the loops compute_and_store_at made inside a strip.
// Built from cut_loop, shift_loop, fuse (which proves each row is computed before it is read)
// and resize_dim with fold (which proves no row is overwritten while still read: "a fold that
// would overwrite a live value" is refused there).
Proc sliding_window(const Proc& p, const CursorLike& producer, const CursorLike& consumer,
                    const SlidingWindowOptions& opts = {});

// Exo's stdlib `repeat(op)(p, *args)`: `op` applied with the same arguments until it is refused
// (any SchedulingError: no target left, or a step that does not hold), the last proc it
// accepted returned. It also stops when a step leaves the proc's text unchanged, so an
// operation that always succeeds (simplify) cannot loop forever. Arguments are passed as typed
// values: `repeat(divide_loop)(p, "for i in _: _", 8, std::vector<std::string>{"io", "ii"},
// DivideLoopOptions{.perfect = true})`.
template <class Op>
auto repeat(Op op) {
  return [op](Proc p, const auto&... args) {
    for (;;) {
      Proc next;
      try {
        next = op(p, args...);
      } catch (const SchedulingError&) {
        return p;
      }
      if (to_string(next) == to_string(p)) return next;
      p = next;
    }
  };
}

}  // namespace exocpp
