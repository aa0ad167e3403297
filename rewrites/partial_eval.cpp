// ============================================================================================
// partial_eval: fix control arguments to constants.
// ============================================================================================
//
//   def f(N: size, K: size, A: f32[N, K] @ DRAM): s
//     --> (values {N: 16})
//   def f(K: size, A: f32[16, K] @ DRAM): s[N -> 16]
//
// Exo's Procedure.partial_eval. Every read of a fixed argument — in the body, the asserts and
// the other arguments' shapes — becomes the constant; the argument leaves the signature.
// Conditions: each name is a size, index, int or bool argument (a stride belongs to a buffer
// and cannot be fixed), a size is positive, a bool is 0 or 1; an assert that becomes false is
// refused (the result would be defined for no argument), one that becomes true is dropped.
//
// The result takes fewer arguments, so it is a new proc (a fresh equivalence class): call_eqv
// does not swap it for its input. Nothing in the body moves: every cursor forwards to itself.
#include <map>
#include <string>

#include "core/printer.h"
#include "core/simplify.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// The constant argument `a` takes, after checking that it may take `v`.
Expr constant_for(const Proc& p, const FnArg& a, int64_t v) {
  const std::string& n = a.name.name();
  if (!a.type.is_control() || a.type.base == ScalarKind::Stride)
    rw::fail(reason::kArgInvalid, a.srcinfo,
             "'" + n + "' is " + to_string(a.type) +
                 "; only size, index, int and bool "
                 "arguments can be fixed");
  if (a.type.base == ScalarKind::Size && v < 1)
    rw::fail(reason::kArgInvalid, a.srcinfo,
             "'" + n + "' is a size, which is positive, but was given " + std::to_string(v));
  if (a.type.base == ScalarKind::Bool) {
    if (v != 0 && v != 1)
      rw::fail(reason::kArgInvalid, a.srcinfo,
               "'" + n + "' is a bool: give 0 or 1, not " + std::to_string(v));
    return ConstNode::make_bool(v != 0, a.srcinfo);
  }
  rw::check_int_arg(p.body_cursor(), "the value of '" + n + "'", v, -rw::kMaxIntArg,
                    rw::kMaxIntArg);
  return rw::int_const(v, a.srcinfo);
}

}  // namespace

Proc partial_eval(const Proc& p, const std::map<std::string, int64_t>& values) {
  return rw::run_op("partial_eval", [&]() -> Proc {
    // 1. The constants, by symbol; every name must be an argument.
    rw::SymMap env;
    for (const auto& [name, v] : values) {
      const FnArg* found = nullptr;
      for (const FnArg& a : p.args())
        if (a.name.name() == name) found = &a;
      if (!found)
        rw::fail(reason::kArgInvalid, p->srcinfo,
                 "proc '" + p.name() + "' has no argument named '" + name + "'");
      env.emplace(found->name, constant_for(p, *found, v));
    }
    // 2. The asserts with the values in: one that is now false is refused, one now true goes.
    std::vector<Expr> preds;
    for (const Expr& pred : p.preds()) {
      Expr now = simplify_expr(rw::substitute(pred, env));
      if (const ConstNode* c = now.as<ConstNode>()) {
        if (c->val == 0)
          rw::fail(reason::kArgInvalid, pred.srcinfo(),
                   "the values make the assert `" + to_string(pred) +
                       "` false, so the result would accept no arguments");
        continue;
      }
      preds.push_back(now);
    }
    // 3. The new signature and body.
    rw::Edit edit(p);
    std::vector<FnArg> args;
    for (FnArg a : p.args()) {
      if (env.count(a.name)) continue;
      for (Expr& d : a.type.shape) d = simplify_expr(rw::substitute(d, env));
      args.push_back(std::move(a));
    }
    edit.node().args = std::move(args);
    edit.node().preds = std::move(preds);
    edit.node().eqv_class = fresh_eqv_class();
    edit.node().eqv_configs.clear();
    edit.rewrite_body(rw::substitute(p.body(), env));
    return edit.done();
  });
}

}  // namespace exocpp
