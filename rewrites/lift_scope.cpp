// lift_scope: move a loop or if up past the loop or if around it (it must be the only
// statement of the enclosing branch).
//
//   for i in _:                 if c:                    if c:              for j in _:
//       if c: A        -->          for i in _: A            for j in _:  -->   if c: A
//       else: B                 else:                            A
//                                   for i in _: B
//
//   if c:                       if d:                    if c: A            if d:
//       if d: A        -->          if c: A              else:        -->       if c: A
//       else: B                     else: C                  if d: B            else: B
//   else: C                     else:                        else: C        else:
//                                   if c: B                                     if c: A
//                                   else: C                                     else: C
//
//   for i in _: for j in _: A   -->   reorder_loops
//
// Checks: the target is a loop or if whose parent is a loop or if holding only it (in that
// branch); an if lifted out of a loop has a condition that does not use the loop variable and
// that the loop does not change (it was evaluated in every iteration, now once:
// value_unchanged_by); a loop lifted out of an if requires the if to have no else branch and
// the loop to change nothing the condition reads (it is now evaluated in every iteration);
// loop pairs are checked as reorder_loops checks them. Ifs swapped with ifs evaluate the same
// conditions with nothing in between. A lifted if's condition is evaluated where fewer guards
// hold (whatever the outer condition is; even when the loop runs no iteration), so it must not
// fault there: its reads are proved inside their buffers and it divides no integer data
// (require_safe_to_evaluate_at) — `if i < N: if H[i + 1] > 0.0:` keeps its order.
// Forwarding: cursors into the branches follow them; the two heads trade places (a cursor to
// the lifted statement points to the new outer statement). Copies of a branch (C above) are
// reached through their first occurrence.
#include "checker/queries.h"
#include "core/uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

namespace {

Block with_pass(Block b, const SrcInfo& si) {
  if (b.empty()) b.push_back(PassNode::make(si));
  return b;
}
}  // namespace

Proc lift_scope(const Proc& p, const CursorLike& scope) {
  return rw::run_op("lift_scope", [&]() -> Proc {
    // 1. Arguments and checks.
    Cursor ic = rw::resolve_stmt(p, scope);
    Stmt inner = ic.stmt();
    if (!inner.is<ForNode>() && !inner.is<IfNode>()) rw::fail_wrong_kind(ic, "a loop or an if");
    if (ic.loc().block.empty())
      rw::fail(
          reason::kStmtNoEnclosingScope, ic,
          "the statement is at the top level of the proc: there is no scope to lift it out of");
    BlockPath path(ic.loc().block.begin(), ic.loc().block.end() - 1);
    int at = ic.loc().block.back().index;
    BlockField field = ic.loc().block.back().field;
    Cursor oc(p, Loc{CursorKind::Stmt, path, at, at + 1, {}});
    Stmt outer = oc.stmt();
    if (ic.list().size() != 1)
      rw::fail(reason::kLoopNotAPerfectNest, ic,
               "expected '" + ic.to_string() + "' to be the only statement of its enclosing '" +
                   oc.to_string() + "', which holds " + std::to_string(ic.list().size()));
    if (outer.is<ForNode>() && inner.is<ForNode>()) return reorder_at(p, oc);

    // 2. The lifted nest.
    Stmt lifted;
    const SrcInfo& osi = outer->srcinfo;
    if (const ForNode* f = outer.as<ForNode>()) {
      const IfNode* i = inner.as<IfNode>();
      if (mentions(i->cond, f->iter))
        rw::fail(reason::kDepLoopVariant, ic,
                 "the condition '" + ic.cond().to_string() + "' depends on the loop variable " +
                     f->iter.name());
      rw::require_unchanged(ic, checker::Context::at(oc), i->cond, {outer}, [&] {
        return "the condition '" + ic.cond().to_string() +
               "', evaluated once instead of in every iteration,";
      });
      rw::require_safe_to_evaluate_at(oc, ic, i->cond,
                                      "where the if goes, since the condition is evaluated there "
                                      "even when the loop runs no iteration");
      Stmt a = ForNode::make(f->iter, f->lo, f->hi, i->body, f->mode, osi);
      Block b;
      if (!i->orelse.empty()) {
        Sym i2 = f->iter.copy();
        b = {ForNode::make(i2, f->lo, f->hi,
                           alpha_rename(substitute(i->orelse, {{f->iter, index_var(i2, osi)}})),
                           f->mode, osi)};
      }
      lifted = IfNode::make(i->cond, {a}, b, i->srcinfo);
    } else if (const ForNode* f = inner.as<ForNode>()) {
      const IfNode* o = outer.as<IfNode>();
      if (!o->orelse.empty())
        rw::fail(reason::kStmtForm, oc, "cannot lift a loop out of an if that has an else branch");
      rw::require_unchanged(ic, checker::Context::at(oc), o->cond, {inner}, [&] {
        return "the condition '" + oc.cond().to_string() +
               "', evaluated in every iteration of the loop,";
      });
      lifted = ForNode::make(f->iter, f->lo, f->hi, {IfNode::make(o->cond, f->body, {}, osi)},
                             f->mode, f->srcinfo);
    } else {
      const IfNode *o = outer.as<IfNode>(), *i = inner.as<IfNode>();
      rw::require_safe_to_evaluate_at(oc, ic, i->cond,
                                      "where the if goes, since the condition is evaluated there "
                                      "whatever '" +
                                          oc.cond().to_string() + "' is");
      Block then_b, else_b;
      if (field == BlockField::Body) {
        then_b = {IfNode::make(o->cond, i->body, o->orelse, osi)};
        if (!i->orelse.empty() || !o->orelse.empty())
          else_b = {IfNode::make(o->cond, with_pass(i->orelse, osi), alpha_rename(o->orelse), osi)};
      } else {
        then_b = {IfNode::make(o->cond, o->body, i->body, osi)};
        else_b = {IfNode::make(o->cond, alpha_rename(o->body), i->orelse, osi)};
      }
      lifted = IfNode::make(i->cond, then_b, else_b, i->srcinfo);
    }

    // 3. The new proc: the heads trade places; the branches follow them.
    return rw::Edit(p).interchange(path, at, field, lifted).done();
  });
}

}  // namespace exocpp
