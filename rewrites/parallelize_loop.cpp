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
// is left as it is. Nothing moves.
#include "checker/queries.h"
#include "core/typecheck.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc parallelize_loop(const Proc& p, const CursorLike& loop) {
  const std::string op = "parallelize_loop";
  return rw::run_op(op, [&]() -> Proc {
    Cursor c = rw::resolve_loop(op, p, loop);
    const ForNode* f = rw::as_loop(op, c);
    const Loc& l = c.loc();
    if (f->mode == LoopMode::Par) return rw::Edit(p).done();

    // Each iteration's allocations are private to it in the interpreter, but one with static
    // storage is one array for all threads (core's shared_alloc_in, which codegen asks too).
    if (std::optional<SharedAlloc> sh = shared_alloc_in(f->body))
      rw::fail(op, sh->at.srcinfo(),
               "loop '" + f->iter.name() + "' allocates " + sh->what +
                   " in static storage, which all its parallel iterations would share "
                   "(a data race); allocate it in DRAM or DRAM_STACK first (set_memory)");
    checker::Context ctx = checker::Context::at(p, l.block, l.lo);
    rw::require_proved(op, c, checker::loop_is_parallelizable(ctx, c.stmt()), [&] {
      return "the iterations of loop '" + f->iter.name() + "' are independent";
    });

    Stmt par = ForNode::make(f->iter, f->lo, f->hi, f->body, LoopMode::Par, c.stmt().srcinfo());
    return rw::Edit(p).rewrite(l.block, l.lo, l.lo + 1, {par}).done();
  });
}

}  // namespace exocpp
