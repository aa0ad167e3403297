// ============================================================================================
// insert_noop_call: put a call to a proc whose body is `pass` at a gap.
// ============================================================================================
//
//   s1 ; <gap> ; s2   -->   s1 ; f(a_1, ..., a_n) ; s2      (f's body is `pass`)
//
// The target is a gap cursor (a statement means the gap after it). The arguments are parsed
// where the call will stand and the call is type-checked and alias-checked like any call.
// Statements after the gap shift by one. A no-op call is how an instruction without an effect
// on values (a prefetch) enters a schedule: replace cannot introduce it, since there is no body
// to unify with.
#include "checker/frontend_checks.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc insert_noop_call(const Proc& p, const CursorLike& gap, const Proc& subproc,
                      const std::vector<std::string>& args) {
  return rw::run_op("insert_noop_call", [&]() -> Proc {
    Cursor g = rw::resolve_gap(p, gap);
    if (!(subproc.body().size() == 1 && subproc.body().front().is<PassNode>()))
      rw::fail(reason::kArgInvalid, g,
               "the body of '" + subproc.name() +
                   "' is not `pass`: only a call that changes nothing can be inserted (a call "
                   "that computes enters by replace)");
    rw::check_callee_name(p, subproc, g);
    if (args.size() != subproc.args().size())
      rw::fail(reason::kArgInvalid, g,
               "'" + subproc.name() + "' takes " + std::to_string(subproc.args().size()) +
                   " arguments, but " + std::to_string(args.size()) + " were given");
    // The arguments, read where the call will stand.
    const std::vector<ScopeVar> scope = rw::scope_at(p, g.loc().block, g.loc().lo);
    std::vector<Expr> actual;
    for (const std::string& a : args)
      actual.push_back(rw::parse_user_expr(g, a, scope, {}, /*allow_window=*/true));
    Stmt call = CallNode::make(subproc.ptr(), std::move(actual), g.srcinfo());
    Proc q = rw::Edit(p).insert(g.loc().block, g.loc().lo, {call}).done();
    // Errors are reported at the gap: the arguments' own locations are in the strings given.
    const SrcInfo at = g.srcinfo();
    rw::typecheck_candidate(*q.get(),
                            "the call to '" + subproc.name() + "' does not fit its signature", &at);
    try {
      checker::check_call(q, g.loc().block, g.loc().lo);
    } catch (const checker::CheckError& e) {
      rw::fail(reason::kCallPrecondition, g, e.reason(), e.counterexample());
    }
    return q;
  });
}

}  // namespace exocpp
