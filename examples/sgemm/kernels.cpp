// The SGEMM tile kernels (see kernels.h), scheduled from their specifications with the x86
// library's instructions.
#include "kernels.h"

#include <hwlibs/x86/x86.h>

namespace sgemm_example {

using namespace exocpp;

namespace {

// `x = ...; use(x)` inside the innermost loop `v` (16 iterations) becomes a 16-wide register
// buffer filled by its own loop before the loop nest of depth `depth` that holds the use:
//   for v: new_buf[v] = <expr>          (then replaced by a load or broadcast instruction)
//   for ...: for v: ... new_buf[v] ...
Proc stage_vector_operand(Proc p, const std::string& expr_pattern, const std::string& new_buf,
                          const std::string& lane_iter, const std::string& lanes, int depth) {
  p = bind_expr(p, expr_pattern, new_buf);
  p = expand_dim(p, new_buf, lanes, lane_iter);
  p = lift_alloc(p, new_buf, {.n_lifts = depth});
  p = fission(p, p.find(new_buf + "[_] = _").after(), {.n_lifts = depth});
  return set_memory(p, new_buf, x86::AVX512);
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
  p = divide_loop(p, "i0 #1", 16, {"i0o", "i0i"}, {.perfect = true});
  p = simplify(p);
  // Per (k, i): A[i, k] broadcast into one register, shared by the four fmadds.
  p = stage_vector_operand(p, "A[_]", "A_reg", "ji", "16", 2);
  p = remove_loop(p, "for jo in _: _ #0");
  p = simplify(p);
  p = replace_all(p, x86::mm512_loadu_ps);
  p = replace_all(p, x86::mm512_storeu_ps);
  p = replace_all(p, x86::mm512_set1_ps);
  p = replace_all(p, x86::mm512_fmadd_ps);
  // Constant register names: unroll the row and vector loops.
  for (const char* loop : {"jo", "i", "i1o", "i0", "i0o"})
    while (!p.find_all("for " + std::string(loop) + " in _: _").empty())
      p = unroll_loop(p, "for " + std::string(loop) + " in _: _");
  return simplify(p);
}

Proc schedule_kernel_edge(const Proc& spec) {
  Proc p = rename(spec, "gemm_edge_avx512");
  // for i: [for jo: for ji(16): for k] ; [if N % 16 > 0: for ji(N % 16): for k]
  p = divide_loop(p, "j", 16, {"jo", "ji"}, {.tail = Tail::CutAndGuard});
  // Full vectors: for i: for jo: for k: for ji(16).
  p = reorder_loops(p, "ji k");
  p = stage_mem(p, "for k in _: _ #0", "C[i, 16 * jo:16 * jo + 16]", "C_reg");
  p = set_memory(p, "C_reg", x86::AVX512);
  p = stage_vector_operand(p, "B[_]", "B_reg", "ji", "16", 1);
  p = stage_vector_operand(p, "A[_]", "A_reg", "ji", "16", 1);
  p = replace_all(p, x86::mm512_loadu_ps);
  p = replace_all(p, x86::mm512_storeu_ps);
  p = replace_all(p, x86::mm512_set1_ps);
  p = replace_all(p, x86::mm512_fmadd_ps);
  return simplify(p);
}

Proc replace_tiles(const Proc& tiled, const Module& specs, const ScheduleOptions& opts) {
  Proc spec_6x64 = specs.proc("gemm_6x64"), spec_edge = specs.proc("gemm_edge");
  Proc p = replace_all(tiled, spec_6x64);
  p = replace_all(p, spec_edge);
  if (!opts.vectorize) return p;
  Proc k6x64 = schedule_kernel_6x64(spec_6x64), kedge = schedule_kernel_edge(spec_edge);
  for (Cursor c : p.find_all("gemm_6x64(_)")) p = call_eqv(p, c, k6x64);
  for (Cursor c : p.find_all("gemm_edge(_)")) p = call_eqv(p, c, kedge);
  return p;
}

}  // namespace sgemm_example
