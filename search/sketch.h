// A schedule space for a proc nobody scheduled (Ansor's sketch rules, a first set): each
// producer of a multi-stage proc may be inlined into its consumer or computed at one of the
// consumer's loops; each top-level loop nest may be tiled, reordered so that the tile loops come
// first, have its innermost loop unrolled or vectorized through a hardware library's instructions,
// and its outermost loop run in parallel. Every step is an ordinary scheduling operation, so every
// candidate is proved like a hand-written schedule, and a step the checker refuses prunes the
// candidate. Each step is recorded as the C++ call that repeats it (Choices::note).
//
//   search::SketchOptions o;
//   o.instructions = x86::avx2_instructions();  // optional: vectorize through these
//   o.vector_memory = "AVX2";
//   search::TuneResult r = search::tune(p, search::sketch_space(o), t);
//
// First, for a multi-stage proc, per buffer f allocated at the top of the proc and computed by a
// perfect nest that another top-level nest follows (its consumer):
//   f_at            "root" (left alone), "inline" (compute_inline), or the iterator of one of the
//                   consumer's two outer loops (compute_and_store_at there: each iteration
//                   computes the region of f it reads, halo included, into a buffer of its own).
// Then, per nest k of what results (numbered from 0 in program order) and loop iterator i of
// the nest's perfectly nested loops:
//   n<k>_tile_<i>   0 (not tiled) or one of tile_sizes: divide_loop into <i>o, <i>i (perfect
//                   where the checker proves the extent divisible);
//   n<k>_tail_<i>   where it does not: "cut" (the partial tile a loop of its own after the
//                   tiles, which stay a perfect nest) or "guard" (an `if` inside the tiles);
//   n<k>_order      the order of the innermost (up to three) point loops, a permutation;
//   n<k>_unroll     unroll the innermost loop (a constant extent of at most max_unroll);
//   n<k>_vector     vectorize the innermost loop (when instructions are given), its width a
//                   register of vector_bits over the written element, or drawn from
//                   vector_widths as n<k>_width;
//   n<k>_par        make the outermost loop parallel (par).
#pragma once

#include <string>
#include <vector>

#include "core/ir.h"
#include "search/tune.h"

namespace exocpp::search {

struct SketchOptions {
  std::vector<int64_t> tile_sizes = {8, 16, 32, 64};
  int max_unroll = 8;
  bool parallel = true;
  // Vectorizing the innermost loop (rewrites/composites.h's vectorize): the instructions and the
  // register memory; none given, no vectorization is offered.
  std::vector<Proc> instructions;
  std::string vector_memory;
  std::vector<int64_t> vector_widths = {8};
  // Not 0: no width decision; the width is this many bits over the bits of the element the
  // innermost statement writes (512: 16 f32 lanes, 8 f64, 32 ui16).
  int vector_bits = 0;
  // Multi-stage procs: offer each producer's placement (<buffer>_at, below).
  bool place_producers = true;
};

Space sketch_space(const SketchOptions& opts = {});

// Schedules a proc nobody scheduled: tune() over sketch_space(sketch). The result's best proc,
// trace and script() are the schedule found. A hardware library gives the options for its
// target (hwlibs/x86: x86::sketch_options()).
TuneResult auto_schedule(const Proc& p, const SketchOptions& sketch = {},
                         const TuneOptions& tune = {});

}  // namespace exocpp::search
