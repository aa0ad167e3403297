// The dot-product GEMM schedule (see schedule_dot.h). The plan:
//
//   if M > 6 and M % 6 is 1 or 2:                   specialize
//     for jb (64-column panels of B):               reorder_loops, fuse
//       for io (6 rows), to the last 6 + M % 6:     cut_loop, divide_loop (perfect)
//         gemm_<name>_6x64(K, A[..], Bp[jb], C[..]) replace by the 6-row tile, call_eqv
//       gemm_<name>_4x64(...)                       cut_loop, shift_loop: a 4-row tile
//       gemm_<name>_(2 + M % 6)x64(...)             and one of 3 or 4 rows (specialize)
//   else:
//     for jb:
//       for io (6 rows):                            divide_loop i, cut_and_guard: a row tail
//         gemm_<name>_6x64(...)
//       if M % 6 == r: gemm_<name>_rx64(...)        specialize the tail per row count r (1..5)
//
// Panels outermost, so that a panel of B (K x 64 contiguous values) stays in cache while every
// row tile streams past it: with M of 1 to 16 (inference) B is read once to three times, each
// panel as one sequential stream. A tile's B loads are shared by its rows only, and the tiles
// after the first read the panel from L2: a tile of 1 or 2 rows would do 4 or 8 dot products per
// 4 loads of B from L2, and be bound by L2's bandwidth. So 6 + 1 or 6 + 2 last rows run as tiles
// of 4 and 3 or 4 rows instead (M = 8, a batch of 8 tokens, as 6 + 2 ran at 0.8 of M = 16's speed).
#include "schedule_dot.h"

#include "gemm_bf16_exo_text.h"
#include "gemm_u8s8_exo_text.h"
#include "loop_helpers.h"

namespace blas_example {

using namespace exocpp;

constexpr int kTileRows = 6;  // rows of a full tile: 6 x 4 accumulators

const DotGemm& u8s8_gemm() {
  static const std::string text = EXOCPP_GEMM_U8S8_EXO_TEXT;
  static const DotGemm g{"u8s8",
                         "gemm_u8s8.exo",
                         &text,
                         x86::mm512_dpbusd_epi32_broadcast,
                         x86::mm512_loadu_epi32,
                         x86::mm512_storeu_epi32,
                         "_vnni"};
  return g;
}

const DotGemm& bf16_gemm() {
  static const std::string text = EXOCPP_GEMM_BF16_EXO_TEXT;
  static const DotGemm g{"bf16",
                         "gemm_bf16.exo",
                         &text,
                         x86::mm512_dpbf16_ps_broadcast,
                         x86::mm512_loadu_ps,
                         x86::mm512_storeu_ps,
                         "_avx512bf16"};
  return g;
}

Proc plain_dot_gemm(const DotGemm& g) {
  return parse_module(*g.source, {}, g.file).proc("gemm_" + g.name);
}

Proc dot_tile_spec(const DotGemm& g, int rows) {
  const Module m = parse_module(*g.source, {}, g.file);
  Proc p = partial_eval(m.proc("gemm_" + g.name + "_rows"), {{"MR", rows}});
  return rename(p, "gemm_" + g.name + "_" + std::to_string(rows) + "x64");
}

Proc schedule_dot_kernel(const DotGemm& g, const Proc& spec, int rows) {
  const std::string r = std::to_string(rows);
  Proc p = rename(spec, spec.name() + g.kernel_suffix);
  // for ko: for i: for j: for t
  p = reorder_loops(p, "j ko");
  p = reorder_loops(p, "i ko");
  // C in rows x 4 zmm registers of 16 lanes for the whole K loop.
  p = stage_mem(p, "for ko in _: _", "C[0:" + r + ", 0:64]", "C_reg");
  p = divide_dim(p, "C_reg", 1, 16);
  p = set_memory(p, "C_reg", x86::AVX512);
  p = divide_loop(p, "j", 16, {"jo", "ji"}, {.perfect = true});
  p = divide_loop(p, "i1 #0", 16, {"i1o", "i1i"}, {.perfect = true});
  p = divide_loop(p, "i1 #0", 16, {"i1o", "i1i"}, {.perfect = true});
  p = simplify(p);
  // C_reg[i, jo, :] += A[i, group ko:group (ko + 1)] . Bp[ko, 16 jo:16 jo + 16, :]: one
  // instruction each.
  for (const x86::InstrRef& ins : {g.load, g.store, g.dot}) p = replace_all(p, ins);
  // Constant register names: unroll the row and vector loops.
  for (const char* iter : {"jo", "i", "i1o", "i0"}) p = unroll_all(p, iter);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

namespace {

// `for i in seq(0, M): for jb: ...` (cursor `rows`) when M > 6 and M % 6 is 1 or 2: 6-row tiles
// up to the last 6 + M % 6 rows, then a 4-row tile and one of 2 + M % 6 rows, all of a panel in
// one `for jb`.
Proc balanced_rows(Proc p, const Cursor& rows) {
  p = cut_loop(p, rows, "M - 6 - M % 6");
  const Cursor last = p.forward(rows).next();
  p = cut_loop(p, last, "M - 2 - M % 6");
  const Cursor four = p.forward(last), rest = p.forward(last).next();
  p = shift_loop(p, four, "0");
  p = shift_loop(p, rest, "0");
  p = divide_loop(p, rows, kTileRows, {"io", "ii"}, {.perfect = true});
  p = reorder_loops(p, p.forward(rows).body()[0]);  // ii jb -> jb ii
  p = reorder_loops(p, p.forward(rows));            // io jb -> jb io
  p = reorder_loops(p, four);
  p = reorder_loops(p, rest);
  // Each part is now `for jb: rows`; one `for jb` for the three.
  const Cursor panels = p.forward(rows).parent();
  p = fuse(p, panels, p.forward(four).parent());
  p = fuse(p, panels, p.forward(rest).parent());
  p = simplify(p);
  // The last tile has 2 + M % 6 rows: 3, else 4.
  p = specialize(p, p.forward(panels).body()[2], {"M % 6 == 1"});
  const Cursor versions = p.forward(panels).body()[2];
  p = rewrite_expr(p, p.forward(versions).body()[0].hi(), "3");
  p = rewrite_expr(p, p.forward(versions).orelse()[0].hi(), "4");
  return p;
}

// `for i in seq(0, M): for jb: ...` (cursor `rows`) in 6-row tiles and a tail of M % 6 rows, one
// version per row count, all of a panel in one `for jb`.
Proc tiles_and_tail(Proc p, const Cursor& rows) {
  // for io: for ii(6): for jb ; if M % 6 > 0: for ii(M % 6): for jb
  p = divide_loop(p, rows, kTileRows, {"io", "ii"}, {.tail = Tail::CutAndGuard});
  const Cursor tail = p.forward(rows).next();
  p = reorder_loops(p, p.forward(rows).body()[0]);  // ii jb -> jb ii
  p = reorder_loops(p, p.forward(rows));            // io jb -> jb io
  p = reorder_loops(p, p.forward(tail).body()[0]);  // ii jb -> jb ii
  const Cursor panels = p.forward(rows).parent();
  p = lift_scope(p, p.forward(tail).body()[0]);  // if M % 6 > 0: for jb -> for jb: if
  p = fuse(p, panels, p.forward(panels).next());
  p = simplify(p);
  // The tail, once per row count: M % 6 is 1, ..., 4, else 5.
  return specialize_count(p, p.forward(panels).body()[1], "M % 6", kTileRows);
}

}  // namespace

Proc schedule_dot_gemm(const DotGemm& g) {
  Proc p = plain_dot_gemm(g);
  p = specialize(p, p.find_loop("i"), {"M > 6 and (M % 6 == 1 or M % 6 == 2)"});
  const Cursor split = p.body_cursor()[0];
  p = balanced_rows(p, split.body()[0]);
  p = tiles_and_tail(p, p.forward(split).orelse()[0]);
  for (int rows = 1; rows <= kTileRows; ++rows) {
    const Proc spec = dot_tile_spec(g, rows);
    p = replace_all(p, spec);
    const Proc kernel = schedule_dot_kernel(g, spec, rows);
    for (Cursor c : p.find_all(spec.name() + "(_)")) p = call_eqv(p, c, kernel);
  }
  return simplify(p);
}

}  // namespace blas_example
