// Effect analysis: walks a block (and the bodies of the procs it calls) collecting every read,
// write and reduction, with windows resolved to their root buffers and callee arguments
// substituted by the call's expressions.
#include "checker/effects.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "core/interpreter.h"
#include "core/ir_visit.h"
#include "core/window_alias.h"

namespace exocpp::checker {

const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Read:
      return "reads";
    case AccessKind::Write:
      return "writes";
    case AccessKind::Reduce:
      return "reduces into";
  }
  return "?";
}

bool Access::same_location_as(const Access& o) const {
  if (is_config() || o.is_config()) return config == o.config && field == o.field;
  return buffer == o.buffer;
}

bool Access::writes_same_constant_as(const Access& o) const {
  if (kind != AccessKind::Write || o.kind != AccessKind::Write) return false;
  if (!stored_constant.defined() || !o.stored_constant.defined()) return false;
  const auto* a = stored_constant.as<ConstNode>();
  const auto* b = o.stored_constant.as<ConstNode>();
  return same_constant(*a, *b);
}

static bool contains(const std::vector<Sym>& v, const Sym& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}
bool Effects::allocates(const Sym& s) const { return contains(allocs, s); }
bool Effects::defines(const Sym& s) const { return contains(allocs, s) || contains(windows, s); }
bool Effects::uses(const Sym& s) const { return contains(used, s); }

namespace {

// The naming environment of the code being walked: windows (and a callee's buffer arguments)
// as views of their root buffers (core/window_alias.h), a callee's control arguments as the
// caller's expressions. Views keep offsets as plain sums (add_offset): the encoder needs no
// simplification, and access indices stay as the code wrote them.
struct Env {
  WindowAliases views;
  std::unordered_map<uint64_t, Expr> vars;
};

// Replaces a callee's control arguments by the caller's expressions and strides of windows by
// strides of their root buffers.
class Subst : public IRMutator {
 public:
  explicit Subst(const Env& env) : env_(env) {}

 protected:
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    if (n->idx.empty()) {
      auto it = env_.vars.find(n->name.id());
      if (it != env_.vars.end()) return it->second;
      return e;
    }
    // An element read inside control (a callee's `idx[l]`, idx an index parameter given
    // `col[j:j + 16]`) reads the caller's buffer through the view: `col[j + l]`, so the encoder
    // sees the caller's index argument, the same unknown as the caller's own reads of it.
    WindowView v = env_.views.view(n->name);
    if (v.root == n->name && v.is_identity()) return IRMutator::mutate_Read(n, e);
    std::vector<Expr> idx;
    for (const Expr& i : n->idx) idx.push_back(mutate(i));
    return ReadNode::make(v.root, v.to_root(idx), e.type(), e.srcinfo());
  }
  Expr mutate_StrideExpr(const StrideExprNode* n, const Expr& e) override {
    WindowView v = env_.views.view(n->name);
    if (v.root == n->name && v.is_identity()) return e;
    std::optional<int> d = v.root_dim(n->dim);
    if (!d) return e;  // ill-typed dimension: leave it, the encoder will not know it either
    return StrideExprNode::make(v.root, *d, e.srcinfo());
  }

 private:
  const Env& env_;
};

Expr subst(const Env& env, const Expr& e) {
  if (env.vars.empty() && env.views.empty()) return e;
  Subst s(env);
  return s.mutate(e);
}

Location resolve_in(const Env& env, const Sym& name, const std::vector<Expr>& idx) {
  WindowView v = env.views.view(name);
  return {v.root, v.to_root(idx)};
}

// The view a window expression (already in the walker's terms) denotes.
WindowView view_of_window(const Env& env, const WindowExprNode* w) {
  std::vector<WAccess> mine;
  for (const WAccess& a : w->idx)
    mine.push_back(a.is_interval ? WAccess::interval(subst(env, a.lo), subst(env, a.hi))
                                 : WAccess::point(subst(env, a.lo)));
  return env.views.view(w->name).compose(mine);
}

Env env_of(const Context& ctx) {
  Env env;
  for (const Scope& s : ctx.scopes())
    if (s.kind == Scope::Window)
      if (const WindowExprNode* w = s.window.as<WindowExprNode>())
        env.views.bind(s.name, view_of_window(env, w));
  return env;
}

// The environment of a callee's body: its control arguments are the call's expressions, its
// buffer arguments views of the caller's buffers.
Env call_env(const Env& env, const CallNode* c) {
  const ProcNode& callee = *c->proc;
  Env inner;
  for (size_t i = 0; i < callee.args.size() && i < c->args.size(); ++i) {
    const FnArg& fa = callee.args[i];
    const Expr& arg = c->args[i];
    if (fa.type.is_control()) {
      inner.vars[fa.name.id()] = subst(env, arg);
    } else if (const WindowExprNode* w = arg.as<WindowExprNode>()) {
      inner.views.bind(fa.name, view_of_window(env, w));
    } else if (const ReadNode* r = arg.as<ReadNode>()) {
      if (r->idx.empty()) {
        inner.views.bind(fa.name, env.views.view(r->name));
      } else {
        std::vector<Expr> sidx;
        for (const Expr& e : r->idx) sidx.push_back(subst(env, e));
        Location loc = resolve_in(env, r->name, sidx);
        WindowView v{loc.buffer, {}};
        for (const Expr& e : loc.idx) v.dims.push_back(WAccess::point(e));
        inner.views.bind(fa.name, std::move(v));
      }
    }
  }
  return inner;
}

// A callee's effects in its own terms (its arguments' symbols, its own loop variables), with
// its asserts as the first guards of each access; identical accesses (two calls of one
// proc from the same statement reach the same callee statement) are kept once. A call site
// substitutes its arguments into the summary (summary_at) instead of walking the callee again:
// effects of a call chain cost the size of the call graph, not the number of paths in it.
struct Summary {
  std::vector<Access> accesses;
  std::vector<Sym> allocs;
};
using SummaryMemo = std::unordered_map<const ProcNode*, std::shared_ptr<const Summary>>;

bool same_access(const Access& a, const Access& b) {
  if (a.kind != b.kind || a.buffer != b.buffer || a.config != b.config || a.field != b.field ||
      a.top != b.top || a.through_call != b.through_call || a.srcinfo.file != b.srcinfo.file ||
      a.srcinfo.line != b.srcinfo.line || a.srcinfo.col != b.srcinfo.col ||
      !expr_equal(a.idx, b.idx) || a.loops.size() != b.loops.size() ||
      a.guards.size() != b.guards.size())
    return false;
  for (size_t k = 0; k < a.loops.size(); ++k)
    if (a.loops[k].iter != b.loops[k].iter || !expr_equal(a.loops[k].lo, b.loops[k].lo) ||
        !expr_equal(a.loops[k].hi, b.loops[k].hi))
      return false;
  for (size_t k = 0; k < a.guards.size(); ++k)
    if (a.guards[k].negated != b.guards[k].negated ||
        !expr_equal(a.guards[k].cond, b.guards[k].cond))
      return false;
  return true;
}

// Keeps the first of each group of identical accesses, in order.
std::vector<Access> dedup(std::vector<Access> in) {
  auto key = [](const Access& a) {
    size_t h = static_cast<size_t>(a.kind) * 1000003u;
    h ^= std::hash<uint64_t>()(a.buffer.valid() ? a.buffer.id() : 0) + 0x9e3779b97f4a7c15ull +
         (h << 6) + (h >> 2);
    h ^= std::hash<std::string>()(a.field) + (h << 6);
    h ^= static_cast<size_t>(a.srcinfo.line) * 31u + static_cast<size_t>(a.srcinfo.col);
    h ^= (a.idx.size() << 20) ^ (a.loops.size() << 24) ^ (a.guards.size() << 28);
    return h;
  };
  std::unordered_map<size_t, std::vector<size_t>> buckets;
  std::vector<Access> out;
  out.reserve(in.size());
  for (Access& a : in) {
    std::vector<size_t>& b = buckets[key(a)];
    bool dup = false;
    for (size_t k : b)
      if (same_access(out[k], a)) {
        dup = true;
        break;
      }
    if (dup) continue;
    b.push_back(out.size());
    out.push_back(std::move(a));
  }
  return out;
}

class Walker {
 public:
  Walker(Effects& out, SummaryMemo& memo, int call_depth = 0)
      : out_(out), memo_(memo), call_depth_(call_depth) {}

  // `first_index`: the index of b's first statement in its path step (an else branch's
  // statements follow its then branch's).
  void block(const Block& b, Env& env, int top, int first_index = 0) {
    for (size_t i = 0; i < b.size(); ++i) {
      path_.push_back(AccessStep{first_index + static_cast<int>(i), -1, first_index > 0});
      stmt(b[i], env, top < 0 ? static_cast<int>(i) : top);
      path_.pop_back();
    }
  }

  // The summary of `callee` (computed once per effects_of, then shared by every call site).
  std::shared_ptr<const Summary> summary_of(const ProcNode& callee) {
    auto it = memo_.find(&callee);
    if (it != memo_.end()) {
      if (!it->second)
        throw TypeError(callee.srcinfo,
                        "proc " + callee.name + " calls itself (recursion is not supported)");
      return it->second;
    }
    memo_.emplace(&callee, nullptr);  // in progress: a recursive call is refused above
    Effects eff;
    Walker w(eff, memo_, 1);
    for (const Expr& p : callee.preds) w.guards_.push_back(Guard{p, false});
    Env own;
    // The callee's asserts are evaluated at the call (config reads in them).
    for (const Expr& p : callee.preds) w.reads(p, own, callee.srcinfo, 0);
    w.block(callee.body, own, 0);
    auto sum = std::make_shared<Summary>();
    sum->accesses = dedup(std::move(eff.accesses));
    sum->allocs = std::move(eff.allocs);
    memo_[&callee] = sum;
    return sum;
  }

 private:
  Effects& out_;
  SummaryMemo& memo_;
  std::vector<LoopRange> loops_;
  std::vector<Guard> guards_;
  std::vector<AccessStep> path_;
  int call_depth_ = 0;

  void use(const Sym& s) {
    if (call_depth_ == 0 && !contains(out_.used, s)) out_.used.push_back(s);
  }

  void add_access(AccessKind k, const Env& env, const Sym& name, const std::vector<Expr>& idx,
                  const SrcInfo& where, int top, const Expr& value = Expr()) {
    use(name);
    std::vector<Expr> sidx;
    for (const Expr& e : idx) sidx.push_back(subst(env, e));
    Location loc = resolve_in(env, name, sidx);
    Access a;
    a.kind = k;
    a.buffer = loc.buffer;
    a.idx = std::move(loc.idx);
    a.loops = loops_;
    a.guards = guards_;
    a.srcinfo = where;
    a.top = top;
    a.path = path_;
    a.through_call = call_depth_ > 0;
    if (k == AccessKind::Write && value.defined() && value.kind() == ExprKind::Const)
      a.stored_constant = value;
    out_.accesses.push_back(std::move(a));
  }

  void add_window_corners(const Env& env, const WindowExprNode* w, const SrcInfo& where, int top) {
    WindowView v = view_of_window(env, w);
    std::vector<Expr> first, last;
    for (const WAccess& d : v.dims) {
      first.push_back(d.lo);
      last.push_back(d.is_interval ? BinOpNode::make(BinOpKind::Sub, d.hi, ConstNode::make_int(1),
                                                     d.hi.srcinfo())
                                   : d.lo);
    }
    for (std::vector<Expr>* idx : {&first, &last}) {
      Access a;
      a.kind = AccessKind::Read;
      a.buffer = v.root;
      a.idx = std::move(*idx);
      a.loops = loops_;
      a.guards = guards_;
      a.srcinfo = where;
      a.top = top;
      a.path = path_;
      a.through_call = call_depth_ > 0;
      out_.window_corners.push_back(std::move(a));
    }
  }

  void add_config(AccessKind k, const Config& cfg, const std::string& field, const SrcInfo& where,
                  int top, const Expr& value = Expr()) {
    Access a;
    a.kind = k;
    a.config = cfg;
    a.field = field;
    a.loops = loops_;
    a.guards = guards_;
    a.srcinfo = where;
    a.top = top;
    a.path = path_;
    a.through_call = call_depth_ > 0;
    if (k == AccessKind::Write && value.defined() && value.kind() == ExprKind::Const)
      a.stored_constant = value;
    out_.accesses.push_back(std::move(a));
  }

  // Data reads and config reads inside an expression.
  void reads(const Expr& e, const Env& env, const SrcInfo& where, int top) {
    if (!e.defined()) return;
    switch (e.kind()) {
      case ExprKind::Read: {
        const ReadNode* r = e.as<ReadNode>();
        bool data_scalar = r->type.is_scalar() && is_data(r->type.base);
        if (!r->idx.empty() || data_scalar)
          add_access(AccessKind::Read, env, r->name, r->idx, where, top);
        index_reads(r->idx, env, where, top);
        return;
      }
      case ExprKind::Const:
        return;
      case ExprKind::USub:
        reads(e.as<USubNode>()->arg, env, where, top);
        return;
      case ExprKind::BinOp:
        reads(e.as<BinOpNode>()->lhs, env, where, top);
        reads(e.as<BinOpNode>()->rhs, env, where, top);
        return;
      case ExprKind::Extern:
        for (const Expr& a : e.as<ExternNode>()->args) reads(a, env, where, top);
        return;
      case ExprKind::WindowExpr: {
        // A window reads no data, but its bounds are evaluated here (config reads).
        const WindowExprNode* w = e.as<WindowExprNode>();
        use(w->name);
        add_window_corners(env, w, where, top);
        for (const WAccess& a : w->idx) {
          reads(a.lo, env, where, top);
          if (a.is_interval) reads(a.hi, env, where, top);
        }
        return;
      }
      case ExprKind::StrideExpr:
        return;
      case ExprKind::ReadConfig: {
        const ReadConfigNode* c = e.as<ReadConfigNode>();
        add_config(AccessKind::Read, c->config, c->field, where, top);
        return;
      }
    }
  }

  // The expressions an index list evaluates (config reads in them), without reading the
  // indexed location itself.
  void index_reads(const std::vector<Expr>& idx, const Env& env, const SrcInfo& where, int top) {
    for (const Expr& i : idx) reads(i, env, where, top);
  }

  // The expressions a call evaluates at the call site: control arguments, and the bounds and
  // indices of buffer arguments (their data is accessed by the callee's body, walked below).
  void argument_reads(const CallNode* c, const Env& env, const SrcInfo& where, int top) {
    const ProcNode& callee = *c->proc;
    for (size_t i = 0; i < callee.args.size() && i < c->args.size(); ++i) {
      const Expr& arg = c->args[i];
      if (callee.args[i].type.is_control()) {
        reads(arg, env, where, top);
      } else if (arg.is<WindowExprNode>()) {
        reads(arg, env, where, top);
      } else if (const ReadNode* r = arg.as<ReadNode>()) {
        use(r->name);
        index_reads(r->idx, env, where, top);
      }
    }
  }

  void call(const CallNode* c, Env& env, const SrcInfo& where, int top) {
    argument_reads(c, env, where, top);
    summary_at(c, env, top);
  }

  // The callee's summary in the terms of this call site: its arguments replaced by the call's
  // expressions (and views of the caller's buffers), under the loops and guards around the call.
  void summary_at(const CallNode* c, const Env& env, int top) {
    std::shared_ptr<const Summary> sum = summary_of(*c->proc);
    Env inner = call_env(env, c);
    for (const Access& s : sum->accesses) {
      Access a;
      a.kind = s.kind;
      a.config = s.config;
      a.field = s.field;
      if (!s.is_config()) {
        std::vector<Expr> sidx;
        for (const Expr& e : s.idx) sidx.push_back(subst(inner, e));
        Location loc = resolve_in(inner, s.buffer, sidx);
        a.buffer = loc.buffer;
        a.idx = std::move(loc.idx);
      }
      a.loops = loops_;
      for (const LoopRange& l : s.loops)
        a.loops.push_back(LoopRange{l.iter, subst(inner, l.lo), subst(inner, l.hi), l.node});
      a.guards = guards_;
      for (const Guard& g : s.guards) a.guards.push_back(Guard{subst(inner, g.cond), g.negated});
      a.srcinfo = s.srcinfo;
      a.top = top;
      a.path = path_;
      a.through_call = true;
      a.async = s.async || (c->proc->instr && !c->proc->instr->async.empty());
      out_.accesses.push_back(std::move(a));
    }
    for (const Sym& s : sum->allocs)
      if (!contains(out_.allocs, s)) out_.allocs.push_back(s);
  }

  void stmt(const Stmt& s, Env& env, int top) {
    const SrcInfo& where = s.srcinfo();
    switch (s.kind()) {
      case StmtKind::Assign: {
        const AssignNode* n = s.as<AssignNode>();
        reads(n->rhs, env, where, top);
        index_reads(n->idx, env, where, top);
        add_access(AccessKind::Write, env, n->name, n->idx, where, top, n->rhs);
        return;
      }
      case StmtKind::Reduce: {
        const ReduceNode* n = s.as<ReduceNode>();
        reads(n->rhs, env, where, top);
        index_reads(n->idx, env, where, top);
        add_access(AccessKind::Reduce, env, n->name, n->idx, where, top);
        out_.accesses.back().truncating = !reductions_regroup(n->type, n->rhs);
        return;
      }
      case StmtKind::WriteConfig: {
        const WriteConfigNode* n = s.as<WriteConfigNode>();
        reads(n->rhs, env, where, top);
        add_config(AccessKind::Write, n->config, n->field, where, top, n->rhs);
        return;
      }
      case StmtKind::Pass:
        return;
      case StmtKind::If: {
        const IfNode* n = s.as<IfNode>();
        reads(n->cond, env, where, top);
        guards_.push_back(Guard{subst(env, n->cond), false});
        block(n->body, env, top);
        guards_.back().negated = true;
        block(n->orelse, env, top, static_cast<int>(n->body.size()));
        guards_.pop_back();
        return;
      }
      case StmtKind::For: {
        const ForNode* n = s.as<ForNode>();
        reads(n->lo, env, where, top);
        reads(n->hi, env, where, top);
        loops_.push_back(LoopRange{n->iter, subst(env, n->lo), subst(env, n->hi), n});
        path_.back().loop = static_cast<int>(loops_.size()) - 1;
        block(n->body, env, top);
        path_.back().loop = -1;
        loops_.pop_back();
        return;
      }
      case StmtKind::Alloc: {
        const AllocNode* n = s.as<AllocNode>();
        for (const Expr& d : n->type.shape) reads(d, env, where, top);  // sizes evaluated here
        if (!contains(out_.allocs, n->name)) out_.allocs.push_back(n->name);
        return;
      }
      case StmtKind::Call:
        call(s.as<CallNode>(), env, where, top);
        return;
      case StmtKind::WindowStmt: {
        const WindowStmtNode* n = s.as<WindowStmtNode>();
        // The window's bounds are evaluated here, once: record what they read. The view keeps
        // its expressions as written; a config read in them stays symbolic, and the encoder
        // never gives a config read a value, so an access through the view is never decided
        // with a value the field takes later (it is Unknown instead).
        reads(n->rhs, env, where, top);
        if (const WindowExprNode* w = n->rhs.as<WindowExprNode>()) {
          env.views.bind(n->name, view_of_window(env, w));
        }
        if (call_depth_ == 0) out_.windows.push_back(n->name);
        return;
      }
    }
  }
};

}  // namespace

Effects effects_of(const Context& ctx, const Block& code) {
  Effects out;
  Env env = env_of(ctx);
  SummaryMemo memo;
  Walker w(out, memo);
  w.block(code, env, -1);
  return out;
}

Effects effects_of(const Context& ctx, const Stmt& s) { return effects_of(ctx, Block{s}); }

Location resolve(const Context& ctx, const Sym& name, const std::vector<Expr>& idx) {
  return resolve_in(env_of(ctx), name, idx);
}

Expr in_caller_terms(const Context& ctx, const CallNode& call, const Expr& callee_expr) {
  return subst(call_env(env_of(ctx), &call), callee_expr);
}

RootWindow resolve_window(const Context& ctx, const WindowExprNode& w) {
  WindowView v = view_of_window(env_of(ctx), &w);
  return RootWindow{v.root, std::move(v.dims)};
}

}  // namespace exocpp::checker
