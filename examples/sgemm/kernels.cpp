// The SGEMM tile kernels (see kernels.h), scheduled from their specifications with the x86
// library's instructions.
#include "kernels.h"

#include <hwlibs/x86/x86.h>

namespace sgemm_example {

using namespace exocpp;

namespace {

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

// Every 16-lane load, store and broadcast fmadd of a register tile, plain and masked, becomes
// its AVX-512 instruction.
Proc to_vector_instructions(Proc p) {
  for (const x86::InstrRef& ins :
       {x86::mm512_loadu_ps, x86::mm512_storeu_ps, x86::mm512_fmadd_ps_broadcast,
        x86::mm512_mask_loadu_ps, x86::mm512_mask_storeu_ps, x86::mm512_mask_fmadd_ps_broadcast})
    p = replace_all(p, ins);
  return p;
}

// Unrolls every loop named `iter` (innermost first is not needed: unrolling copies bodies).
Proc unroll_all(Proc p, const std::string& iter) {
  while (!p.find_all("for " + iter + " in _: _").empty())
    p = unroll_loop(p, "for " + iter + " in _: _");
  return p;
}

}  // namespace

Proc schedule_kernel_6x64(const Proc& spec) {
  Proc p = rename(spec, "gemm_6x64_avx512");
  // for k: for i: for j
  p = reorder_loops(p, "j k");
  p = reorder_loops(p, "i k");
  // C lives in 6 x 4 zmm registers for the whole K loop.
  p = stage_mem(p, "for k in _: _", "C[0:6, 0:64]", "C_reg");
  p = divide_dim(p, "C_reg", 1, 16);
  p = set_memory(p, "C_reg", x86::AVX512);
  p = divide_loop(p, "j", 16, {"jo", "ji"}, {.perfect = true});
  p = divide_loop(p, "i1 #0", 16, {"i1o", "i1i"}, {.perfect = true});
  p = divide_loop(p, "i1 #0", 16, {"i1o", "i1i"}, {.perfect = true});
  p = simplify(p);
  // Per k: the 64 B values of row k in 4 registers, loaded before the row loop.
  p = stage_mem(p, "for i in _: _", "B[k, 0:64]", "B_reg");
  p = divide_dim(p, "B_reg", 0, 16);
  p = set_memory(p, "B_reg", x86::AVX512);
  p = divide_loop(p, p.find("B_reg[_] = _").parent(), 16, {"i0o", "i0i"}, {.perfect = true});
  p = simplify(p);
  // C_reg[i, jo, :] += A[i, k] * B_reg[jo, :]: one broadcast-fmadd each.
  p = replace_all(p, x86::mm512_loadu_ps);
  p = replace_all(p, x86::mm512_storeu_ps);
  p = replace_all(p, x86::mm512_fmadd_ps_broadcast);
  // Constant register names: unroll the row and vector loops.
  for (const char* iter : {"jo", "i", "i1o", "i0", "i0o"}) p = unroll_all(p, iter);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

Proc schedule_kernel_6xn(const Proc& spec) {
  Proc p = rename(spec, "gemm_6xn_avx512");
  // for i: for j in 64 (guarded j < N) as 4 vectors: for i: for jo: for ji: if 16 jo + ji < N
  p = bound_and_guard(p, "for j in _: _", "64");
  p = divide_loop(p, "j", 16, {"jo", "ji"}, {.perfect = true});
  // k outermost: for k: for i: for jo: for ji: if ...
  p = lift_scope(p, "for k in _: _");
  for (const char* loops : {"ji k", "jo k", "i k"}) p = reorder_loops(p, loops);
  // C in 6 x 4 registers across the K loop; per k, B's row in 4.
  p = stage_mem(p, "for k in _: _", "C[0:6, 0:N]", "C_reg");
  p = resize_dim(p, "C_reg", 1, "64", "0");
  p = divide_dim(p, "C_reg", 1, 16);
  p = stage_mem(p, "for i in _: _", "B[k, 0:N]", "B_reg");
  p = resize_dim(p, "B_reg", 0, "64", "0");
  p = divide_dim(p, "B_reg", 0, 16);
  // Their copies as 4 guarded vectors too (v, l).
  for (const char* copy : {"for i1 in _: _ #0", "for i1 in _: _ #1", "for i0_1 in _: _"})
    p = bound_and_guard(p, copy, "64");
  for (const char* copy : {"for i1 in _: _ #0", "for i1 in _: _", "for i0_1 in _: _"})
    p = divide_loop(p, copy, 16, {"v", "l"}, {.perfect = true});
  p = simplify(p);
  // Every lane guard in a masked instruction's form: `16 v + l < N` --> `l < N - 16 v`.
  for (Cursor guard : p.find_all("if _ < N: _")) {
    const Cursor lanes = guard.parent(), vector = lanes.parent();
    p = rewrite_expr(p, guard.cond(), lanes.name() + " < N - 16 * " + vector.name());
  }
  // One version per number of vectors: with 16 q < N <= 16 (q + 1), vectors below q are full,
  // vector q holds N - 16 q columns (1 to 16: a masked instruction's count), the rest none.
  p = specialize(p, p.body_cursor().slice(1, 4), {"N <= 16", "N <= 32", "N <= 48"});
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
  for (const char* lanes : {"for l in _: _", "for ji in _: _"})  // vectors with no columns
    for (Cursor loop : p.find_all(lanes))
      if (loop.body().size() == 1 && loop.body()[0].to_string() == "pass") p = remove_loop(p, loop);
  p = delete_pass(p);
  for (const char* reg : {"C_reg: _", "B_reg: _"})
    for (Cursor alloc : p.find_all(reg)) p = set_memory(p, alloc, x86::AVX512);
  p = to_vector_instructions(p);
  // Constant register names: unroll the rows.
  for (const char* iter : {"i", "i0"}) p = unroll_all(p, iter);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

Proc schedule_kernel_edge(const Proc& spec) {
  Proc p = rename(spec, "gemm_edge_avx512");
  // for i: [for jo: for ji(16): for k] ; [if N % 16 > 0: for ji(N % 16): for k]
  p = divide_loop(p, "j", 16, {"jo", "ji"}, {.tail = Tail::CutAndGuard});
  p = reorder_loops(p, "ji k #0");
  p = reorder_loops(p, "ji k #0");
  // Full vectors: for jo: C_reg over k, B row loaded, A broadcast into the fmadd.
  p = stage_mem(p, "for k in _: _ #0", "C[i, 16 * jo:16 * jo + 16]", "C_reg");
  p = set_memory(p, "C_reg", x86::AVX512);
  p = stage_lanes(p, "B[_] #0", "B_reg", "ji", "16");
  // The last N % 16 columns: the same with masked instructions.
  p = stage_mem(p, "for k in _: _ #1", "C[i, 16 * (N / 16):16 * (N / 16) + N % 16]", "C_tail");
  p = resize_dim(p, "C_tail", 0, "16", "0");
  p = set_memory(p, "C_tail", x86::AVX512);
  p = stage_lanes(p, "B[_] #1", "B_tail", "ji", "16");
  for (Cursor loop : p.find_all("for _ in seq(0, N % 16): _")) p = bound_and_guard(p, loop, "16");
  p = simplify(p);
  p = to_vector_instructions(p);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

Proc replace_tiles(const Proc& tiled, const Module& specs, const ScheduleOptions& opts) {
  Proc spec_6x64 = specs.proc("gemm_6x64"), spec_6xn = specs.proc("gemm_6xn"),
       spec_edge = specs.proc("gemm_edge");
  Proc p = replace_all(tiled, spec_6x64);
  p = replace_all(p, spec_6xn);
  p = replace_all(p, spec_edge);
  if (!opts.vectorize) return p;
  Proc k6x64 = schedule_kernel_6x64(spec_6x64), k6xn = schedule_kernel_6xn(spec_6xn),
       kedge = schedule_kernel_edge(spec_edge);
  for (Cursor c : p.find_all("gemm_6x64(_)")) p = call_eqv(p, c, k6x64);
  for (Cursor c : p.find_all("gemm_6xn(_)")) p = call_eqv(p, c, k6xn);
  for (Cursor c : p.find_all("gemm_edge(_)")) p = call_eqv(p, c, kedge);
  return p;
}

}  // namespace sgemm_example
