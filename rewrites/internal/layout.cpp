// Strides and call preconditions kept by a layout change (rewrites/internal/layout.h).
#include "rewrites/internal/layout.h"

#include <optional>
#include <set>
#include <utility>

#include "checker/context.h"
#include "checker/frontend_checks.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/window_alias.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/operation.h"

namespace exocpp::rw {

namespace {

std::string first_line(const Stmt& s) {
  std::string t = to_string(s);
  return t.substr(0, t.find('\n'));
}

// The names through which code of `p` reaches the storage of `bufs`.
std::set<Sym> storage_names(const Proc& p, const std::vector<Sym>& bufs) {
  const WindowAliases windows = WindowAliases::of_proc(p);
  std::set<Sym> out;
  for (const Sym& b : bufs)
    for (const Sym& n : windows.names_of(b)) out.insert(n);
  return out;
}

// The buffer name an argument hands a callee (a window of it, or all of it), if any.
std::optional<Sym> buffer_of_argument(const Expr& a) {
  if (const WindowExprNode* w = a.as<WindowExprNode>()) return w->name;
  if (const ReadNode* r = a.as<ReadNode>(); r && r->idx.empty() && a.type().is_tensor_or_window())
    return r->name;
  return std::nullopt;
}

// Whether `callee` can observe the strides of what its parameter `param` is handed: it reads a
// stride of the parameter or of a window of it (asserts or body), hands either to a callee that
// observes it, takes the parameter as a dense tensor (its code assumes the dense strides), or
// is an instruction (its C template addresses the memory its own way).
bool callee_observes_strides(const std::shared_ptr<const ProcNode>& callee, size_t param,
                             int depth = 0) {
  if (param >= callee->args.size()) return true;
  const FnArg& a = callee->args[param];
  if (!a.type.is_tensor_or_window()) return false;
  if (callee->instr || !a.type.window || depth > 32) return true;
  Proc cp(callee);
  std::set<Sym> names = storage_names(cp, {a.name});
  struct V : IRVisitor {
    const std::set<Sym>* names = nullptr;
    int depth = 0;
    bool seen = false;
    void visit_StrideExpr(const StrideExprNode* n, const Expr&) override {
      seen = seen || names->count(n->name) > 0;
    }
    void visit_Call(const CallNode* n, const Stmt& s) override {
      for (size_t i = 0; i < n->args.size() && !seen; ++i)
        if (auto b = buffer_of_argument(n->args[i]); b && names->count(*b))
          seen = callee_observes_strides(n->proc, i, depth + 1);
      IRVisitor::visit_Call(n, s);
    }
  } v;
  v.names = &names;
  v.depth = depth;
  for (const Expr& e : callee->preds) v.visit(e);
  v.visit(callee->body);
  return v.seen;
}

// One stride the code observes: stride(name, dim) as seen at statement `index` of list `path`.
struct Observation {
  BlockPath path;
  int index = 0;
  Sym name;
  int dim = 0;
  std::string what;  // "stride(w, 0)", "stride 0 of the window x[i, 0:8] handed to g's dst"
};

// The observations of `names`' strides in `b` (list `path` of `p`), in the order the code
// holds them; the call statements handed one of `names` into `calls`.
void collect(const Block& b, const BlockPath& path, const std::set<Sym>& names,
             std::vector<Observation>& out, std::vector<std::pair<BlockPath, int>>& calls) {
  for (size_t i = 0; i < b.size(); ++i) {
    const Stmt& s = b[i];
    const int at = static_cast<int>(i);
    struct V : OwnExprVisitor {
      const std::set<Sym>* names = nullptr;
      std::vector<const StrideExprNode*> found;
      void visit_StrideExpr(const StrideExprNode* n, const Expr&) override {
        if (names->count(n->name)) found.push_back(n);
      }
    } v;
    v.names = &names;
    v.visit(s);
    for (const StrideExprNode* n : v.found)
      out.push_back({path, at, n->name, n->dim,
                     "stride(" + n->name.name() + ", " + std::to_string(n->dim) + ")"});
    if (const CallNode* c = s.as<CallNode>()) {
      bool handed = false;
      for (size_t k = 0; k < c->args.size(); ++k) {
        auto buf = buffer_of_argument(c->args[k]);
        if (!buf || !names.count(*buf)) continue;
        handed = true;
        if (!callee_observes_strides(c->proc, k)) continue;
        const std::string by = " handed to " + c->proc->name + "'s " +
                               (k < c->proc->args.size() ? c->proc->args[k].name.name() : "?");
        if (const WindowExprNode* w = c->args[k].as<WindowExprNode>()) {
          int kth = 0;
          for (size_t d = 0; d < w->idx.size(); ++d)
            if (w->idx[d].is_interval)
              out.push_back({path, at, w->name, static_cast<int>(d),
                             "stride " + std::to_string(kth++) + " of the window " +
                                 to_string(c->args[k]) + by});
        } else {
          for (int d = 0; d < c->args[k].type().rank(); ++d)
            out.push_back(
                {path, at, *buf, d, "stride " + std::to_string(d) + " of " + buf->name() + by});
        }
      }
      if (handed) calls.push_back({path, at});
    }
    BlockPath inner = path;
    inner.push_back({at, BlockField::Body});
    if (const ForNode* f = s.as<ForNode>()) collect(f->body, inner, names, out, calls);
    if (const IfNode* f = s.as<IfNode>()) {
      collect(f->body, inner, names, out, calls);
      inner.back().field = BlockField::Orelse;
      collect(f->orelse, inner, names, out, calls);
    }
  }
}

// The value of stride(name, dim) at the place of `ctx`: windows resolved to their root buffer;
// a dense tensor's stride is the product of the extents after `dim`, a window argument's is
// stride(A, d) itself (its caller's choice). nullopt for a name or dimension not in scope.
std::optional<Expr> stride_value(const checker::Context& ctx, Sym name, int dim) {
  WindowAliases windows;  // the window statements in scope, outermost first
  for (const checker::Scope& sc : ctx.scopes())
    if (sc.kind == checker::Scope::Window)
      if (const WindowExprNode* w = sc.window.as<WindowExprNode>()) windows.bind(sc.name, *w);
  const WindowView view = windows.view(name);
  const std::optional<int> root_dim = view.root_dim(dim);
  if (!root_dim) return std::nullopt;
  name = view.root;
  dim = *root_dim;
  const Type* t = ctx.type_of(name);
  if (!t || dim < 0 || dim >= t->rank()) return std::nullopt;
  if (t->window) return StrideExprNode::make(name, dim);
  Expr p = int_const(1);
  for (int k = dim + 1; k < t->rank(); ++k) p = mk_mul(p, t->shape[static_cast<size_t>(k)]);
  return p;
}

Cursor stmt_cursor(const Proc& p, const BlockPath& path, int index) {
  return Cursor(p, Loc{CursorKind::Stmt, path, index, index + 1, {}});
}

}  // namespace

void require_layout_observations_kept(const Cursor& where, const Proc& before, const Proc& after,
                                      const LayoutChange& change) {
  std::vector<Observation> old_obs, new_obs;
  std::vector<std::pair<BlockPath, int>> old_calls, new_calls;
  collect(before.body(), {}, storage_names(before, change.before), old_obs, old_calls);
  collect(after.body(), {}, storage_names(after, change.after), new_obs, new_calls);
  if (old_obs.size() != new_obs.size())
    fail(reason::kLayoutUnmatched, where,
         "the rewritten code observes " + std::to_string(new_obs.size()) +
             " strides of the changed buffers where the code observed " +
             std::to_string(old_obs.size()) + "; cannot show that each keeps its value");

  // (a) every observed stride keeps its value.
  for (size_t k = 0; k < old_obs.size(); ++k) {
    const Observation& o = old_obs[k];
    const Observation& n = new_obs[k];
    Cursor at = stmt_cursor(before, o.path, o.index);
    checker::Context octx = checker::Context::at(before, o.path, o.index);
    checker::Context nctx = checker::Context::at(after, n.path, n.index);
    std::optional<Expr> ov = stride_value(octx, o.name, o.dim);
    std::optional<Expr> nv = stride_value(nctx, n.name, n.dim);
    if (ov && nv && change.to_before) nv = change.to_before(*nv);
    if (!ov || !nv)
      fail(reason::kLayoutStrideChanged, at,
           o.what + " (at '" + first_line(at.stmt()) + "') has no value in the " +
               (ov ? "new" : "old") + " layout");
    if (expr_equal(*ov, *nv)) continue;
    require_proved(
        at, checker::always_true(octx, BinOpNode::make(BinOpKind::Eq, *ov, *nv)),
        [&] {
          return o.what + " (at '" + first_line(at.stmt()) + "') keeps its value (" +
                 to_string(*ov) + " before the change, " + to_string(*nv) + " after)";
        },
        reason::kLayoutStrideChanged);
  }

  // (b) every call handed a changed buffer still meets its callee's preconditions.
  for (const auto& [path, index] : new_calls) {
    try {
      checker::check_call(after, path, index);
    } catch (const checker::CheckError& e) {
      Cursor at = stmt_cursor(after, path, index);
      fail(reason::kLayoutCallPrecondition, at,
           "the call '" + first_line(at.stmt()) +
               "' would no longer meet its callee's preconditions: " + e.reason(),
           e.counterexample());
    }
  }
}

}  // namespace exocpp::rw
