// ============================================================================================
// tile2d: tile a loop pair, Halide style, written only with primitives.
// ============================================================================================
//
// See rewrites/composites.h for the rewrite rule. It resolves the nest, then calls primitives
// in turn (divide_loop twice, lift_scope for the guard, reorder_loops), re-finding each next
// target by its position (a primitive keeps the rewritten statement at the position of the one
// it replaced). Each step is checked by its primitive and names it in a refusal.
#include "rewrites/composites.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// Tiles with the partial tiles cut out (Tail::Cut or Tail::CutAndGuard), for `outer` (for i:
// for j: s):
//   1. divide j:                  for i: (for jo: for ji: s) ; (j's tail)
//   2. fission after jo:          for i: for jo: for ji: s ; for i: (j's tail)
//   3. divide the first i:        for io: for ii: for jo: ..  ; (i's tail) ; for i: (j's tail)
//   4. reorder ii and jo:         for io: for jo: for ii: for ji: s ; ...
Proc tile_with_cut_tails(const Proc& p, const Cursor& outer, const std::vector<int64_t>& sizes,
                         const std::vector<std::string>& names, Tail tail) {
  const Loc outer_loc = outer.loc();
  DivideLoopOptions div{.tail = tail};
  Proc q = divide_loop(p, outer.body()[0], sizes[1], {names[1], names[3]}, div);
  q = fission(q, Cursor(q, outer_loc).body()[0].after());
  q = divide_loop(q, Cursor(q, outer_loc), sizes[0], {names[0], names[2]}, div);
  return reorder_loops(q, Cursor(q, outer_loc).body()[0]);
}

}  // namespace

Proc tile2d(const Proc& p, const CursorLike& loop_pair, const std::vector<int64_t>& tile_sizes,
            const std::vector<std::string>& new_names, const Tile2dOptions& opts) {
  return rw::run_op("tile2d", [&]() -> Proc {
    if (tile_sizes.size() != 2)
      rw::fail(reason::kArgInvalid, p->srcinfo, "expected two tile sizes {ti, tj}");
    if (new_names.size() != 4)
      rw::fail(reason::kArgInvalid, p->srcinfo, "expected four new loop names {io, jo, ii, ji}");
    Cursor outer = rw::resolve_loop_nest(p, loop_pair);
    const Loc outer_loc = outer.loc();
    if (!opts.perfect && opts.tail != Tail::Guard)
      return tile_with_cut_tails(p, outer, tile_sizes, new_names, opts.tail);
    DivideLoopOptions div{.tail = opts.perfect ? Tail::Cut : Tail::Guard, .perfect = opts.perfect};

    // 1. for i: for jo: for ji: [if gj:] s
    Proc q = divide_loop(p, outer.body()[0], tile_sizes[1], {new_names[1], new_names[3]}, div);
    // 2. for io: for ii: [if gi:] for jo: for ji: [if gj:] s
    q = divide_loop(q, Cursor(q, outer_loc), tile_sizes[0], {new_names[0], new_names[2]}, div);
    Cursor ii = Cursor(q, outer_loc).body()[0];
    // 3. Move jo above i's guard: for io: for ii: for jo: if gi: for ji: ...
    if (!opts.perfect) {
      Cursor guard = ii.body()[0];
      q = lift_scope(q, guard.body()[0]);
      ii = Cursor(q, outer_loc).body()[0];
    }
    // 4. for io: for jo: for ii: ...
    return reorder_loops(q, ii);
  });
}

}  // namespace exocpp
