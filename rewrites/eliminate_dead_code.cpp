// ============================================================================================
// eliminate_dead_code: remove code that never runs.
// ============================================================================================
//
//   if p: s1 else: s2   -->   s1          (p always holds)
//   if p: s1 else: s2   -->   s2          (p never holds; nothing when there is no else)
//   for i in seq(lo, hi): s   -->   (nothing)     (hi <= lo always)
//
// Decided by checker::always_true under the proc's asserts and the enclosing loops and
// if-conditions. A statement list left empty gets a `pass`. Forwarding: the kept branch's
// statements move up a level; the removed code's cursors become invalid.
#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc eliminate_dead_code(const Proc& p, const CursorLike& stmt) {
  return rw::run_op("eliminate_dead_code", [&]() -> Proc {
    Cursor c = rw::resolve_stmt(p, stmt);
    const Loc& l = c.loc();
    Stmt s = c.stmt();
    checker::Context ctx = checker::Context::at(p, l.block, l.lo);
    const bool only_stmt = c.list().size() == 1;
    auto remove = [&]() -> Proc {
      Block with;
      if (only_stmt) with.push_back(PassNode::make(s.srcinfo()));
      return rw::Edit(p).replace(l.block, l.lo, l.lo + 1, with).done();
    };

    if (const IfNode* n = s.as<IfNode>()) {
      checker::Answer yes = checker::always_true(ctx, n->cond);
      if (yes.proved()) {
        return rw::Edit(p).unwrap(l.block, l.lo, BlockField::Body).done();
      }
      Expr never = rw::mk_not(n->cond);
      checker::Answer no = checker::always_true(ctx, never);
      if (no.proved()) {
        if (n->orelse.empty()) return remove();
        return rw::Edit(p).unwrap(l.block, l.lo, BlockField::Orelse).done();
      }
      std::string why = yes.unknown()  ? " (" + yes.reason + ")"
                        : no.unknown() ? " (" + no.reason + ")"
                                       : "";
      rw::fail(reason::kCheckerRefuted, c,
               "the condition '" + to_string(n->cond) +
                   "' may be true or false, so neither branch is dead" + why);
    }
    if (const ForNode* f = s.as<ForNode>()) {
      Expr empty = rw::mk_cmp(BinOpKind::Le, f->hi, f->lo, s.srcinfo());
      rw::require_proved(c, checker::always_true(ctx, empty), [&] {
        return "the loop over '" + f->iter.name() + "' never runs (" + to_string(empty) + ")";
      });
      return remove();
    }
    rw::fail_wrong_kind(c, "an if or a loop");
  });
}

}  // namespace exocpp
