// The schedule of bs_sgemm (kernels.exo): block-sparse SGEMM on examples/blas's AVX-512 tile
// kernels, with public operations only. The plan:
//
//   for kto (blocks of 8 K tiles, 512 rows of B):
//     B_pack = B[512 kto block, full panels]       stage_mem, divide_dim + rearrange_dim:
//                                                  dense 64-column panels [N / 64][512][64]
//     for it (16-row tiles of A):
//       for jo (64-column panels):                 a C tile stays in L1 across the K tiles
//         for kti (the block's 8 K tiles):
//           if mask[it, 8 kto + kti] > 0:          the data condition: zero tiles are skipped
//             sgemm_tile_6(A, B_pack[jo], C) x 2, sgemm_tile_4(...)   replace + call_eqv
//       for kti: if mask: the right edge (N % 64 columns), B read in place
//
// Every step is checked like any other: reorder_loops and fission move the data condition's
// evaluation only where the checker proves the condition reads nothing the moved code writes.
#include <exocpp/exocpp.h>

#include "kernels.h"
#include "schedule.h"
#include "value_control_schedule.h"

namespace value_control {

using namespace exocpp;
using blas_example::kSingle;

namespace {

// `for i6: for j: for ki` (a row tile) into 64-column tiles and a column tail, as
// examples/blas tiles its rows: `for jo: for i6: for ji: for ki` and
// `if N % 64 > 0: for i6: for ji in seq(0, N % 64): for ki`.
Proc tile_columns(Proc p, const Cursor& rows) {
  p = divide_loop(p, rows.body()[0], 64, {"jo", "ji"}, {.tail = Tail::CutAndGuard});
  p = fission(p, p.forward(rows).body()[0].after());
  const Cursor main = p.forward(rows), tail = main.next();
  p = reorder_loops(p, main);
  return lift_scope(p, p.forward(tail).body()[0]);
}

}  // namespace

Proc schedule_block_sparse(Proc p) {
  // K tiles outside the row tiles, in blocks of 8: `for kto: for it: for kti: if mask: ...`.
  p = reorder_loops(p, "it kt");
  p = divide_loop(p, "kt", 8, {"kto", "kti"}, {.perfect = true});
  p = reorder_loops(p, "kti it");
  // The 16 rows as two register tiles of 6 and one of 4, each cut into 64-column tiles.
  p = divide_loop(p, "ii", 6, {"io", "i6"}, {.tail = Tail::Cut});
  p = tile_columns(p, p.find_loop("io").body()[0]);
  p = tile_columns(p, p.find_loop("io").next());
  p = simplify(p);
  // The three row tiles of a column panel one after the other, so that they share its B panel.
  p = unroll_loop(p, p.find_loop("io"));
  auto in_tile = [&](int k) { return p.find_loop("kti").body()[0].body()[k]; };
  p = reorder_stmts(p, in_tile(1).as_block().expand(0, 1));  // L0 R0 L1 -> L0 L1 R0
  p = fuse(p, in_tile(0), in_tile(1));
  p = reorder_stmts(p, in_tile(2).as_block().expand(0, 1));  // R0 R1 L2 -> R0 L2 R1
  p = reorder_stmts(p, in_tile(1).as_block().expand(0, 1));  // -> L2 R0 R1
  p = fuse(p, in_tile(0), in_tile(1));
  p = simplify(p);
  // The column panels outside the block's K tiles (`for jo: for kti: if mask: tiles`), so
  // that a C tile stays in L1 across them; the right edges after, apart.
  p = fission(p, in_tile(0).after(), {.n_lifts = 2});
  p = lift_scope(p, p.find_loop("jo"));
  p = reorder_loops(p, "kti jo");
  p = simplify(p);
  // The block's 512 rows of B packed once into dense 64-column panels before the row tiles
  // (the right edge, fewer than 64 columns, is read in place).
  const Cursor it = p.find_loop("it");
  p = stage_mem(p, it, "B[512 * kto:512 * kto + 512, 0:64 * (N / 64)]", "B_pack");
  const Cursor alloc = p.forward(it).prev().prev(), copy = p.forward(it).prev();
  p = divide_loop(p, copy.body()[0], 64, {"panel", "col"}, {.perfect = true});
  p = divide_dim(p, p.forward(alloc), 1, 64);
  p = rearrange_dim(p, p.forward(alloc), {1, 0, 2});
  p = simplify(p);
  // The tiles become calls of examples/blas's AVX-512 kernels.
  const Module specs = parse_module(blas_example::gemm_source(), {}, "gemm.exo");
  p = blas_example::replace_tiles(p, blas_example::Tiles::of(specs, kSingle), kSingle, {});
  return simplify(p);
}

}  // namespace value_control
