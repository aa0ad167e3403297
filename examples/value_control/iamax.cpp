// isamax / idamax onto AVX-512 (value_control_schedule.h): the argmax loop split into lanes by
// rfactor_argmax, each group of lanes one register of best values and one of their indices,
// updated under a compare mask; the lanes folded at the end; the last iterations scalar.
#include <hwlibs/x86/x86.h>

#include "value_control_schedule.h"

namespace value_control {

using namespace exocpp;

namespace {

// The register instructions of one precision.
struct ArgmaxInstructions {
  int width;  // lanes per register
  x86::InstrRef load, abs, update, merge, fold, broadcast_value, broadcast_index;
  x86::MemoryRef index_memory;  // where the lanes' i32 indices live
};

ArgmaxInstructions instructions(bool f64) {
  if (f64)
    return {8,
            x86::mm512_loadu_pd,
            x86::mm512_abs_pd,
            x86::mm512_argmax_update_pd,
            x86::mm512_argmax_merge_pd,
            x86::mm512_reduce_argmax_pd,
            x86::mm512_set1_scalar_pd,
            x86::mm256_set1_scalar_epi32,
            x86::AVX2};
  return {16,
          x86::mm512_loadu_ps,
          x86::mm512_abs_ps,
          x86::mm512_argmax_update_ps,
          x86::mm512_argmax_merge_ps,
          x86::mm512_reduce_argmax_ps,
          x86::mm512_set1_scalar_ps,
          x86::mm512_set1_scalar_epi32,
          x86::AVX512};
}

}  // namespace

Proc schedule_iamax(Proc p, bool f64) {
  const ArgmaxInstructions ins = instructions(f64);
  const int w = ins.width;
  // Two registers of lanes: two independent compare-and-update chains per group of 2 w (four
  // measured slower at n = 10^3, where up to 4 w - 1 iterations run in the scalar tail).
  const int registers = 2;
  // for io: for l in seq(0, 2 w): (lane l's best of the iterations 1 + 2 w io + l); after
  // the groups, lanes w.. merged into lanes 0..w-1 lane by lane, and those w folded.
  const std::string lanes = std::to_string(registers * w);
  p = rfactor_argmax(p, "for i in _: _", registers * w, {.merge_width = w});
  // The start: every lane holds (best, result): one broadcast per register.
  p = fission(p, p.find("best_lanes[_] = best").after());
  // The lane loops over all 2 w lanes as registers: for v in seq(0, 2): for ll in seq(0, w).
  for (Cursor loop : p.find_all("for l in _: _"))
    if (loop.hi().to_string() == lanes) p = divide_loop(p, loop, w, {"v", "ll"}, {.perfect = true});
  for (const char* buf : {"best_lanes", "result_lanes"}) p = divide_dim(p, buf, 0, w);
  p = simplify(p);
  p = set_memory(p, "best_lanes", x86::AVX512);
  p = set_memory(p, "result_lanes", ins.index_memory);
  // In each register of a group: ax = |x[...]| (one abs of one load), then the masked update.
  p = to_register(p, find_all(p.find_loop("io"), "abs(x[_])"), "ax", w);
  p = to_register(p, find_all(p.find("ax[_] = _"), "x[_]"), "xv", w);
  for (const char* reg : {"ax", "xv"}) p = set_memory(p, reg, x86::AVX512);
  for (const x86::InstrRef& i : {ins.load, ins.abs, ins.update, ins.merge, ins.fold,
                                 ins.broadcast_value, ins.broadcast_index})
    p = replace_all(p, i);
  for (const char* registers_loop : {"for v in _: _", "for g in _: _"})
    for (Cursor v : p.find_all(registers_loop)) p = unroll_loop(p, v);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

}  // namespace value_control
