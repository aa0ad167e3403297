// ============================================================================================
// compute_and_store_at: Halide's compute_at (with its default store_at at the same level) for
// a producer whose values a consumer loop reads with a halo, written only with primitives.
// ============================================================================================
//
// See rewrites/composites.h for the rewrite rule. For each consumer loop, the box of f that
// one iteration reads is inferred (core/bounds_inference.h) and staged into a buffer local to
// the iteration (stage_mem, whose checker proves the box covers every read); then the producer
// disappears into those copies (compute_inline, which proves every copied element is one the
// producer wrote, that nothing it reads changes before the copies, and that the copies store
// what f's store did). No legality reasoning of its own: a refusal names the primitive.
#include "core/bounds_inference.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// The buffer the producer nest computes: the last assignment of its innermost body.
Sym produced_buffer(const Cursor& producer) {
  const AssignNode* a = rw::producer_nest(producer.stmt()).store;
  if (!a)
    rw::fail(reason::kStmtForm, producer,
             "the producer must be a loop nest ending in one assignment");
  return a->name;
}

}  // namespace

Proc compute_and_store_at(const Proc& p, const CursorLike& producer,
                          const std::vector<CursorLike>& at) {
  return rw::run_op("compute_and_store_at", [&]() -> Proc {
    Cursor prod = rw::resolve_stmt(p, producer);
    const Sym f = produced_buffer(prod);
    if (at.empty())
      rw::fail(reason::kArgInvalid, prod, "expected at least one consumer loop or block");
    std::vector<Cursor> places;
    for (const CursorLike& l : at)
      places.push_back(!l.is_pattern() && l.cursor().is_block() ? rw::resolve_block(p, l)
                                                                : rw::resolve_loop(p, l));
    Proc q = p;
    for (const Cursor& place : places) {
      Cursor at = q.forward(place);
      // A loop: the region one iteration reads, staged in its body. A block: the region the
      // whole block reads, staged around it once.
      const ForNode* fl = at.is_block() ? nullptr : at.stmt().as<ForNode>();
      Block code;
      if (fl) {
        code = fl->body;
      } else {
        for (int k = 0; k < at.size(); ++k) code.push_back(at[k].stmt());
      }
      const std::string where =
          fl ? "one iteration of loop '" + fl->iter.name() + "'" : "the block";
      std::string why;
      std::optional<std::vector<BoxDim>> box = accessed_box(code, f, &why);
      if (!box)
        rw::fail(reason::kRegionNotInferred, at,
                 "cannot infer the part of '" + f.name() + "' " + where + " reads: " + why);
      // A region that is always empty (the code is a loop of no iterations) cannot be staged:
      // a buffer of extent 0 is not a type. A region that is empty only for some sizes is fine
      // (a buffer of no elements, which no code reads).
      for (size_t d = 0; d < box->size(); ++d) {
        const Expr extent = simplify_expr(rw::mk_sub((*box)[d].hi, (*box)[d].lo));
        const ConstNode* k = extent.as<ConstNode>();
        if (k && k->is_int() && k->int_val() <= 0)
          rw::fail(reason::kRegionEmpty, at,
                   "the part of '" + f.name() + "' " + where +
                       " reads is always empty (dimension " + std::to_string(d) + ": [" +
                       to_string((*box)[d].lo) + ", " + to_string((*box)[d].hi) +
                       ")): that code never runs; leave it out (divide by a factor that leaves "
                       "a tail, or remove the empty loop first)");
      }
      std::string window = f.name() + "[";
      for (size_t d = 0; d < box->size(); ++d)
        window += (d ? ", " : "") + to_string((*box)[d].lo) + ":" + to_string((*box)[d].hi);
      window += "]";
      const std::string suffix = fl ? fl->iter.name() : "block";
      q = stage_mem(q, fl ? at.body() : at, window, rw::unused_name(q, f.name() + "_" + suffix));
    }
    return simplify(compute_inline(q, q.forward(prod)));
  });
}

}  // namespace exocpp
