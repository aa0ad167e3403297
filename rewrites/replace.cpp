// replace: a block of the caller becomes a call to a subproc (usually an
// @instr hardware instruction) whose body it unifies with (see rewrites/replace.h for the rule,
// rewrites/unify.h for the unifier).
//
//   s_1 ; ... ; s_n      -->   f(a_1, ..., a_m)     when  f's body [a := a_1..a_m]  ==  s_1 ; ... ;
//   s_n
//
// Checks, in order: the block unifies (shape, indices, buffers, precisions, memories); the
// allocations it shares with f's body are not used after it (and are no argument of the call);
// no written argument aliases another (windows resolved to their buffer); each size argument is
// positive; each window lies inside its buffer; each assert of f holds at the call site. Only then
// is the call built.
#include "rewrites/replace.h"

#include "checker/context.h"
#include "checker/frontend_checks.h"
#include "checker/queries.h"
#include "checker/queries_config.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"
#include "rewrites/internal/unify.h"

namespace exocpp {

namespace {

// An expression of the instruction (an assert) in the caller's terms: its control arguments
// replaced by the values unification bound them to, its strides by the caller's strides.
Expr instantiate(const Expr& e, const rw::unify::Solution& sol) {
  return map_exprs(e, [&](const Expr& x) -> std::optional<Expr> {
    if (const ReadNode* r = x.as<ReadNode>(); r && r->idx.empty())
      if (auto it = sol.control.find(r->name); it != sol.control.end()) return it->second;
    if (const StrideExprNode* st = x.as<StrideExprNode>()) {
      auto it = sol.views.find(st->name);
      if (it == sol.views.end() || st->dim < 0 ||
          st->dim >= static_cast<int>(it->second.dims.size()))
        return x;
      return StrideExprNode::make(it->second.buf, it->second.dims[static_cast<size_t>(st->dim)],
                                  x.srcinfo());
    }
    return std::nullopt;
  });
}

void check_locals(const Cursor& blk, const rw::unify::Problem& pb) {
  const Block& list = blk.list();
  const Block after(list.begin() + blk.loc().hi, list.end());
  rw::Access used = rw::accesses(after, WindowAliases::of_proc(blk.proc()));
  for (const auto& [callee_local, caller_local] : pb.locals)
    if (used.reads.count(caller_local) || used.writes.count(caller_local))
      rw::fail(reason::kScopeEscapes, blk,
               "'" + caller_local.name() +
                   "' is allocated in the block and used after it, but the call "
                   "would make it local to '" +
                   callee_local.name() + "' of the subproc");
}

// A written argument may not share its root buffer (through windows) with another argument,
// unless both are windows of one buffer name that the checker proves apart
// (checker::arguments_disjoint: two registers of one register array, best[0, 0:16] and
// best[1, 0:16]). Views of one buffer through different names stay refused, as before.
void check_arguments(const Cursor& blk, const Proc& p, const Proc& sub,
                     const rw::unify::Solution& sol, const checker::Context& ctx) {
  WindowAliases roots = WindowAliases::of_proc(p);
  for (size_t i = 0; i < sub.args().size(); ++i)
    for (size_t j = i + 1; j < sub.args().size(); ++j) {
      auto a = sol.views.find(sub.args()[i].name), b = sol.views.find(sub.args()[j].name);
      if (a == sol.views.end() || b == sol.views.end()) continue;
      if (roots.root(a->second.buf) != roots.root(b->second.buf)) continue;
      if (!a->second.written && !b->second.written) continue;
      if (a->second.buf == b->second.buf &&
          checker::arguments_disjoint(ctx, sol.args[i], sol.args[j]).proved())
        continue;
      const FnArg& w = a->second.written ? sub.args()[i] : sub.args()[j];
      std::string bufs = a->second.buf == b->second.buf
                             ? "'" + a->second.buf.name() + "'"
                             : "'" + a->second.buf.name() + "' and '" + b->second.buf.name() +
                                   "' (views of one buffer)";
      rw::fail(reason::kBufferAliased, blk,
               bufs + " would be passed for both '" + sub.args()[i].name.name() + "' and '" +
                   sub.args()[j].name.name() + "' of '" + sub.name() + "', and '" + w.name.name() +
                   "' is written: arguments of a call may not alias a written one");
    }
}

void check_call_site(const Cursor& blk, const Proc& p, const Proc& sub,
                     const rw::unify::Solution& sol, const checker::Context& ctx) {
  for (size_t i = 0; i < sub.args().size(); ++i) {
    const FnArg& a = sub.args()[i];
    const Expr& v = sol.args[i];
    if (a.type.is_scalar() && a.type.base == ScalarKind::Size)
      rw::require_proved(
          blk, checker::always_true(ctx, rw::mk_cmp(BinOpKind::Gt, v, rw::int_const(0))), [&] {
            return "the size argument '" + a.name.name() + "' = `" + to_string(v) + "` is positive";
          });
    const WindowExprNode* w = v.as<WindowExprNode>();
    if (!w) continue;
    const Type* bt = ctx.type_of(w->name);
    if (!bt || bt->rank() != static_cast<int>(w->idx.size())) continue;
    for (size_t d = 0; d < w->idx.size(); ++d) {
      if (!w->idx[d].is_interval) continue;
      Expr inside = rw::mk_and(rw::mk_cmp(BinOpKind::Le, rw::int_const(0), w->idx[d].lo),
                               rw::mk_cmp(BinOpKind::Le, w->idx[d].hi, bt->shape[d]));
      rw::require_proved(blk, checker::always_true(ctx, inside), [&] {
        return "the window `" + to_string(v) + "` passed for '" + a.name.name() +
               "' lies inside '" + w->name.name() + "' (dimension " + std::to_string(d) + ")";
      });
    }
  }
  (void)p;
  for (const Expr& pred : sub.preds()) {
    Expr here = simplify_expr(instantiate(pred, sol));
    // A config read means the value the field holds at the block (the checker models none).
    Expr known = checker::with_config_values(p, blk.loc().block, blk.loc().lo, here);
    rw::require_proved(blk, checker::always_true(ctx, known), [&] {
      return "the assert `" + to_string(pred) + "` of '" + sub.name() +
             "' holds at the call (as `" + to_string(here) + "`)";
    });
  }
}

}  // namespace

namespace rw {

Proc replace_at(const Proc& p, const Cursor& blk, const Proc& sub, const ReplaceOptions& opts) {
  const Block stmts = blk.stmts();
  const BlockPath path = blk.loc().block;
  const int lo = blk.loc().lo, hi = blk.loc().hi;
  const checker::Context ctx = checker::Context::at(p, path, lo);

  rw::check_callee_name(p, sub, blk);

  // 1. Unify.
  rw::unify::Problem pb;
  rw::unify::Solution sol;
  try {
    pb = rw::unify::match(sub, stmts);
    checker::Context inner = ctx;
    for (const ForNode* l : pb.inner_loops) {
      checker::Scope sc(checker::Scope::Loop);
      sc.loop = l;
      inner.push(sc);
    }
    sol = rw::unify::solve(p, inner, sub, pb, stmts.front().srcinfo());
  } catch (const rw::unify::Mismatch& m) {
    std::string head = "the block does not unify with the body of '" + sub.name() + "'";
    rw::fail(reason::kReplaceNoUnify, opts.quiet ? blk.srcinfo() : m.where,
             opts.quiet ? head : head + ": " + m.reason);
  }

  // 2. Checks on the solved call.
  check_locals(blk, pb);
  check_arguments(blk, p, sub, sol, ctx);
  check_call_site(blk, p, sub, sol, ctx);

  // 3. The call in place of the block.
  Stmt call = CallNode::make(sub.ptr(), sol.args, stmts.front().srcinfo());
  return rw::Edit(p).replace(path, lo, hi, {call}).done();
}

}  // namespace rw

Proc replace(const Proc& p, const CursorLike& block, const Proc& subproc,
             const ReplaceOptions& opts) {
  return rw::run_op("replace", [&]() -> Proc {
    Cursor blk = rw::resolve_block(p, block);
    if (!subproc.defined()) rw::fail(reason::kArgUndefinedProc, blk, "the subproc is undefined");
    return rw::replace_at(p, blk, subproc, opts);
  });
}

}  // namespace exocpp
