// The GEMM tile kernels (see kernels.h), scheduled from their specifications with the x86
// library's instructions. Every size in them is the precision's: `lanes` elements per
// register, NR = 4 * lanes columns per tile.
#include "kernels.h"

#include <hwlibs/x86/x86.h>

#include "loop_helpers.h"

namespace blas_example {

using namespace exocpp;

namespace {

std::string str(int n) { return std::to_string(n); }

// The AVX-512 instructions a register tile needs, at one precision.
struct VectorInstructions {
  x86::InstrRef load, store, fmadd_broadcast, mask_load, mask_store, mask_fmadd_broadcast;
};

VectorInstructions vector_instructions(const Precision& prec) {
  if (prec.lanes == 16)
    return {x86::mm512_loadu_ps,           x86::mm512_storeu_ps,
            x86::mm512_fmadd_ps_broadcast, x86::mm512_mask_loadu_ps,
            x86::mm512_mask_storeu_ps,     x86::mm512_mask_fmadd_ps_broadcast};
  return {x86::mm512_loadu_pd,      x86::mm512_storeu_pd,      x86::mm512_fmadd_pd_broadcast,
          x86::mm512_mask_loadu_pd, x86::mm512_mask_storeu_pd, x86::mm512_mask_fmadd_pd_broadcast};
}

// `... e ...` inside the lane loop `lane_iter` becomes a register buffer filled by its own lane
// loop just before (a load, once replaced):
//   for lane_iter: new_buf[lane_iter] = e
//   for lane_iter: ... new_buf[lane_iter] ...
Proc stage_lanes(Proc p, const CursorLike& expr, const std::string& new_buf,
                 const std::string& lane_iter, const std::string& lanes) {
  p = bind_expr(p, expr, new_buf);
  p = expand_dim(p, new_buf, lanes, lane_iter);
  p = lift_alloc(p, new_buf);
  p = fission(p, p.find(new_buf + "[_] = _").after());
  return set_memory(p, new_buf, x86::AVX512);
}

// Every full-register load, store and broadcast fmadd of a register tile, plain and masked,
// becomes its AVX-512 instruction.
Proc to_vector_instructions(Proc p, const Precision& prec) {
  const VectorInstructions v = vector_instructions(prec);
  for (const x86::InstrRef& ins :
       {v.load, v.store, v.fmadd_broadcast, v.mask_load, v.mask_store, v.mask_fmadd_broadcast})
    p = replace_all(p, ins);
  return p;
}

}  // namespace

Tiles Tiles::of(const Module& gemm_exo, const Precision& prec) {
  Tiles t{{},
          instantiate(gemm_exo.proc("gemm_tile_right"), prec),
          instantiate(gemm_exo.proc("gemm_tile_bottom"), prec)};
  const Proc full = instantiate(gemm_exo.proc("gemm_tile"), prec);
  for (int rows = 1; rows <= prec.tile_rows(); ++rows)
    t.full.push_back(rename(partial_eval(full, {{"MR", rows}}), full.name() + "_" + str(rows)));
  return t;
}

Proc schedule_kernel_full(const Proc& spec, int rows, const Precision& prec) {
  const std::string nr = str(prec.tile_columns());
  Proc p = rename(spec, spec.name() + "_avx512");
  // for k: for i: for j
  p = reorder_loops(p, "j k");
  p = reorder_loops(p, "i k");
  // C lives in rows x 4 zmm registers for the whole K loop.
  p = stage_mem(p, "for k in _: _", "C[0:" + str(rows) + ", 0:" + nr + "]", "C_reg");
  p = divide_dim(p, "C_reg", 1, prec.lanes);
  p = set_memory(p, "C_reg", x86::AVX512);
  p = divide_loop(p, "j", prec.lanes, {"jo", "ji"}, {.perfect = true});
  p = divide_loop(p, "i1 #0", prec.lanes, {"i1o", "i1i"}, {.perfect = true});
  p = divide_loop(p, "i1 #0", prec.lanes, {"i1o", "i1i"}, {.perfect = true});
  p = simplify(p);
  // Per k: the NR B values of row k in 4 registers, loaded before the row loop.
  p = stage_mem(p, "for i in _: _", "B[k, 0:" + nr + "]", "B_reg");
  p = divide_dim(p, "B_reg", 0, prec.lanes);
  p = set_memory(p, "B_reg", x86::AVX512);
  p = divide_loop(p, p.find("B_reg[_] = _").parent(), prec.lanes, {"i0o", "i0i"},
                  {.perfect = true});
  p = simplify(p);
  // C_reg[i, jo, :] += A[i, k] * B_reg[jo, :]: one broadcast-fmadd each.
  p = to_vector_instructions(p, prec);
  // Constant register names: unroll the row and vector loops.
  for (const char* iter : {"jo", "i", "i1o", "i0", "i0o"}) p = unroll_all(p, iter);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

Proc schedule_kernel_right(const Proc& spec, const Precision& prec) {
  const std::string lanes = str(prec.lanes), nr = str(prec.tile_columns());
  Proc p = rename(spec, spec.name() + "_avx512");
  // for i: for j in NR (guarded j < N) as 4 vectors: for i: for jo: for ji: if L jo + ji < N
  p = bound_and_guard(p, "for j in _: _", nr);
  p = divide_loop(p, "j", prec.lanes, {"jo", "ji"}, {.perfect = true});
  // k outermost: for k: for i: for jo: for ji: if ...
  p = lift_scope(p, "for k in _: _");
  for (const char* loops : {"ji k", "jo k", "i k"}) p = reorder_loops(p, loops);
  // C in 6 x 4 registers across the K loop; per k, B's row in 4.
  p = stage_mem(p, "for k in _: _", "C[0:6, 0:N]", "C_reg");
  p = resize_dim(p, "C_reg", 1, nr, "0");
  p = divide_dim(p, "C_reg", 1, prec.lanes);
  p = stage_mem(p, "for i in _: _", "B[k, 0:N]", "B_reg");
  p = resize_dim(p, "B_reg", 0, nr, "0");
  p = divide_dim(p, "B_reg", 0, prec.lanes);
  // Their copies as 4 guarded vectors too (v, l).
  for (const char* copy : {"for i1 in _: _ #0", "for i1 in _: _ #1", "for i0_1 in _: _"})
    p = bound_and_guard(p, copy, nr);
  for (const char* copy : {"for i1 in _: _ #0", "for i1 in _: _", "for i0_1 in _: _"})
    p = divide_loop(p, copy, prec.lanes, {"v", "l"}, {.perfect = true});
  p = simplify(p);
  // Every lane guard in a masked instruction's form: `L v + l < N` --> `l < N - L v`.
  for (Cursor guard : p.find_all("if _ < N: _")) {
    const Cursor lane_loop = guard.parent(), vector = lane_loop.parent();
    p = rewrite_expr(p, guard.cond(), lane_loop.name() + " < N - " + lanes + " * " + vector.name());
  }
  // One version per number of vectors: with L q < N <= L (q + 1), vectors below q are full,
  // vector q holds N - L q columns (1 to L: a masked instruction's count), the rest none.
  p = specialize(p, p.body_cursor().slice(1, 4),
                 {"N <= " + lanes, "N <= " + str(2 * prec.lanes), "N <= " + str(3 * prec.lanes)});
  for (const char* vectors : {"for v in _: _", "for jo in _: _"})
    for (Cursor v : p.find_all(vectors)) p = unroll_loop(p, v);
  // The guards of full vectors and of vectors with no columns go; the masked vector's stays.
  for (Cursor guard : p.find_all("if _ < _: _")) {
    try {
      p = eliminate_dead_code(p, guard);
    } catch (const SchedulingError&) {
      // neither branch is dead: the masked vector, whose guard is the instruction's
    }
  }
  for (const char* lane_loops : {"for l in _: _", "for ji in _: _"})  // vectors with no columns
    for (Cursor loop : p.find_all(lane_loops))
      if (loop.body().size() == 1 && loop.body()[0].to_string() == "pass") p = remove_loop(p, loop);
  p = delete_pass(p);
  for (const char* reg : {"C_reg: _", "B_reg: _"})
    for (Cursor alloc : p.find_all(reg)) p = set_memory(p, alloc, x86::AVX512);
  p = to_vector_instructions(p, prec);
  // Constant register names: unroll the rows.
  for (const char* iter : {"i", "i0"}) p = unroll_all(p, iter);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

Proc schedule_kernel_bottom(const Proc& spec, const Precision& prec) {
  const std::string L = str(prec.lanes);
  Proc p = rename(spec, spec.name() + "_avx512");
  // for i: [for jo: for ji(L): for k] ; [if N % L > 0: for ji(N % L): for k]
  p = divide_loop(p, "j", prec.lanes, {"jo", "ji"}, {.tail = Tail::CutAndGuard});
  p = reorder_loops(p, "ji k #0");
  p = reorder_loops(p, "ji k #0");
  // Full vectors: for jo: C_reg over k, B row loaded, A broadcast into the fmadd.
  p = stage_mem(p, "for k in _: _ #0", "C[i, " + L + " * jo:" + L + " * jo + " + L + "]", "C_reg");
  p = set_memory(p, "C_reg", x86::AVX512);
  p = stage_lanes(p, "B[_] #0", "B_reg", "ji", L);
  // The last N % L columns: the same with masked instructions.
  const std::string tail_start = L + " * (N / " + L + ")";
  p = stage_mem(p, "for k in _: _ #1",
                "C[i, " + tail_start + ":" + tail_start + " + N % " + L + "]", "C_tail");
  p = resize_dim(p, "C_tail", 0, L, "0");
  p = set_memory(p, "C_tail", x86::AVX512);
  p = stage_lanes(p, "B[_] #1", "B_tail", "ji", L);
  for (Cursor loop : p.find_all("for _ in seq(0, N % " + L + "): _"))
    p = bound_and_guard(p, loop, L);
  p = simplify(p);
  p = to_vector_instructions(p, prec);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

Proc replace_tiles(const Proc& tiled, const Tiles& tiles, const Precision& prec,
                   const ScheduleOptions& opts) {
  // Full-width tiles first (6 rows, then the bottom rows' counts), then the right edge, then
  // the corner, whose specification would also match the others.
  Proc p = tiled;
  for (auto full = tiles.full.rbegin(); full != tiles.full.rend(); ++full)
    p = replace_all(p, *full);
  p = replace_all(p, tiles.right);
  p = replace_all(p, tiles.bottom);
  if (!opts.vectorize) return p;
  std::vector<std::pair<const Proc*, Proc>> kernels;
  for (size_t r = 0; r < tiles.full.size(); ++r)
    kernels.push_back({&tiles.full[r], schedule_kernel_full(tiles.full[r], int(r) + 1, prec)});
  kernels.push_back({&tiles.right, schedule_kernel_right(tiles.right, prec)});
  kernels.push_back({&tiles.bottom, schedule_kernel_bottom(tiles.bottom, prec)});
  for (const auto& [spec, kernel] : kernels)
    for (Cursor c : p.find_all(spec->name() + "(_)")) p = call_eqv(p, c, kernel);
  return p;
}

}  // namespace blas_example
