// CSR SpMV onto AVX-512 (value_control_schedule.h): the rows in parallel; a row with at least a
// register's width of nonzeros sums them in one register of lanes (rfactor), each group of
// nonzeros a load of val, a gather of x through col and a multiply-add; the lanes added into the
// row's sum after the groups, the last nonzeros scalar. Shorter rows stay scalar.
#include <hwlibs/x86/x86.h>
#include <schedlib/schedlib.h>

#include <vector>

#include "value_control_schedule.h"

namespace value_control {

using namespace exocpp;

Proc schedule_spmv(Proc p, bool f64) {
  const int w = f64 ? 8 : 16;
  // Each row's sum in a scalar (a register in C) instead of y[i] in memory, whose stores the C
  // compiler must keep (x, val and y may alias as far as it knows).
  p = stage_mem(p, p.find_loop("j"), "y[i]", "acc");
  // Lanes pay for themselves only on rows of a register's width or more (starting and folding
  // them costs w adds): the row's loop specialized on it, the other branch left scalar. The
  // condition also gives rfactor the range it needs (rowptr is data: a malformed row, which
  // runs backwards and so has no nonzeros, takes the scalar branch).
  p = specialize(p, p.find_loop("j"), {"rowptr[i] + " + std::to_string(w) + " <= rowptr[i + 1]"});
  // for jo: for ll in seq(0, w): acc_lanes[ll] += val[..] * x[col[..]]; the lanes start at 0
  // and are added into acc in lane order after the groups. One register: the gathers, not the
  // multiply-add chain, bound a group.
  p = rfactor(p, p.find_loop("j"), w, {.outer = "jo", .lane = "ll"});
  p = simplify(p);
  // The lanes' val elements loaded, their x elements gathered through col.
  p = schedlib::to_register(p, find_all(p.find_loop("jo"), "x[_]"), "xv", w);
  p = schedlib::to_register(p, find_all(p.find_loop("jo"), "val[_]"), "vv", w);
  for (const char* reg : {"acc_lanes", "xv", "vv"}) p = set_memory(p, reg, x86::AVX512);
  const std::vector<x86::InstrRef> instructions =
      f64 ? std::vector<x86::InstrRef>{x86::mm512_setzero_pd, x86::mm512_loadu_pd,
                                       x86::mm512_i32gather_pd, x86::mm512_fmadd_pd,
                                       x86::mm512_reduce_add_pd}
          : std::vector<x86::InstrRef>{x86::mm512_setzero_ps, x86::mm512_loadu_ps,
                                       x86::mm512_i32gather_ps, x86::mm512_fmadd_ps,
                                       x86::mm512_reduce_add_ps};
  for (const x86::InstrRef& i : instructions) p = replace_all(p, i);
  typecheck(p);  // no plain code left touching a register
  // The rows in parallel: each writes only its own y[i], over its data-dependent range.
  return parallelize_loop(p, p.find_loop("i"));
}

}  // namespace value_control
