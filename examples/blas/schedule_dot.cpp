// The dot-product GEMM schedule (see schedule_dot.h). The plan:
//
//   for jb (64-column panels of B):                 reorder_loops
//     for io (6 rows):                              divide_loop i, cut_and_guard: a row tail
//       gemm_<name>_6x64(K, A[..], Bp[jb], C[..])   replace by the 6-row tile, call_eqv
//     if M % 6 == r: gemm_<name>_rx64(...)          specialize the tail per row count r (1..5),
//                                                   each replaced by its r-row tile
//
// Panels outermost, so that a panel of B (K x 64 contiguous values) stays in cache while every
// row tile streams past it: with M of 1 to 16 (inference) B is read once to three times, each
// panel as one sequential stream.
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

Proc schedule_dot_gemm(const DotGemm& g) {
  Proc p = plain_dot_gemm(g);
  // Row tiles and the row tail: for io: for ii(6): for jb ; if M % 6 > 0: for ii(M % 6): for jb
  p = divide_loop(p, "i", kTileRows, {"io", "ii"}, {.tail = Tail::CutAndGuard});
  // The panels outermost, in both parts.
  p = reorder_loops(p, "ii jb #0");
  p = reorder_loops(p, "io jb");
  p = reorder_loops(p, "ii jb");
  p = lift_scope(p, "for jb in _: _ #1");  // if M % 6 > 0: for jb --> for jb: if M % 6 > 0
  p = fuse(p, "for jb in _: _ #0", "for jb in _: _ #1");
  p = simplify(p);
  // The tail, once per row count: M % 6 is 1, ..., 4, else 5.
  p = specialize_count(p, p.find("if M % 6 > 0: _"), "M % 6", kTileRows);
  for (int rows = 1; rows <= kTileRows; ++rows) {
    const Proc spec = dot_tile_spec(g, rows);
    p = replace_all(p, spec);
    const Proc kernel = schedule_dot_kernel(g, spec, rows);
    for (Cursor c : p.find_all(spec.name() + "(_)")) p = call_eqv(p, c, kernel);
  }
  return simplify(p);
}

}  // namespace blas_example
