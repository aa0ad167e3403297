// ============================================================================================
// parallelize_loop: make a sequential loop parallel.
// ============================================================================================
//
//   for i in seq(lo, hi): s   -->   for i in par(lo, hi): s
//
// Legal when the checker proves no two iterations conflict (checker::loop_is_parallelizable):
// reductions into one location by two iterations are a data race too. Codegen lowers `par` to
// an OpenMP parallel loop. A loop whose body allocates in static storage (DRAM_STATIC, also in
// a callee) is refused: its threads would share the one array. A loop that is already parallel
// is left as it is. Nothing moves. The step is set_loop_mode's (set_loop_mode.cpp).
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc parallelize_loop(const Proc& p, const CursorLike& loop) {
  return rw::run_op("parallelize_loop", [&]() -> Proc {
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    if (is_cuda(f->mode))
      rw::fail(reason::kLoopMode, c,
               "loop '" + f->iter.name() + "' is a " + to_string(f->mode) +
                   " loop; set_loop_mode changes it into another mode");
    return rw::set_loop_mode_at(p, c, LoopMode::Par);
  });
}

}  // namespace exocpp
