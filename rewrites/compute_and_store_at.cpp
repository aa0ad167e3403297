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
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

const char* kOp = "compute_and_store_at";

// The buffer the producer nest computes: the last assignment of its innermost body.
Sym produced_buffer(const Cursor& producer) {
  Stmt s = producer.stmt();
  Block body;
  while (const ForNode* f = s.as<ForNode>()) {
    body = f->body;
    if (body.size() != 1) break;
    s = body[0];
  }
  const AssignNode* a = body.empty() ? nullptr : body.back().as<AssignNode>();
  if (!a) rw::fail(kOp, producer, "the producer must be a loop nest ending in one assignment");
  return a->name;
}

// `base`, or `base_1`, `base_2`, .. : a name bound nowhere in `p`.
std::string unused_name(const Proc& p, const std::string& base) {
  const std::vector<std::string> taken = rw::bound_names(p);
  std::string name = base;
  for (int k = 1; std::find(taken.begin(), taken.end(), name) != taken.end(); ++k)
    name = base + "_" + std::to_string(k);
  return name;
}

}  // namespace

Proc compute_and_store_at(const Proc& p, const CursorLike& producer,
                          const std::vector<CursorLike>& at_loops) {
  return rw::run_op(kOp, [&]() -> Proc {
    Cursor prod = rw::resolve_stmt(kOp, p, producer);
    const Sym f = produced_buffer(prod);
    if (at_loops.empty()) rw::fail_argument(kOp, prod, "expected at least one consumer loop");
    std::vector<Cursor> loops;
    for (const CursorLike& l : at_loops) loops.push_back(rw::resolve_loop(kOp, p, l));
    Proc q = p;
    for (const Cursor& l : loops) {
      Cursor loop = q.forward(l);
      const ForNode* fl = loop.stmt().as<ForNode>();
      std::string why;
      std::optional<std::vector<BoxDim>> box = accessed_box(fl->body, f, &why);
      if (!box)
        rw::fail(kOp, loop,
                 "cannot infer the part of '" + f.name() + "' one iteration of loop '" +
                     fl->iter.name() + "' reads: " + why);
      std::string window = f.name() + "[";
      for (size_t d = 0; d < box->size(); ++d)
        window += (d ? ", " : "") + to_string((*box)[d].lo) + ":" + to_string((*box)[d].hi);
      window += "]";
      q = stage_mem(q, loop.body(), window, unused_name(q, f.name() + "_" + fl->iter.name()));
    }
    return simplify(compute_inline(q, q.forward(prod)));
  });
}

}  // namespace exocpp
