// ============================================================================================
// call_eqv: swap the callee of a call for an equivalent proc.
// ============================================================================================
//
//   f(e1, .., en)   -->   g(e1, .., en)      where g was scheduled from the same proc as f
//
// Equivalence is the scheduling history: every scheduling operation returns a proc that
// computes what its input did, and keeps its input's equivalence class (ProcNode::eqv_class),
// so two procs of one class compute the same thing on every input both accept. What remains to
// check is that g accepts this call: the same argument kinds, types, shapes and memories, and
// every assert of g that f did not have holds at the call (decided by the checker).
//
// What a caller observes of a call is the buffers it writes and the config state it leaves.
// Procs of one class may differ in the final value of the config fields they record
// (ProcNode::eqv_configs: a dead config write deleted, inserted or bound): at the call, each
// such field of f or g must not be read before a write replaces it
// (checker::config_unread_after); a field that reaches the end of the caller unread is recorded
// in the result in turn. A class also assumes that buffer arguments a proc writes do not overlap
// its other buffer arguments (they were scheduled as if apart): the call must pass them apart
// (checker::check_call_aliasing, AliasError). Changing a precision leaves the class
// (set_precision).
#include "checker/frontend_checks.h"
#include "checker/queries.h"
#include "checker/queries_config.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "rewrites/internal/call_subst.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/subprocs.h"

namespace exocpp {

namespace {

// Refuses g when an argument differs from f's in a way that changes what the call means.
void check_signature(const Cursor& c, const CallNode& call, const ProcNode& f, const ProcNode& g) {
  if (f.args.size() != g.args.size())
    rw::fail(reason::kCallSignature, c,
             "'" + g.name + "' takes " + std::to_string(g.args.size()) + " arguments but '" +
                 f.name + "' takes " + std::to_string(f.args.size()));
  rw::CallSubst fs(f, call.args), gs(g, call.args);
  for (size_t i = 0; i < f.args.size(); ++i) {
    const FnArg& a = f.args[i];
    const FnArg& b = g.args[i];
    const std::string which = "argument " + std::to_string(i + 1) + " ('" + a.name.name() +
                              "' of '" + f.name + "', '" + b.name.name() + "' of '" + g.name + "')";
    Type ta = fs.mutate_type(a.type), tb = gs.mutate_type(b.type);
    bool same = ta.base == tb.base && ta.window == tb.window && ta.shape.size() == tb.shape.size();
    for (size_t d = 0; same && d < ta.shape.size(); ++d)
      same = expr_equal(simplify_expr(ta.shape[d]), simplify_expr(tb.shape[d]));
    if (!same)
      rw::fail(reason::kCallSignature, c,
               which + " has type " + to_string(a.type) + " in '" + f.name + "' but " +
                   to_string(b.type) + " in '" + g.name + "'");
    if (a.mem != b.mem)
      rw::fail(reason::kCallSignature, c,
               which + " lives in memory " + a.mem + " in '" + f.name + "' but " + b.mem + " in '" +
                   g.name + "'");
  }
}

// Every assert of g that is not one of f's must hold at the call.
void check_asserts(const Cursor& c, const CallNode& call, const ProcNode& f, const ProcNode& g) {
  rw::CallSubst fs(f, call.args), gs(g, call.args);
  std::vector<Expr> known;
  for (const Expr& e : f.preds) known.push_back(simplify_expr(fs.mutate(e)));
  for (const Expr& e : g.preds) {
    Expr at_call = simplify_expr(gs.mutate(e));
    bool old = false;
    for (const Expr& k : known) old = old || expr_equal(k, at_call);
    if (old) continue;
    checker::Context ctx = checker::Context::at(c.proc(), c.loc().block, c.loc().lo);
    rw::require_proved(c, checker::always_true(ctx, at_call), [&] {
      return "the assert '" + to_string(e) + "' of '" + g.name + "' holds at the call (as '" +
             to_string(at_call) + "')";
    });
  }
}

}  // namespace

bool procs_equivalent(const Proc& a, const Proc& b) {
  return a.defined() && b.defined() && a->eqv_class == b->eqv_class;
}

Proc call_eqv(const Proc& p, const CursorLike& call, const Proc& eqv_proc) {
  return rw::run_op("call_eqv", [&]() -> Proc {
    Cursor c = rw::resolve_stmt(p, call);
    const CallNode* cn = rw::stmt_as<CallNode>(c, "a call such as 'f(n, A[0:4])'");
    if (!eqv_proc.defined())
      rw::fail(reason::kArgUndefinedProc, c,
               "the replacement proc is empty (a default-constructed Proc)");
    const ProcNode& f = *cn->proc;
    const ProcNode& g = *eqv_proc.get();
    if (f.eqv_class != g.eqv_class)
      rw::fail(reason::kCallNotEquivalent, c,
               "'" + g.name + "' is not equivalent to '" + f.name +
                   "': it was not scheduled from the same " +
                   "proc (call_eqv needs a proc derived from '" + f.name +
                   "', or from the proc it was derived from, by scheduling operations)");
    rw::check_callee_name(p, eqv_proc, c);
    check_signature(c, *cn, f, g);
    check_asserts(c, *cn, f, g);

    Stmt swapped = CallNode::make(eqv_proc.ptr(), cn->args, cn->srcinfo);
    const BlockPath path = c.loc().block;
    const int ci = c.loc().lo;
    rw::Edit edit(p);
    edit.rewrite(path, ci, ci + 1, {swapped});

    // The config fields whose final value f and g may disagree on: unread after the call.
    std::vector<std::pair<Config, std::string>> differ = f.eqv_configs;
    for (const auto& cf : g.eqv_configs) differ.push_back(cf);
    for (const auto& [cfg, field] : differ) {
      bool escapes = false;
      checker::Answer a = checker::config_unread_after(p, path, ci + 1, cfg, field, &escapes);
      if (!a.proved())
        rw::fail(reason::kConfigObservable, c,
                 "'" + g.name + "' and '" + f.name + "' may leave different values in " +
                     cfg->name + "." + field +
                     " (a config write was deleted or added while scheduling), and the caller may "
                     "read it after the "
                     "call: " +
                     (a.counterexample.empty() ? a.reason : a.counterexample));
      if (escapes) rw::record_final_config(edit.node(), cfg, field);
    }

    // The call passes g's written buffers apart from the other buffer arguments (the class's
    // equivalence assumes it). The rest of what a call must satisfy (windows in bounds,
    // positive sizes, extents, density, the callee's asserts) depends on the arguments and the
    // signature, which are f's, and on g's asserts, checked above: a call breaking one of
    // those breaks it with f too, where the interpreter stops at it either way.
    try {
      checker::check_call_aliasing(edit.candidate(), path, ci);
    } catch (const checker::CheckError& e) {
      rw::fail(reason::kCallPrecondition, c, e.reason(), e.counterexample());
    }
    return edit.done();
  });
}

}  // namespace exocpp
