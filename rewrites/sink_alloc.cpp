// sink_alloc: move an allocation into the loop or if right after it.
//
//   buf : T                        for i in _:
//   for i in _:          -->           buf : T
//       s                              s
//
// For an if, the allocation goes into its body, and into its else branch as well when that
// uses buf. Legality: buf is not used after the loop or if; for a loop, no iteration reads a
// value of buf that an earlier iteration wrote (checker::can_lift_alloc on the sunk loop). The
// shape is then evaluated at the top of every iteration instead of once before the loop: the
// checker proves the loop writes nothing it reads (checker::value_unchanged_by).
#include "checker/context.h"
#include "checker/queries.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc sink_alloc(const Proc& p, const CursorLike& alloc) {
  return rw::run_op("sink_alloc", [&]() -> Proc {
    Cursor a = rw::resolve_alloc(p, alloc);
    if (a.is_arg())
      rw::fail(reason::kTargetWrongKind, a, "'" + a.name() + "' is an argument, not an allocation");
    const Stmt alloc_stmt = a.stmt();
    const AllocNode* an = alloc_stmt.as<AllocNode>();
    const BlockPath path = a.loc().block;
    const int ai = a.loc().lo;
    const Block& list = a.list();
    if (ai + 1 >= static_cast<int>(list.size()) ||
        !(list[ai + 1].is<ForNode>() || list[ai + 1].is<IfNode>()))
      rw::fail(reason::kStmtForm, a,
               "the statement after '" + a.name() + "' must be a loop or an if to sink into");
    const Stmt scope = list[ai + 1];
    for (size_t k = ai + 2; k < list.size(); ++k)
      if (rw::buffer_uses(list[k], an->name).any())
        rw::fail(
            reason::kScopeEscapes, a,
            "'" + a.name() + "' is used after the " + (scope.is<ForNode>() ? "loop" : "if") +
                ": '" +
                Cursor(
                    p,
                    Loc{CursorKind::Stmt, path, static_cast<int>(k), static_cast<int>(k) + 1, {}})
                    .to_string() +
                "'");

    BlockPath inner = path;
    inner.push_back({ai, BlockField::Body});
    // The allocation moves to the front of the scope's body; an else branch that uses the
    // buffer gets its own allocation (a fresh name) at its front.
    rw::Edit edit(p);
    edit.move(path, ai, inner, 0);
    if (const ForNode* f = scope.as<ForNode>()) {
      if (mentions(f->lo, an->name) || mentions(f->hi, an->name))
        rw::fail(reason::kScopeEscapes, a,
                 "the bounds of loop '" + f->iter.name() + "' use '" + a.name() + "'");
      for (const Expr& d : an->type.shape)
        rw::require_unchanged(a, checker::Context::at(p, path, ai), d, {scope}, [&] {
          return "the extent '" + to_string(d) + "' of '" + a.name() +
                 "', evaluated in every iteration,";
        });
      const Stmt sunk = stmt_at(edit.body(), path, ai);
      checker::Answer ans =
          checker::can_lift_alloc(checker::Context::at(p, scope), sunk, alloc_stmt);
      rw::require_proved(a, ans, [&] {
        return "no iteration of loop '" + f->iter.name() + "' reads a value of '" + a.name() +
               "' written by an earlier one";
      });
    } else {
      const IfNode* i = scope.as<IfNode>();
      if (mentions(i->cond, an->name))
        rw::fail(reason::kScopeEscapes, a, "the condition of the if uses '" + a.name() + "'");
      const Block& e = i->orelse;
      if (rw::buffer_uses(e, an->name).any()) {
        Sym copy = an->name.copy();
        rw::AccessMap m;
        m.buf = an->name;
        m.new_name = copy;
        BlockPath other = path;
        other.push_back({ai, BlockField::Orelse});
        edit.rewrite(other, 0, static_cast<int>(e.size()), rw::map_accesses(e, m))
            .insert(other, 0, {AllocNode::make(copy, an->type, an->mem, an->srcinfo)});
      }
    }
    return edit.done();
  });
}

}  // namespace exocpp
