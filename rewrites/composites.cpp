// ============================================================================================
// Halide-style composites (tile2d, compute_at) written only with primitives.
// ============================================================================================
//
// See rewrites/composites.h for the rewrite rules. Each composite resolves its targets, then
// calls primitives in turn, re-finding each next target by its position (a primitive keeps the
// rewritten statement at the position of the one it replaced). The loop primitives live in
// rewrites/loops.h; until they are built this file compiles to nothing.
#include "rewrites/composites.h"

#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

Cursor at(const Proc& p, const Loc& l) { return Cursor(p, l); }

}  // namespace

Proc tile2d(const Proc& p, const CursorLike& loop_pair, const std::vector<int64_t>& tile_sizes,
            const std::vector<std::string>& new_names, const Tile2dOptions& opts) {
  const std::string op = "tile2d";
  return rw::run_op(op, [&]() -> Proc {
    if (tile_sizes.size() != 2)
      rw::fail_argument(op, p->srcinfo, "expected two tile sizes {ti, tj}");
    if (new_names.size() != 4)
      rw::fail_argument(op, p->srcinfo, "expected four new loop names {io, jo, ii, ji}");
    Cursor outer = rw::resolve_loop_nest(op, p, loop_pair);
    const Loc outer_loc = outer.loc();
    DivideLoopOptions div{.tail = opts.perfect ? Tail::Cut : Tail::Guard, .perfect = opts.perfect};

    // 1. for i: for jo: for ji: [if gj:] s
    Proc q = divide_loop(p, outer.body()[0], tile_sizes[1], {new_names[1], new_names[3]}, div);
    // 2. for io: for ii: [if gi:] for jo: for ji: [if gj:] s
    q = divide_loop(q, at(q, outer_loc), tile_sizes[0], {new_names[0], new_names[2]}, div);
    Cursor ii = at(q, outer_loc).body()[0];
    // 3. Move jo above i's guard: for io: for ii: for jo: if gi: for ji: ...
    if (!opts.perfect) {
      Cursor guard = ii.body()[0];
      q = lift_scope(q, guard.body()[0]);
      ii = at(q, outer_loc).body()[0];
    }
    // 4. for io: for jo: for ii: ...
    return reorder_loops(q, ii);
  });
}

Proc compute_at(const Proc& p, const CursorLike& producer, const CursorLike& consumer) {
  const std::string op = "compute_at";
  return rw::run_op(op, [&]() -> Proc {
    Cursor prod = rw::resolve_loop(op, p, producer);
    Cursor cons = rw::resolve_loop(op, p, consumer);
    if (prod.loc().block != cons.loc().block || prod.loc().lo >= cons.loc().lo)
      rw::fail(op, prod,
               "the producer loop must come before the consumer loop in the same statement list");
    const Loc cons_loc = cons.loc();
    Proc q = p;
    // 1. Move the producer down to just before the consumer.
    for (int k = prod.loc().lo; k + 1 < cons_loc.lo; ++k) {
      Loc l = prod.loc();
      l.lo = k;
      l.hi = k + 1;
      q = reorder_stmts(q, at(q, l));
    }
    // 2. Fuse.
    Loc pl = cons_loc;
    pl.lo = cons_loc.lo - 1;
    pl.hi = cons_loc.lo;
    return fuse(q, at(q, pl), at(q, cons_loc));
  });
}

}  // namespace exocpp
