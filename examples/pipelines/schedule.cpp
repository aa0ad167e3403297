// See pipelines_schedule.h. Each schedule is the few lines of its Halide counterpart (Halide's
// apps/blur and apps/unsharp), one operation per line:
//
//   Halide                                     exocpp
//   out.tile(x, y, xo, yo, xi, yi, 256, 32)    tile2d(out's y x, {32, 256}, cut tails)
//   bx.compute_at(out, xo)                     compute_and_store_at(bx's producer, the tile
//                                                  loop, the partial tiles' blocks)
//   out.vectorize(xi, 32); bx.vectorize(x, 32) vectorize(every innermost loop)
//   out.parallel(yo)                           parallelize_loop(yo)
#include "hwlibs/x86/x86.h"
#include "pipelines_exo_text.h"
#include "pipelines_schedule.h"

namespace pipelines_example {

using namespace exocpp;

namespace {

const Module& pipelines() {
  static const Module m = [] {
    x86::register_memories();
    return parse_module(EXOCPP_PIPELINES_EXO_TEXT, {}, "pipelines.exo");
  }();
  return m;
}

std::vector<Proc> instructions(const std::vector<const x86::InstrRef*>& refs) {
  std::vector<Proc> out;
  for (const x86::InstrRef* r : refs) out.push_back(r->get());
  return out;
}

// Every innermost loop of `p`.
std::vector<Cursor> innermost_loops(const Proc& p) {
  std::vector<Cursor> out;
  for (const Cursor& loop : p.find_all("for _ in _: _")) {
    bool inner = true;
    const Cursor body = loop.body();
    for (int k = 0; k < body.size(); ++k) inner = inner && !body[k].stmt().as<ForNode>();
    if (inner) out.push_back(loop);
  }
  return out;
}

// Two (or more) vectors per iteration of every vector loop over W.
Proc unroll_vectors(Proc p, int lanes, int unroll) {
  if (unroll <= 1) return p;
  for (const Cursor& loop : p.find_all("for _ in seq(0, W / " + std::to_string(lanes) + "): _")) {
    p = divide_loop(p, loop, unroll, {"vo", "vi"}, {.tail = Tail::Cut});
    p = unroll_loop(p, p.forward(loop).body()[0]);
  }
  return p;
}

// The common schedule: the consumer (`for y in _: _ #1`) in tiles of rows x columns, the
// producer (`for y in _: _ #0`) computed per tile with its halo (and once for the last rows and
// once for the last columns, the partial tiles), every innermost loop vectorized, the rows of
// tiles parallel on request.
Proc tiles(Proc p, const PipelineOptions& opts, int lanes, const std::vector<Proc>& ins) {
  const Cursor consumer = p.find("for y in _: _ #1");
  if (opts.tile_cols > 0) {
    p = tile2d(p, consumer, {opts.tile_rows, opts.tile_cols}, {"yo", "xo", "yi", "xi"},
               {.tail = Tail::Cut});
    const Cursor full = p.forward(consumer), last_rows = full.next(), last_cols = last_rows.next();
    p = compute_and_store_at(p, "for y in _: _ #0",
                             {full.body()[0], last_rows.as_block(), last_cols.as_block()});
    // A full tile's buffer (both pipelines call the first pass bx) has a constant shape:
    // automatic storage, not the heap.
    p = set_memory(p, p.find_alloc_or_arg("bx_xo"), "DRAM_STACK");
  } else {
    // Strips of whole rows, each computing the first pass's rows as it goes down the strip
    // into a circular buffer of the rows still read.
    p = divide_loop(p, consumer, opts.tile_rows, {"yo", "yi"}, {.tail = Tail::Cut});
    const Cursor full = p.forward(consumer), last_rows = full.next();
    p = compute_and_store_at(p, "for y in _: _ #0", {full, last_rows.as_block()});
    if (opts.sliding) p = sliding_window(p, p.find("for i0 in _: _"), p.find("for yi in _: _"));
    // Rows of the strip's buffer start on cache lines (when a row is a multiple of 64 bytes).
    p = set_memory(p, p.find_alloc_or_arg("bx_yo"), "DRAM_ALIGNED");
  }
  // Parallel first: vectorize then binds the broadcast values inside each thread's strip.
  if (opts.parallel) p = parallelize_loop(p, "yo");
  for (const Cursor& row : innermost_loops(p)) p = vectorize(p, row, lanes, "AVX512", ins);
  return simplify(unroll_vectors(p, lanes, opts.unroll));
}

}  // namespace

Proc plain_blur() { return pipelines().proc("blur"); }
Proc plain_unsharp() { return pipelines().proc("unsharp"); }
Proc plain_conv5x5() { return pipelines().proc("conv5x5"); }

Proc schedule_blur(const PipelineOptions& opts) {
  Proc p = tiles(plain_blur(), opts, 32,
                 instructions({&x86::mm512_loadu_epi16, &x86::mm512_storeu_epi16,
                               &x86::mm512_add_epi16, &x86::mm512_div3_epu16}));
  return opts.parallel ? rename(p, "blur_parallel") : p;
}

Proc schedule_unsharp(const PipelineOptions& opts) {
  // The vertical pass is inlined into the output (Halide's default for a Func).
  Proc p = compute_inline(plain_unsharp(), "for y in _: _ #1");
  p = tiles(p, opts, 16,
            instructions({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_set1_ps,
                          &x86::mm512_add_ps, &x86::mm512_sub_ps, &x86::mm512_mul_ps}));
  return opts.parallel ? rename(p, "unsharp_parallel") : p;
}

// Halide: conv.update().unroll(r.x).unroll(r.y); out.vectorize(x, 32); out.split(y, yo, yi, 8)
// .parallel(yo). The 25 taps unrolled, each output vector summed in a register from the
// weights (broadcast once each, before the loops) and 25 loads of the input.
Proc schedule_conv5x5(const PipelineOptions& opts) {
  Proc p = unroll_loop(plain_conv5x5(), "for dx in _: _");
  p = unroll_loop(p, "for dy in _: _");
  // Strips of 8 rows whatever opts.tile_rows says: no producer stays in cache across a strip's
  // rows, and more strips share out more evenly between the threads (Halide's default for it).
  p = divide_loop(p, "for y in _: _", 8, {"yo", "yi"}, {.tail = Tail::Cut});
  if (opts.parallel) p = parallelize_loop(p, "yo");
  for (const Cursor& row : p.find_all("for x in _: _"))
    p = vectorize(
        p, row, 16, "AVX512",
        instructions({&x86::mm512_loadu_ps, &x86::mm512_storeu_ps, &x86::mm512_set1_ps,
                      &x86::mm512_setzero_ps, &x86::mm512_reduce_add_wide_ps, &x86::mm512_mul_ps}));
  p = simplify(unroll_vectors(p, 16, opts.unroll));
  return opts.parallel ? rename(p, "conv5x5_parallel") : p;
}

}  // namespace pipelines_example
