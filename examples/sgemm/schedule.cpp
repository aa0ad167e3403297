// The SGEMM schedule (see schedule.h). The plan, as a GotoBLAS-style kernel:
//
//   for ko (K blocks of kc):                       divide_loop k, cut_and_guard: a K tail part
//     for jo (64 columns):                         divide_loop j, reorder_loops
//       B_pack = B[ko block, jo panel]              stage_mem (packing), lift_alloc (hoisting);
//                                                  specialize: with one row of tiles (M < 12)
//                                                  the tiles read B in place (no copy to amortize)
//       for io (6 rows):                           divide_loop i
//         gemm_6x64(kc, A[..], B_pack, C[..])      replace by the tile's specification, then
//                                                  call_eqv to its AVX-512 schedule
//     edge tiles (N % 64 columns, M % 6 rows)      gemm_6xn / gemm_edge, scheduled likewise
//
// The kernels (kernels.cpp) are scheduled from their specifications in sgemm.exo: C staged in
// AVX-512 registers, B rows loaded and A elements broadcast, one fmadd per 16 columns, loops
// unrolled so the registers have constant names.
#include "schedule.h"

#include "kernels.h"
#include "sgemm_exo_text.h"

namespace sgemm_example {

using namespace exocpp;

namespace {

// `for ii: for j: for ki` (rows ii) becomes 64-column tiles `for jo: for ii: for ji: for ki` and
// the column tail `if N % 64 > 0: for ii: for ji in seq(0, N % 64): for ki`.
Proc tile_columns(Proc p, const Cursor& ii_loop) {
  p = divide_loop(p, ii_loop.body()[0], 64, {"jo", "ji"}, {.tail = Tail::CutAndGuard});
  Cursor jo = p.forward(ii_loop).body()[0];
  p = fission(p, jo.after());  // ii: jo ; ii: if N % 64 > 0
  Cursor ii_main = p.forward(ii_loop);
  Cursor ii_tail = ii_main.next();
  p = reorder_loops(p, ii_main);                    // ii jo -> jo ii
  p = lift_scope(p, p.forward(ii_tail).body()[0]);  // ii: if -> if: ii
  return p;
}

// One K part (`for i: for j: for ki`) cut into 6 x 64 tiles, with row and column tails; the full
// tiles are ordered `for jo: for io` so a packed panel of B serves a whole column of tiles.
// `b_rows` is the window of B's rows this part reads ("512 * ko:512 * ko + 512").
Proc tile_part(Proc p, const Cursor& i_loop, const std::string& b_rows,
               const ScheduleOptions& opts) {
  p = divide_loop(p, i_loop, 6, {"io", "ii"}, {.tail = Tail::CutAndGuard});
  Cursor io = p.forward(i_loop);
  Cursor m_tail = io.next();
  p = tile_columns(p, io.body()[0]);
  p = tile_columns(p, p.forward(m_tail).body()[0]);
  io = p.forward(io);
  p = fission(p, io.body()[0].after());  // io: jo ; io: if N % 64 > 0
  p = reorder_loops(p, p.forward(io));   // io jo -> jo io
  if (opts.pack_b) {
    // A packed panel pays for its copy only when several row tiles read it: with one row of
    // tiles (M < 12) the tiles read B in place, which has the same layout when N is 64.
    Cursor jo = p.forward(io).parent();
    p = specialize(p, p.forward(io), {"M < 12"});
    Cursor packed = p.forward(jo).body()[0].orelse()[0];
    p = stage_mem(p, packed, "B[" + b_rows + ", 64 * jo:64 * jo + 64]", "B_pack");
  }
  return p;
}

}  // namespace

const std::string& sgemm_source() {
  static const std::string text = EXOCPP_SGEMM_EXO_TEXT;
  return text;
}

Proc schedule_sgemm(const ScheduleOptions& opts) {
  Module m = parse_module(sgemm_source(), {}, "sgemm.exo");
  Proc p = m.proc("sgemm");
  const std::string kc = std::to_string(opts.kc);

  // K blocks outermost: `for ko: for i: for j: for ki` and the tail `if K % kc > 0: ...`.
  p = divide_loop(p, "k", opts.kc, {"ko", "ki"}, {.tail = Tail::CutAndGuard});
  p = fission(p, p.find_loop("ko").after(), {.n_lifts = 2});
  p = reorder_loops(p, "j ko");
  p = reorder_loops(p, "i ko");
  p = lift_scope(p, "if K % " + kc + " > 0: _");
  p = lift_scope(p, "if K % " + kc + " > 0: _");
  Cursor k_main = p.body_cursor()[0], k_tail = p.body_cursor()[1];
  p = tile_part(p, p.forward(k_main).body()[0], kc + " * ko:" + kc + " * ko + " + kc, opts);
  p = tile_part(p, p.forward(k_tail).body()[0],
                kc + " * (K / " + kc + "):" + kc + " * (K / " + kc + ") + K % " + kc, opts);
  if (opts.pack_b) {
    // The panel buffer of the full K blocks has a constant shape: a static array, allocated
    // once out of the jo loop; the K tail's panel (K % kc rows) is allocated per call.
    p = lift_alloc(p, "B_pack: _ #0");
    p = set_memory(p, "B_pack: _ #0", "DRAM_STATIC");
    p = lift_alloc(p, "B_pack: _ #1");
  }
  p = replace_tiles(p, m, opts);
  return simplify(p);
}

}  // namespace sgemm_example
