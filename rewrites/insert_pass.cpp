// ============================================================================================
// insert_pass, insert_noop_call: put a statement that changes nothing at a gap.
// ============================================================================================
//
//   s1 ; <gap> ; s2   -->   s1 ; pass ; s2
//   s1 ; <gap> ; s2   -->   s1 ; f(a_1, ..., a_n) ; s2      (f's body is `pass`)
//
// The target is a gap cursor (a statement means the gap after it). Statements after the gap
// shift by one; the gap itself forwards to the gap before the new statement. A no-op call is
// how an instruction without an effect on values (a prefetch) enters a schedule: replace
// cannot introduce it, since there is no body to unify with.
#include "checker/frontend_checks.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

Proc insert_stmt(const Proc& p, const Cursor& g, const Stmt& s) {
  const Loc& l = g.loc();
  return rw::Edit(p).insert(l.block, l.lo, {s}).done();
}

bool body_is_pass(const Proc& f) { return f.body().size() == 1 && f.body().front().is<PassNode>(); }

}  // namespace

Proc insert_pass(const Proc& p, const CursorLike& gap) {
  return rw::run_op("insert_pass", [&]() -> Proc {
    Cursor g = rw::resolve_gap("insert_pass", p, gap);
    return insert_stmt(p, g, PassNode::make(g.srcinfo()));
  });
}

Proc insert_noop_call(const Proc& p, const CursorLike& gap, const Proc& subproc,
                      const std::vector<std::string>& args) {
  const std::string op = "insert_noop_call";
  return rw::run_op(op, [&]() -> Proc {
    Cursor g = rw::resolve_gap(op, p, gap);
    if (!body_is_pass(subproc))
      rw::fail(op, g,
               "the body of '" + subproc.name() +
                   "' is not `pass`: only a call that changes nothing can be inserted (a call "
                   "that computes enters by replace)");
    rw::check_callee_name(op, p, subproc, g);
    if (args.size() != subproc.args().size())
      rw::fail_argument(op, g,
                        "'" + subproc.name() + "' takes " + std::to_string(subproc.args().size()) +
                            " arguments, but " + std::to_string(args.size()) + " were given");
    // The arguments, read where the call will stand.
    const std::vector<ScopeVar> scope = rw::scope_at(p, g.loc().block, g.loc().lo);
    std::vector<Expr> actual;
    for (const std::string& a : args)
      actual.push_back(rw::parse_user_expr(g, a, scope, {}, /*allow_window=*/true));
    Stmt call = CallNode::make(subproc.ptr(), std::move(actual), g.srcinfo());
    Proc q = insert_stmt(p, g, call);
    // Errors are reported at the gap: the arguments' own locations are in the strings given.
    const SrcInfo at = g.srcinfo();
    rw::typecheck_candidate(op, *q.get(),
                            "the call to '" + subproc.name() + "' does not fit its signature", &at);
    try {
      checker::check_call(q, g.loc().block, g.loc().lo);
    } catch (const checker::CheckError& e) {
      rw::fail(op, g, e.reason(), e.counterexample());
    }
    return q;
  });
}

}  // namespace exocpp
