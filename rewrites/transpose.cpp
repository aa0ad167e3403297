// ============================================================================================
// transpose: Exo's Procedure.transpose — a two-dimensional argument's dimensions swapped.
// ============================================================================================
//
//   def f(.., A: T[m, n], ..): s   -->   def f(.., A: T[n, m], ..): s[ A[a, b] -> A[b, a] ]
//
// (also in the asserts: stride(A, 0) <-> stride(A, 1)). The caller now passes the transposed
// array, so the result is a new proc (a fresh equivalence class), as partial_eval's is; within
// that contract each access reads the element it read before. Refused: a target that is not a
// two-dimensional tensor or window argument; A passed whole to a call (the callee would see
// its dimensions swapped); a window of A with two intervals (its own dimensions would swap).
// Forwarding: every statement stays.
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// The first window of `buf` with two interval dimensions in `code`, printed; empty if none.
std::string first_two_interval_window(const Block& code, const Sym& buf) {
  std::string first;
  for_each_expr(code, [&](const Expr& e) {
    const WindowExprNode* n = e.as<WindowExprNode>();
    if (n && n->name == buf && first.empty() && n->idx.size() == 2 && n->idx[0].is_interval &&
        n->idx[1].is_interval)
      first = to_string(e);
  });
  return first;
}

// `e` with stride(buf, d) replaced by stride(buf, 1 - d): the strides of the transposed array.
Expr swap_strides(const Expr& e, const Sym& buf) {
  return map_exprs(e, [&](const Expr& x) -> std::optional<Expr> {
    const StrideExprNode* n = x.as<StrideExprNode>();
    if (!n) return std::nullopt;
    if (n->name != buf) return x;
    return StrideExprNode::make(n->name, 1 - n->dim, n->srcinfo);
  });
}

}  // namespace

Proc transpose(const Proc& p, const CursorLike& arg) {
  return rw::run_op("transpose", [&]() -> Proc {
    Cursor a = rw::resolve_alloc(p, arg);
    if (!a.is_arg())
      rw::fail(reason::kTargetWrongKind, a,
               "'" + a.name() + "' is not an argument of '" + p.name() + "'");
    const FnArg* fa = nullptr;
    for (const FnArg& x : p.args())
      if (x.name.name() == a.name()) fa = &x;
    if (!fa || fa->type.rank() != 2 || is_indexable(fa->type.base) ||
        fa->type.base == ScalarKind::Bool || fa->type.base == ScalarKind::Stride)
      rw::fail(reason::kTargetWrongKind, a,
               "'" + a.name() + "' has type " + (fa ? to_string(fa->type) : "?") +
                   "; transpose takes a two-dimensional tensor or window argument");
    const Sym buf = fa->name;
    rw::BufferUses uses = rw::buffer_uses(p.body(), buf);
    if (uses.whole)
      rw::fail(reason::kBufferLayoutUse, a,
               "'" + a.name() +
                   "' is passed whole to a call, which would see its dimensions "
                   "swapped");
    if (std::string w = first_two_interval_window(p.body(), buf); !w.empty())
      rw::fail(reason::kBufferLayoutUse, a,
               "the window '" + w + "' would have its dimensions swapped");

    rw::AccessMap m;
    m.buf = buf;
    m.idx = [](const std::vector<Expr>& i) { return std::vector<Expr>{i[1], i[0]}; };
    m.window = [](const std::vector<WAccess>& w) { return std::vector<WAccess>{w[1], w[0]}; };
    m.stride = [](const StrideExprNode* s) {
      return StrideExprNode::make(s->name, 1 - s->dim, s->srcinfo);
    };
    rw::Edit edit(p);
    for (FnArg& x : edit.node().args)
      if (x.name == buf) std::swap(x.type.shape[0], x.type.shape[1]);
    for (Expr& pred : edit.node().preds) pred = swap_strides(pred, buf);
    edit.node().eqv_class = fresh_eqv_class();
    edit.node().eqv_configs.clear();
    edit.rewrite_body(rw::map_accesses(p.body(), m));
    // The caller now hands the transposed array: a window argument's stride(A, d) is the old
    // stride(A, 1 - d).
    rw::require_layout_observations_kept(
        a, p, edit.candidate(),
        {{buf}, {buf}, [&buf](const Expr& e) { return swap_strides(e, buf); }});
    return edit.done();
  });
}

}  // namespace exocpp
