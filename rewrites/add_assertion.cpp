// ============================================================================================
// add_assertion: a proc with one more assert (Exo's Procedure.add_assertion).
// ============================================================================================
//
//   def f(N: size, ..): asserts ; s     -->     def f(N: size, ..): asserts ; assert cond ; s
//
// `cond` is a condition over the proc's control arguments (and strides), parsed in the scope of
// its arguments. The result computes what the input computes for every argument satisfying the
// new assert and refuses the others, so it accepts fewer calls: a new proc (a fresh
// equivalence class), which call_eqv does not swap for its input. Later operations may use
// the assert as a fact (as `simplify` does with divisibility). A condition that is false for
// every argument (it simplifies to false) is refused; one that is always true changes nothing.
// Nothing in the body moves: every cursor forwards to itself.
#include "core/printer.h"
#include "core/simplify.h"
#include "core/uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc add_assertion(const Proc& p, const std::string& cond) {
  return rw::run_op("add_assertion", [&]() -> Proc {
    const Cursor first = p.body_cursor()[0];
    Expr c = rw::parse_condition(first, cond, "the assertion");
    const Uses u = uses_of(c);
    if (u.reads_data || !u.config_reads.empty())
      rw::fail(reason::kArgInvalid, first,
               "the assertion '" + cond +
                   "' reads data or a config field; an assert speaks of the arguments");
    if (const ConstNode* k = simplify_expr(c).as<ConstNode>()) {
      if (k->val == 0)
        rw::fail(reason::kArgInvalid, first,
                 "the assertion '" + cond + "' is false, so the result would accept no arguments");
      return p;
    }
    rw::Edit edit(p);
    edit.node().preds.push_back(c);
    edit.node().eqv_class = fresh_eqv_class();
    edit.node().eqv_configs.clear();
    return edit.done();
  });
}

}  // namespace exocpp
