// The front-end checks: walk a proc keeping its Context, and ask Z3 about every access, window
// and call.
#include "checker/frontend_checks.h"

#include <algorithm>
#include <map>
#include <optional>

#include "checker/conflict.h"
#include "checker/context.h"
#include "checker/effects.h"
#include "checker/encode.h"
#include "checker/queries.h"
#include "checker/queries_config.h"
#include "core/cursor.h"
#include "core/ir_visit.h"
#include "core/memory.h"
#include "core/printer.h"
#include "core/window_alias.h"

namespace exocpp::checker {

namespace {

std::string values_or_any(const std::string& v) {
  return v.empty() ? "for any values" : "with " + v;
}

// Throws BoundsError unless 0 <= idx[d] < shape[d] (or, for a window, its ranges fit) for every
// dimension, under ctx.
// `refuted_only`: an access the checker cannot decide passes (check_proc_refutations).
void check_access(const Context& ctx, const Sym& name, const std::vector<WAccess>& idx,
                  const SrcInfo& where, const std::string& text, bool refuted_only) {
  const Type* t = ctx.type_of(name);
  if (!t || t->rank() != static_cast<int>(idx.size()) || idx.empty()) return;
  try {
    Encoder enc(ctx);
    z3::expr facts = enc.facts(ctx);
    z3::context& c = enc.ctx();
    std::vector<z3::expr> bad;
    std::vector<std::string> what;
    for (size_t d = 0; d < idx.size(); ++d) {
      z3::expr n = enc.num(t->shape[d]);
      z3::expr lo = enc.num(idx[d].lo);
      if (idx[d].is_interval) {
        z3::expr hi = enc.num(idx[d].hi);
        bad.push_back(!(c.int_val(0) <= lo && lo <= hi && hi <= n));
      } else {
        bad.push_back(!(c.int_val(0) <= lo && lo < n));
      }
      what.push_back(idx[d].is_interval ? expr_text(idx[d].lo) + ":" + expr_text(idx[d].hi)
                                        : expr_text(idx[d].lo));
    }
    z3::expr any = c.bool_val(false);
    for (const z3::expr& b : bad) any = any || b;
    std::optional<z3::model> m;
    std::optional<Answer> ans = decide(enc, facts && any, m);
    if (ans && (ans->proved() || refuted_only)) return;
    if (ans)
      throw BoundsError(where, "cannot prove that " + text + " is in bounds: " + ans->reason);
    for (size_t d = 0; d < idx.size(); ++d) {
      if (!m->eval(bad[d], true).is_true()) continue;
      std::string size = model_value(*m, enc.num(t->shape[d]));
      std::string val = idx[d].is_interval ? model_value(*m, enc.num(idx[d].lo)) + ":" +
                                                 model_value(*m, enc.num(idx[d].hi))
                                           : model_value(*m, enc.num(idx[d].lo));
      std::string reason = text + " is out of bounds: " + (idx[d].is_interval ? "range" : "index") +
                           " `" + what[d] + "` of dimension " + std::to_string(d) + " is " + val +
                           ", outside " + (idx[d].is_interval ? "0:" : "[0, ") + size +
                           (idx[d].is_interval ? "" : ")");
      throw BoundsError(where, reason, values_or_any(context_values(enc, *m)));
    }
    if (refuted_only) return;
    throw BoundsError(where, text + " may be out of bounds");
  } catch (const Unsupported& u) {
    if (refuted_only) return;
    throw BoundsError(where, "cannot prove that " + text + " is in bounds: " + u.reason);
  } catch (const z3::exception& e) {
    if (refuted_only) return;
    throw BoundsError(where, "cannot prove that " + text + " is in bounds: Z3 failed: " + e.msg());
  }
}

// Proves `cond` under ctx or throws AssertError saying `failure` with the values breaking it
// (or, when undecided, that `claim` cannot be proved and why; with `refuted_only`, it passes).
void require(const Context& ctx, const Expr& cond, const SrcInfo& where, const std::string& claim,
             const std::string& failure, bool refuted_only) {
  Answer a = always_true(ctx, cond);
  if (a.proved() || (a.unknown() && refuted_only)) return;
  if (a.unknown()) throw AssertError(where, "cannot prove that " + claim + ": " + a.reason);
  std::string cex =
      a.counterexample == "(for any values)" ? "for any values" : "with " + a.counterexample;
  throw AssertError(where, failure, cex);
}

std::vector<WAccess> points(const std::vector<Expr>& idx) {
  std::vector<WAccess> out;
  for (const Expr& e : idx) out.push_back(WAccess::point(e));
  return out;
}

std::string access_text(const Sym& name, const std::vector<Expr>& idx) {
  std::string s = "`" + name.name() + "[";
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + expr_text(idx[i]);
  return s + "]`";
}

// A window (a window expression or a window's name) is dense, row-major with no gaps, when its
// last dimension has stride 1 and every other dimension strides over the whole of the next.
Expr dense_condition(const Expr& arg) {
  std::vector<Expr> strides, extents;  // of the window's dimensions, outermost first
  if (const WindowExprNode* w = arg.as<WindowExprNode>()) {
    for (size_t d = 0; d < w->idx.size(); ++d)
      if (w->idx[d].is_interval) {
        strides.push_back(StrideExprNode::make(w->name, static_cast<int>(d)));
        extents.push_back(BinOpNode::make(BinOpKind::Sub, w->idx[d].hi, w->idx[d].lo));
      }
  } else if (const ReadNode* r = arg.as<ReadNode>()) {
    for (int d = 0; d < arg.type().rank(); ++d) {
      strides.push_back(StrideExprNode::make(r->name, d));
      extents.push_back(arg.type().shape[static_cast<size_t>(d)]);
    }
  }
  Expr cond = ConstNode::make_bool(true);
  if (strides.empty()) return cond;
  cond = BinOpNode::make(BinOpKind::Eq, strides.back(), ConstNode::make_int(1));
  for (size_t d = 0; d + 1 < strides.size(); ++d)
    cond = BinOpNode::make(
        BinOpKind::And, cond,
        BinOpNode::make(BinOpKind::Eq, strides[d],
                        BinOpNode::make(BinOpKind::Mul, strides[d + 1], extents[d + 1])));
  return cond;
}

// The part of its root buffer that a buffer argument gives the callee (an element `A[i]`, a
// window, or the whole tensor or window); nullopt for a control argument.
std::optional<RootWindow> arg_region(const Context& ctx, const Expr& arg) {
  if (const WindowExprNode* w = arg.as<WindowExprNode>()) return resolve_window(ctx, *w);
  const ReadNode* r = arg.as<ReadNode>();
  if (!r || !arg.type().is_data()) return std::nullopt;
  std::vector<WAccess> dims;
  if (!r->idx.empty()) {
    for (const Expr& i : r->idx) dims.push_back(WAccess::point(i));
  } else {
    for (const Expr& d : arg.type().shape)
      dims.push_back(WAccess::interval(ConstNode::make_int(0), d));
  }
  Expr w = WindowExprNode::make(r->name, arg.type().base, dims, arg.srcinfo());
  return resolve_window(ctx, *w.as<WindowExprNode>());
}

// The condition that two regions of one buffer do not overlap: in some dimension their ranges
// are apart (a point p is the range [p, p + 1)).
Expr disjoint_condition(const RootWindow& a, const RootWindow& b) {
  Expr cond = ConstNode::make_bool(false);
  auto hi = [](const WAccess& w) {
    return w.is_interval ? w.hi : BinOpNode::make(BinOpKind::Add, w.lo, ConstNode::make_int(1));
  };
  for (size_t d = 0; d < a.dims.size() && d < b.dims.size(); ++d) {
    Expr apart =
        BinOpNode::make(BinOpKind::Or, BinOpNode::make(BinOpKind::Le, hi(a.dims[d]), b.dims[d].lo),
                        BinOpNode::make(BinOpKind::Le, hi(b.dims[d]), a.dims[d].lo));
    cond = d == 0 ? apart : BinOpNode::make(BinOpKind::Or, cond, apart);
  }
  return cond;
}

}  // namespace

Answer arguments_disjoint(const Context& ctx, const Expr& a, const Expr& b) {
  const std::optional<RootWindow> ra = arg_region(ctx, a), rb = arg_region(ctx, b);
  if (!ra || !rb) return Answer::unknown_because("not two buffer arguments");
  if (ra->buffer != rb->buffer) return Answer::proof();
  return always_true(ctx, disjoint_condition(*ra, *rb));
}

namespace {

// Walks a proc keeping the Context of the statement at hand. `bounds` checks accesses and
// windows, `calls` checks calls against their callees.
class Checker {
 public:
  Checker(const Proc& p, bool bounds, bool calls, bool refuted_only = false)
      : ctx_(Context::top(p)), bounds_(bounds), calls_(calls), refuted_only_(refuted_only) {}
  Checker(Context ctx, bool bounds, bool calls)
      : ctx_(std::move(ctx)), bounds_(bounds), calls_(calls) {}
  void run() {
    placed_ = true;
    block(ctx_.proc().body());
  }
  void run_at(const BlockPath& path, int index, const Stmt& s) {
    placed_ = true;
    path_ = path;
    index_ = index;
    stmt(s);
  }
  void run_aliasing_at(const Stmt& s) {
    if (const CallNode* c = s.as<CallNode>()) aliasing(c, s.srcinfo());
  }

 private:
  Context ctx_;
  bool bounds_, calls_;
  // Only refutations are errors: what the checker cannot decide passes, and call arguments may
  // alias (check_proc_refutations).
  bool refuted_only_ = false;
  // Where the statement at hand is (its list and index), for the config values a callee's
  // asserts read there; `placed_` is false for a lone statement checked by check_call.
  BlockPath path_;
  int index_ = 0;
  bool placed_ = false;

  // `idx` with the values of the config fields the proc wrote before the current statement
  // (placed code only): such an index is decided on the written value, as conditions and loop
  // bounds are. A field the caller set stays unknown (the caller's precondition, like an assert).
  std::vector<WAccess> known(std::vector<WAccess> idx) const {
    if (!placed_) return idx;
    for (WAccess& a : idx) {
      a.lo = with_config_values(ctx_.proc(), path_, index_, a.lo, false);
      if (a.is_interval) a.hi = with_config_values(ctx_.proc(), path_, index_, a.hi, false);
    }
    return idx;
  }

  void block(const Block& b) {
    size_t pushed = 0;
    for (size_t k = 0; k < b.size(); ++k) {
      index_ = static_cast<int>(k);
      pushed += stmt(b[k]);
    }
    for (size_t k = 0; k < pushed; ++k) ctx_.pop();
  }
  void sub_block(const Block& b, BlockField field) {
    path_.push_back({index_, field});
    int saved = index_;
    block(b);
    index_ = saved;
    path_.pop_back();
  }

  void expr(const Expr& e, const SrcInfo& where) {
    if (!e.defined()) return;
    if (const ReadNode* r = e.as<ReadNode>()) {
      // Indices may read index arguments (x[col[j]]): those reads are checked too.
      for (const Expr& i : r->idx) expr(i, where);
      if (bounds_ && !r->idx.empty())
        check_access(ctx_, r->name, known(points(r->idx)),
                     e.srcinfo().known() ? e.srcinfo() : where,
                     "the read " + access_text(r->name, r->idx), refuted_only_);
    } else if (const WindowExprNode* w = e.as<WindowExprNode>()) {
      for (const WAccess& a : w->idx) {
        expr(a.lo, where);
        if (a.is_interval) expr(a.hi, where);
      }
      if (bounds_)
        check_access(ctx_, w->name, known(w->idx), e.srcinfo().known() ? e.srcinfo() : where,
                     "the window `" + expr_text(e) + "`", refuted_only_);
    } else if (const USubNode* u = e.as<USubNode>()) {
      expr(u->arg, where);
    } else if (const BinOpNode* b = e.as<BinOpNode>()) {
      expr(b->lhs, where);
      expr(b->rhs, where);
    } else if (const ExternNode* x = e.as<ExternNode>()) {
      for (const Expr& a : x->args) expr(a, where);
    }
  }

  void call(const CallNode* c, const SrcInfo& where) {
    const ProcNode& callee = *c->proc;
    const std::string& f = callee.name;
    for (size_t i = 0; i < callee.args.size() && i < c->args.size(); ++i) {
      const FnArg& fa = callee.args[i];
      const Expr& arg = c->args[i];
      if (fa.type.is_scalar() && fa.type.base == ScalarKind::Size) {
        Expr pos = BinOpNode::make(BinOpKind::Ge, arg, ConstNode::make_int(1));
        std::string what =
            "the size argument " + fa.name.name() + " = `" + expr_text(arg) + "` of " + f;
        require(ctx_, pos, where, what + " is positive",
                "the call to " + f + " may pass a non-positive size: " + what, refuted_only_);
      }
      if (fa.type.is_tensor_or_window() && arg.type().is_tensor_or_window() &&
          arg.type().rank() == fa.type.rank()) {
        for (int d = 0; d < fa.type.rank(); ++d) {
          Expr want = in_caller_terms(ctx_, *c, fa.type.shape[static_cast<size_t>(d)]);
          Expr have = arg.type().shape[static_cast<size_t>(d)];
          Expr eq = BinOpNode::make(BinOpKind::Eq, have, want);
          std::string dim =
              "dimension " + std::to_string(d) + " of argument " + fa.name.name() + " of " + f;
          require(ctx_, eq, where, dim + " matches",
                  "the call to " + f + " passes extent `" + expr_text(have) + "` for " + dim +
                      ", which has extent `" + expr_text(want) + "`",
                  refuted_only_);
        }
      }
    }
    for (size_t i = 0; i < callee.args.size() && i < c->args.size(); ++i)
      if (!callee.args[i].type.window && c->args[i].type().window)
        dense(c->args[i], callee.args[i], f, where);
    for (size_t i = 0; i < callee.args.size() && i < c->args.size(); ++i)
      if (callee.args[i].range) index_range_within(c, i, f, where);
    for (const Expr& p : callee.preds) {
      Expr mine = in_caller_terms(ctx_, *c, p);
      // A config field the assert reads: the value it holds at the call.
      if (placed_) mine = with_config_values(ctx_.proc(), path_, index_, mine);
      std::string what =
          "the assert `" + expr_text(p) + "` of " + f + " (here `" + expr_text(mine) + "`)";
      require(ctx_, mine, where, what + " holds", "the call to " + f + " may violate " + what,
              refuted_only_);
    }
    // Last, so that a call breaking an assert reports that first (as Exo does).
    if (!refuted_only_) aliasing(c, where);
  }

  // An index argument passed on (whole or a window of it, from an index argument: the type
  // checker's rule) holds only values the callee's range allows: the caller's range is empty or
  // lies inside it. The callee's own entry check then never fails, and the caller need not look
  // at its answer.
  void index_range_within(const CallNode* c, size_t i, const std::string& f, const SrcInfo& where) {
    const FnArg& param = c->proc->args[i];
    const Expr& arg = c->args[i];
    std::optional<Sym> name;
    if (const ReadNode* r = arg.as<ReadNode>()) name = r->name;
    if (const WindowExprNode* w = arg.as<WindowExprNode>()) name = w->name;
    const FnArg* mine = nullptr;
    for (const FnArg& a : ctx_.proc().args())
      if (name && a.name == *name) mine = &a;
    if (!mine || !mine->range) return;  // the type checker refuses this call
    Expr lo = in_caller_terms(ctx_, *c, param.range->lo);
    Expr hi = in_caller_terms(ctx_, *c, param.range->hi);
    Expr inside =
        BinOpNode::make(BinOpKind::And, BinOpNode::make(BinOpKind::Le, lo, mine->range->lo),
                        BinOpNode::make(BinOpKind::Le, mine->range->hi, hi));
    Expr ok = BinOpNode::make(
        BinOpKind::Or, BinOpNode::make(BinOpKind::Ge, mine->range->lo, mine->range->hi), inside);
    std::string what = "the values of " + mine->name.name() + " (range(" +
                       expr_text(mine->range->lo) + ", " + expr_text(mine->range->hi) +
                       ")) lie in the range of " + param.name.name() + " of " + f + " (range(" +
                       expr_text(lo) + ", " + expr_text(hi) + "))";
    require(ctx_, ok, where, what,
            "the call to " + f + " may pass index values outside its range: " + what,
            refuted_only_);
  }

  // No buffer argument the callee writes or reduces into may overlap another buffer argument:
  // the callee was analysed (and may have been scheduled) as if they were apart.
  void aliasing(const CallNode* c, const SrcInfo& where) {
    const ProcNode& callee = *c->proc;
    const size_t n = std::min(callee.args.size(), c->args.size());
    std::vector<bool> written(n, false);
    bool any = false;
    Effects eff = effects_of(Context::top(Proc(c->proc)), callee.body);
    for (const Access& a : eff.accesses)
      if (a.kind != AccessKind::Read && !a.is_config())
        for (size_t i = 0; i < n; ++i)
          if (callee.args[i].name == a.buffer) written[i] = any = true;
    if (!any) return;
    std::vector<std::optional<RootWindow>> regions(n);
    for (size_t i = 0; i < n; ++i)
      if (callee.args[i].type.is_data()) regions[i] = arg_region(ctx_, c->args[i]);
    for (size_t i = 0; i < n; ++i) {
      if (!written[i] || !regions[i]) continue;
      for (size_t j = 0; j < n; ++j) {
        if (j == i || !regions[j] || regions[j]->buffer != regions[i]->buffer) continue;
        if (j < i && written[j]) continue;  // that pair was checked already
        std::string what = "the arguments " + callee.args[i].name.name() + " = `" +
                           expr_text(c->args[i]) + "` and " + callee.args[j].name.name() + " = `" +
                           expr_text(c->args[j]) + "` of " + callee.name;
        std::string failure = "the call to " + callee.name +
                              " may pass overlapping buffers where it writes one: " + what +
                              " overlap, but " + callee.name + " writes " +
                              callee.args[i].name.name() +
                              " and is analysed as if its buffer arguments were apart";
        Answer a = always_true(ctx_, disjoint_condition(*regions[i], *regions[j]));
        if (a.proved()) continue;
        if (a.unknown())
          throw AliasError(where, "cannot prove that " + what + " do not overlap: " + a.reason);
        std::string cex =
            a.counterexample == "(for any values)" ? "for any values" : "with " + a.counterexample;
        throw AliasError(where, failure, cex);
      }
    }
  }

  // A window given for a tensor parameter (a plain pointer in C) must be dense.
  void dense(const Expr& arg, const FnArg& fa, const std::string& f, const SrcInfo& where) {
    std::string what = "the window `" + expr_text(arg) + "` given for the tensor parameter " +
                       fa.name.name() + " of " + f;
    require(ctx_, dense_condition(arg), where, what + " is dense",
            "the call to " + f + " may pass a strided window: " + what +
                " must be dense (row-major, no gaps), because a tensor parameter is a plain "
                "pointer; declare "
                "the parameter as a window [" +
                std::string(to_string(fa.type.base)) + "][...] to accept strides",
            refuted_only_);
  }

  // Returns how many scopes it pushed that last until the end of the enclosing block.
  size_t stmt(const Stmt& s) {
    const SrcInfo& where = s.srcinfo();
    switch (s.kind()) {
      case StmtKind::Assign: {
        const AssignNode* n = s.as<AssignNode>();
        for (const Expr& i : n->idx) expr(i, where);
        expr(n->rhs, where);
        if (bounds_)
          check_access(ctx_, n->name, known(points(n->idx)), where,
                       "the write to " + access_text(n->name, n->idx), refuted_only_);
        return 0;
      }
      case StmtKind::Reduce: {
        const ReduceNode* n = s.as<ReduceNode>();
        for (const Expr& i : n->idx) expr(i, where);
        expr(n->rhs, where);
        if (bounds_)
          check_access(ctx_, n->name, known(points(n->idx)), where,
                       "the reduction into " + access_text(n->name, n->idx), refuted_only_);
        return 0;
      }
      case StmtKind::WriteConfig:
        expr(s.as<WriteConfigNode>()->rhs, where);
        return 0;
      case StmtKind::Pass:
        return 0;
      case StmtKind::If: {
        const IfNode* n = s.as<IfNode>();
        expr(n->cond, where);  // a data condition reads buffers
        Scope sc{Scope::Cond};
        // A config field the condition reads: the value it holds here, where the proc wrote it
        // (`Cfg.n = 2 ; if N < Cfg.n: A[N + 9] = ..` is refuted, not undecided).
        sc.cond = placed_ ? with_config_values(ctx_.proc(), path_, index_, n->cond) : n->cond;
        ctx_.push(sc);
        sub_block(n->body, BlockField::Body);
        ctx_.pop();
        sc.negated = true;
        ctx_.push(sc);
        sub_block(n->orelse, BlockField::Orelse);
        ctx_.pop();
        return 0;
      }
      case StmtKind::For: {
        const ForNode* n = s.as<ForNode>();
        expr(n->lo, where);  // bounds may read index arguments (rowptr[i])
        expr(n->hi, where);
        Scope sc{Scope::Loop};
        sc.loop = n;
        // Bounds reading config fields the proc wrote: the values they hold where the loop
        // starts (evaluated once, there).
        if (placed_) {
          sc.lo = with_config_values(ctx_.proc(), path_, index_, n->lo);
          sc.hi = with_config_values(ctx_.proc(), path_, index_, n->hi);
        }
        ctx_.push(sc);
        sub_block(n->body, BlockField::Body);
        ctx_.pop();
        return 0;
      }
      case StmtKind::Alloc: {
        const AllocNode* n = s.as<AllocNode>();
        Scope sc{Scope::Alloc};
        sc.name = n->name;
        sc.type = n->type;
        ctx_.push(sc);
        return 1;
      }
      case StmtKind::Call: {
        const CallNode* n = s.as<CallNode>();
        for (const Expr& a : n->args) expr(a, where);
        if (calls_) call(n, where);
        return 0;
      }
      case StmtKind::WindowStmt: {
        const WindowStmtNode* n = s.as<WindowStmtNode>();
        expr(n->rhs, where);
        Scope sc{Scope::Window};
        sc.name = n->name;
        sc.window = n->rhs;
        ctx_.push(sc);
        return 1;
      }
    }
    return 0;
  }
};

}  // namespace

void check_bounds(const Proc& p) { Checker(p, true, false).run(); }
void check_calls(const Proc& p) { Checker(p, false, true).run(); }
Answer window_is_dense(const Context& ctx, const Expr& window) {
  return always_true(ctx, dense_condition(window));
}

std::optional<StridedTensorArgument> find_strided_tensor_argument(const Proc& p) {
  struct Finder : IRVisitor {
    const Proc& proc;
    std::optional<StridedTensorArgument> found;
    explicit Finder(const Proc& pr) : proc(pr) {}
    void visit_Call(const CallNode* n, const Stmt& s) override {
      const ProcNode& callee = *n->proc;
      if (callee.instr) return;  // an instruction's template receives the window itself
      for (size_t i = 0; i < n->args.size() && i < callee.args.size() && !found; ++i) {
        if (callee.args[i].type.window || !n->args[i].type().window) continue;
        Answer dense = window_is_dense(Context::at(proc, s), n->args[i]);
        if (dense.proved()) continue;
        found = StridedTensorArgument{
            s.srcinfo(), to_string(n->args[i]), callee.args[i].name.name(), callee.name,
            dense.unknown() ? dense.reason : "e.g. " + dense.counterexample};
      }
    }
  } finder(p);
  finder.visit(p.body());
  return finder.found;
}

std::optional<MisalignedInstrWindow> find_misaligned_instr_window(const Proc& p) {
  struct Finder : IRVisitor {
    const Proc& proc;
    std::map<uint64_t, std::pair<std::string, Type>> bufs;  // memory and type, by Sym id
    WindowAliases windows;                                  // the window statements visited so far
    std::optional<MisalignedInstrWindow> found;
    explicit Finder(const Proc& pr) : proc(pr) {
      for (const FnArg& a : pr.args())
        if (a.type.is_tensor_or_window()) bufs[a.name.id()] = {a.mem, a.type};
    }
    void visit_Alloc(const AllocNode* n, const Stmt& s) override {
      bufs[n->name.id()] = {n->mem, n->type};
      IRVisitor::visit_Alloc(n, s);
    }
    void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
      if (const WindowExprNode* w = n->rhs.as<WindowExprNode>()) windows.bind(n->name, *w);
      IRVisitor::visit_WindowStmt(n, s);
    }
    // Where the window `arg` starts in its root buffer's last dimension, and how far it spans
    // there: a window expression or a buffer or window variable passed whole, resolved through
    // window statements to the buffer whose memory holds it. False for anything else (an
    // element, a control value).
    bool last_dim(const Expr& arg, Sym& root, Expr& lo, Expr& extent, bool& point) {
      if (const WindowExprNode* w = arg.as<WindowExprNode>()) {
        if (w->idx.empty()) return false;
      } else if (const ReadNode* r = arg.as<ReadNode>(); r == nullptr || !r->idx.empty()) {
        return false;
      }
      std::optional<WindowView> v = windows.view_of_arg(arg);
      if (!v || !bufs.count(v->root.id())) return false;
      root = v->root;
      if (v->is_identity()) {  // the whole buffer
        const Type& t = bufs.at(root.id()).second;
        if (t.shape.empty()) return false;
        lo = ConstNode::make_int(0, arg.srcinfo());
        extent = t.shape.back();
        point = false;
        return true;
      }
      const WAccess& last = v->dims.back();
      lo = last.lo;
      point = !last.is_interval;
      if (!point) extent = BinOpNode::make(BinOpKind::Sub, last.hi, last.lo, arg.srcinfo());
      return true;
    }
    void visit_Call(const CallNode* n, const Stmt& s) override {
      const ProcNode& ins = *n->proc;
      if (!ins.instr) return;
      for (size_t i = 0; i < n->args.size() && i < ins.args.size() && !found; ++i) {
        Sym root;
        Expr lo, extent;
        bool point = false;
        if (!last_dim(n->args[i], root, lo, extent, point)) continue;
        const std::string& mem = bufs.at(root.id()).first;
        const Memory* m = find_memory(mem);
        const int64_t g = m != nullptr ? m->window_granule() : 1;
        if (g <= 1) continue;
        std::string why;
        if (point) {
          why = "it takes a single element of the last dimension";
        } else {
          const Context ctx = Context::at(proc, s);
          for (const auto& [what, e] :
               {std::pair<const char*, Expr>{"its start ", lo}, {"its extent ", extent}}) {
            Answer a = always_divisible(ctx, e, g);
            if (a.proved()) continue;
            why = std::string(what) + expr_text(e) + " may not be a multiple of " +
                  std::to_string(g) +
                  (a.unknown() ? " (" + a.reason + ")" : ", e.g. " + a.counterexample);
            break;
          }
        }
        if (why.empty()) continue;
        found = MisalignedInstrWindow{
            s.srcinfo(), to_string(n->args[i]), ins.args[i].name.name(), ins.name, mem, g, why};
      }
    }
  } finder(p);
  finder.visit(p.body());
  return finder.found;
}

void check_call_aliasing(const Proc& p, const BlockPath& path, int index) {
  Checker(Context::at(p, path, index), false, true)
      .run_aliasing_at(block_at(p.body(), path)[static_cast<size_t>(index)]);
}

void check_call(const Proc& p, const BlockPath& path, int index) {
  Checker(Context::at(p, path, index), true, true)
      .run_at(path, index, block_at(p.body(), path)[static_cast<size_t>(index)]);
}

namespace {

// check_asserts_satisfiable; with `refuted_only`, asserts the checker cannot decide pass.
void asserts_satisfiable(const Proc& p, bool refuted_only) {
  Context ctx = Context::top(p);
  if (p.preds().empty()) return;
  try {
    Encoder enc(ctx);
    z3::expr f = enc.ctx().bool_val(true);
    for (const FnArg& a : p.args())
      if (a.type.is_scalar() && a.type.base == ScalarKind::Size) f = f && enc.var(a.name) >= 1;
    for (const Expr& pred : p.preds()) {
      f = f && enc.cond(with_entry_config_values(pred));
      SatResult r = check_sat(enc, f);
      if (r.result == z3::sat) continue;
      if (r.result == z3::unknown && refuted_only) return;
      if (r.result == z3::unknown)
        throw AssertError(pred.srcinfo(), "cannot decide whether the asserts of " + p.name() +
                                              " can hold: " + r.why_unknown);
      throw AssertError(pred.srcinfo(), "the asserts of " + p.name() +
                                            " can never hold together: `" + expr_text(pred) +
                                            "` contradicts the sizes and the asserts before it");
    }
  } catch (const Unsupported& u) {
    if (refuted_only) return;
    throw AssertError(u.loc.known() ? u.loc : p->srcinfo,
                      "cannot decide the asserts of " + p.name() + ": " + u.reason);
  } catch (const z3::exception& e) {
    if (refuted_only) return;
    throw AssertError(p->srcinfo,
                      "cannot decide the asserts of " + p.name() + ": Z3 failed: " + e.msg());
  }
}

}  // namespace

void check_asserts_satisfiable(const Proc& p) { asserts_satisfiable(p, false); }

void check_proc(const Proc& p) {
  check_asserts_satisfiable(p);
  check_bounds(p);
  check_calls(p);
}

void check_proc_refutations(const Proc& p) {
  asserts_satisfiable(p, true);
  Checker(p, true, true, true).run();
}

}  // namespace exocpp::checker
