// ============================================================================================
// set_window: make a tensor argument a window argument, or back.
// ============================================================================================
//
//   A : f32[n, m] @ M   <-->   A : [f32][n, m] @ M
//
// A window argument accepts any strided view; a tensor argument is dense (its strides follow
// from its shape). Legality: the target is a tensor argument (not a scalar, control argument or
// allocation); the result type-checks (a call passing A to a callee expecting a tensor refuses
// window -> tensor); and, back to a tensor, every assert of the proc that mentions stride(A, d)
// still holds with A's dense strides (checker::always_true).
#include "checker/context.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/memories.h"

namespace exocpp {

namespace {

// `e` with stride(a, d) replaced by the stride of dimension d of a dense tensor of type `t`;
// `hit` tells whether `e` took any stride of a.
Expr dense_strides(const Expr& e, const Sym& a, const Type& t, bool& hit) {
  return map_exprs(e, [&](const Expr& x) -> std::optional<Expr> {
    const StrideExprNode* n = x.as<StrideExprNode>();
    if (!n) return std::nullopt;
    if (n->name != a) return x;
    hit = true;
    Expr s = rw::int_const(1, n->srcinfo);
    for (int d = t.rank() - 1; d > n->dim; --d) s = rw::mk_mul(s, t.shape[static_cast<size_t>(d)]);
    return s;
  });
}

// `code` with each whole-buffer read of `a` (a call argument) typed `t`.
Block retype_whole(const Block& code, const Sym& a, const Type& t) {
  return map_exprs(code, [&](const Expr& x) -> std::optional<Expr> {
    const ReadNode* n = x.as<ReadNode>();
    if (!n || n->name != a || !n->idx.empty()) return std::nullopt;
    return ReadNode::make(n->name, {}, t, n->srcinfo);
  });
}

}  // namespace

Proc set_window(const Proc& p, const CursorLike& arg, bool is_window) {
  return rw::run_op("set_window", [&]() -> Proc {
    Cursor c = rw::resolve_alloc(p, arg);
    if (!c.is_arg())
      rw::fail(reason::kTargetWrongKind, c,
               "'" + c.name() + "' is an allocation; only arguments can be windows");
    const FnArg& a = c.arg();
    if (!a.type.is_data() || a.type.is_scalar())
      rw::fail(
          reason::kTargetWrongKind, c,
          "'" + c.name() + "' is not a tensor argument (its type is " + to_string(a.type) + ")");
    if (a.type.window == is_window) return p;
    Type t = a.type;
    t.window = is_window;
    if (!is_window) {
      for (const Expr& pred : p.preds()) {
        bool hit = false;
        Expr q = dense_strides(pred, a.name, t, hit);
        if (!hit) continue;
        rw::require_proved(c, checker::always_true(checker::Context::top(p), q), [&] {
          return "the assert '" + to_string(pred) + "' holds for the dense strides of a tensor '" +
                 c.name() + "'";
        });
      }
    }
    rw::Edit edit(p);
    edit.declaration(c, [&](Type& ty, std::string&) { ty.window = is_window; });
    edit.rewrite_body(retype_whole(edit.body(), a.name, t));
    rw::typecheck_candidate(
        edit.node(), "'" + c.name() + "' cannot become a " + (is_window ? "window" : "tensor"));
    return edit.done();
  });
}

}  // namespace exocpp
