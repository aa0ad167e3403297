// ============================================================================================
// set_loop_mode: run a loop's iterations another way (sequentially, on CPU threads, or as CUDA
// blocks, threads or warps).
// ============================================================================================
//
//   for i in m(lo, hi): s   -->   for i in mode(lo, hi): s
//
// Nothing moves and no value changes in the interpreter, which runs every mode in order. What
// must hold is that the new mode's parallel run computes that same thing:
//  - a parallel mode (every mode but seq): no two iterations conflict (reductions into one
//    location are races too), proved by checker::loop_is_parallelizable;
//  - par: the body allocates nothing in static storage (its threads would share it);
//  - the CUDA modes: the result meets the kernel structure rules (core/typecheck_cuda.cpp) and
//    the kernel race rule (checker::kernel_is_race_free), which run_op's well-formedness check
//    proves of every new or changed kernel.
// Going to seq is always legal: running iterations in order is one of the orders the parallel
// mode allowed.
#include "checker/queries.h"
#include "core/typecheck.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace rw {

Proc set_loop_mode_at(const Proc& p, const Cursor& c, LoopMode mode) {
  const ForNode* f = as_loop(c);
  const Loc& l = c.loc();
  if (f->mode == mode) return Edit(p).done();
  if (mode == LoopMode::Par)
    if (std::optional<SharedAlloc> sh = shared_alloc_in(f->body))
      fail(reason::kAllocSharedByParallel, sh->at.srcinfo(),
           "loop '" + f->iter.name() + "' allocates " + sh->what +
               " in static storage, which all its parallel iterations would share "
               "(a data race); allocate it in DRAM or DRAM_STACK first (set_memory)");
  if (is_parallel(mode)) {
    checker::Context ctx = checker::Context::at(p, l.block, l.lo);
    require_proved(
        c, checker::loop_is_parallelizable(ctx, c.stmt()),
        [&] { return "the iterations of loop '" + f->iter.name() + "' are independent"; },
        reason::kCheckerParConflict);
  }
  Stmt s = ForNode::make(f->iter, f->lo, f->hi, f->body, mode, c.stmt().srcinfo());
  return Edit(p).rewrite(l.block, l.lo, l.lo + 1, {s}).done();
}

}  // namespace rw

Proc set_loop_mode(const Proc& p, const CursorLike& loop, const std::string& mode) {
  return rw::run_op("set_loop_mode", [&]() -> Proc {
    Cursor c = rw::resolve_loop(p, loop);
    std::optional<LoopMode> m = loop_mode_named(mode);
    if (!m)
      rw::fail(reason::kArgInvalid, c,
               "mode must be one of seq, par, cuda_blocks, cuda_threads, cuda_warps; "
               "got \"" +
                   mode + "\"");
    return rw::set_loop_mode_at(p, c, *m);
  });
}

}  // namespace exocpp
