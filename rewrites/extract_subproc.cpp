// ============================================================================================
// extract_subproc: move a block into a new proc and call it.
// ============================================================================================
//
//   def f(N: size, A: f32[N, 4]):            def g(N: size, A: f32[N, 4], i: index):
//       for i in seq(0, N):          -->         assert 0 <= i and i < N  (as two asserts)
//           A[i, 0] = 0.0                        A[i, 0] = 0.0
//           A[i, 1] = 1.0                        A[i, 1] = 1.0
//                                            def f(N: size, A: f32[N, 4]):
//                                                for i in seq(0, N):
//                                                    g(N, A, i)
//
// The arguments are the variables the block uses from its surroundings, in the order they are
// bound (the proc's arguments, then enclosing loops, allocations and windows, outside in), as in
// Exo; a buffer brings the variables of its shape. Always legal: the call runs the block on the
// same variables. Refused when the block defines a buffer or window used after it (the name
// would no longer exist there).
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "core/ir_visit.h"
#include "core/simplify.h"
#include "core/typecheck.h"
#include "core/uses.h"
#include "core/window_alias.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/subprocs.h"

namespace exocpp {

namespace {

// A variable bound outside the block: its symbol, type and memory ("" for control values).
struct Bound {
  Sym sym;
  Type type;
  std::string mem;
  Sym root;  // the buffer a window views (itself for other buffers)
};

// The variables visible at the block, outer first, and the facts that hold there (asserts,
// loop ranges, if conditions).
struct Env {
  std::vector<Bound> vars;
  std::vector<Expr> facts;
};

// `cond` negated where that is expressible (comparisons and their and/or combinations).
std::optional<Expr> negate(const Expr& cond) {
  const BinOpNode* b = cond.as<BinOpNode>();
  if (!b) return std::nullopt;
  auto flip = [&](BinOpKind op) { return rw::mk_cmp(op, b->lhs, b->rhs, cond.srcinfo()); };
  switch (b->op) {
    case BinOpKind::Lt:
      return flip(BinOpKind::Ge);
    case BinOpKind::Le:
      return flip(BinOpKind::Gt);
    case BinOpKind::Gt:
      return flip(BinOpKind::Le);
    case BinOpKind::Ge:
      return flip(BinOpKind::Lt);
    case BinOpKind::And:
    case BinOpKind::Or: {
      auto l = negate(b->lhs), r = negate(b->rhs);
      if (!l || !r) return std::nullopt;
      return b->op == BinOpKind::And ? rw::mk_or(*l, *r, cond.srcinfo())
                                     : rw::mk_and(*l, *r, cond.srcinfo());
    }
    case BinOpKind::Eq:
    case BinOpKind::Add:
    case BinOpKind::Sub:
    case BinOpKind::Mul:
    case BinOpKind::Div:
    case BinOpKind::Mod:
      return std::nullopt;
  }
  return std::nullopt;
}

Env env_at(const Proc& p, const BlockPath& path, int index) {
  Env env;
  for (const FnArg& a : p.args()) env.vars.push_back({a.name, a.type, a.mem, a.name});
  env.facts = p.preds();
  WindowAliases windows;  // the window statements bound so far along the path
  auto bind_before = [&](const Block& list, int upto) {
    for (int i = 0; i < upto; ++i) {
      const Stmt& s = list[static_cast<size_t>(i)];
      if (const AllocNode* a = s.as<AllocNode>())
        env.vars.push_back({a->name, a->type, a->mem, a->name});
      if (const WindowStmtNode* w = s.as<WindowStmtNode>()) {
        Type t = w->rhs.type();
        for (Expr& d : t.shape) d = simplify_expr(d);
        const WindowExprNode& rhs = *w->rhs.as<WindowExprNode>();
        windows.bind(w->name, rhs);
        Bound b{w->name, t, "DRAM", windows.root(w->name)};
        for (auto v = env.vars.rbegin(); v != env.vars.rend(); ++v)
          if (v->sym == rhs.name) {  // the innermost binding: a window lives in its root's memory
            b.mem = v->mem;
            break;
          }
        env.vars.push_back(b);
      }
    }
  };
  const Block* list = &p.body();
  for (const PathStep& step : path) {
    bind_before(*list, step.index);
    const Stmt& s = (*list)[static_cast<size_t>(step.index)];
    if (const ForNode* f = s.as<ForNode>()) {
      env.vars.push_back({f->iter, Type(ScalarKind::Index), "", f->iter});
      Expr it = rw::index_var(f->iter, f->srcinfo);
      env.facts.push_back(rw::mk_cmp(BinOpKind::Le, f->lo, it, f->srcinfo));
      env.facts.push_back(rw::mk_cmp(BinOpKind::Lt, it, f->hi, f->srcinfo));
      list = &f->body;
    } else if (const IfNode* c = s.as<IfNode>()) {
      if (step.field == BlockField::Body) {
        env.facts.push_back(c->cond);
      } else if (auto n = negate(c->cond)) {
        env.facts.push_back(*n);
      }
      list = step.field == BlockField::Body ? &c->body : &c->orelse;
    }
  }
  bind_before(*list, index);
  return env;
}

}  // namespace

Extracted extract_subproc(const Proc& p, const CursorLike& block, const std::string& subproc_name,
                          const ExtractSubprocOptions& opts) {
  return rw::run_op("extract_subproc", [&]() -> Extracted {
    Cursor c = rw::resolve_block(p, block);
    rw::check_new_proc_name(p, subproc_name, c.srcinfo(), /*other_than_self=*/true);
    const BlockPath path = c.loc().block;
    const int lo = c.loc().lo, hi = c.loc().hi;
    const Block& list = c.list();
    Block body(list.begin() + lo, list.begin() + hi);
    Block rest(list.begin() + hi, list.end());
    std::vector<std::string> escaping = rw::bindings_used_after(body, rest);
    if (!escaping.empty())
      rw::fail(reason::kScopeEscapes, c,
               "the block defines '" + escaping[0] +
                   "', which is used after it; extend the block to " +
                   "cover those uses, or move the definition out of it");

    // 1. The variables the block uses, closed under the variables of their shapes.
    Env env = env_at(p, path, lo);
    const Uses body_uses = uses_of(body);
    std::set<Sym> used = body_uses.read;
    used.insert(body_uses.written.begin(), body_uses.written.end());
    // An index argument of the proc stays one in the new proc, with its range (and the sizes
    // the range names): its reads are control values only there.
    auto index_range = [&](const Sym& s) -> std::optional<ValueRange> {
      for (const FnArg& a : p.args())
        if (a.name == s && a.range) return a.range;
      return std::nullopt;
    };
    for (size_t k = env.vars.size(); k-- > 0;)
      if (used.count(env.vars[k].sym)) {
        for (const Sym& s : uses_of(env.vars[k].type).read) used.insert(s);
        if (auto r = index_range(env.vars[k].sym))
          for (const Expr& e : {r->lo, r->hi})
            for (const Sym& s : uses_of(e).read) used.insert(s);
      }
    std::vector<FnArg> args;
    std::vector<Expr> call_args;
    std::map<std::string, Sym> by_name;
    std::set<Sym> arg_syms;
    std::vector<Bound> passed;
    for (const Bound& b : env.vars) {
      if (!used.count(b.sym)) continue;
      auto [it, fresh] = by_name.emplace(b.sym.name(), b.sym);
      if (!fresh && it->second != b.sym)
        rw::fail(reason::kScopeShadowed, c,
                 "the block uses two different variables named '" + b.sym.name() +
                     "' (one shadows the other); rename one first");
      arg_syms.insert(b.sym);
      passed.push_back(b);
      args.push_back(FnArg{b.sym, b.type,
                           b.type.is_control() ? "" : (b.mem.empty() ? "DRAM" : b.mem), c.srcinfo(),
                           index_range(b.sym)});
      call_args.push_back(ReadNode::make(b.sym, {}, b.type, c.srcinfo()));
    }

    // The checker takes distinct buffer arguments never to alias: two arguments viewing one
    // buffer (a window and its buffer, two windows of it) are refused when the block writes it.
    // Written: assigned or reduced into by the block, or passed to a call that may write it.
    std::set<Sym> written_roots;
    for (const Bound& b : passed)
      if (body_uses.written.count(b.sym) || body_uses.passed.count(b.sym))
        written_roots.insert(b.root);
    for (size_t a = 0; a < passed.size(); ++a)
      for (size_t b = a + 1; b < passed.size(); ++b) {
        const Sym& root = passed[a].root;
        if (passed[a].type.is_control() || root != passed[b].root || !written_roots.count(root))
          continue;
        rw::fail(reason::kBufferAliased, c,
                 "the block would pass '" + passed[a].sym.name() + "' and '" +
                     passed[b].sym.name() + "', which view the same buffer '" + root.name() +
                     "' that it writes; arguments of a " +
                     "proc must not alias (inline_window first)");
      }

    // 2. The facts over those variables become asserts.
    std::vector<Expr> preds;
    if (opts.include_asserts) {
      for (const Expr& f : env.facts) {
        // A fact over control arguments alone (no buffer element, no config) becomes an assert.
        const Uses m = uses_of(f);
        bool over_args = !m.reads_data;
        for (const Sym& s : m.read) over_args = over_args && arg_syms.count(s);
        if (over_args) preds.push_back(f);
      }
    }

    // 3. Build the subproc and the call; both are type-checked.
    Proc subproc(ProcNode::make(subproc_name, std::move(args), std::move(preds), body, std::nullopt,
                                c.srcinfo()));
    // Without the plain-access rule for instruction-only memories, as every rewrite checks its
    // result (TypecheckOptions): the block may be a copy loop into a register buffer that a
    // later replace turns into an instruction call (Exo's test_extract_subproc5).
    typecheck(subproc, {.memory_access = false});
    Stmt call = CallNode::make(subproc.ptr(), std::move(call_args), c.srcinfo());
    Proc out = rw::Edit(p).replace(path, lo, hi, {call}).done();
    typecheck(out, {.memory_access = false});
    return Extracted{out, subproc};
  });
}

}  // namespace exocpp
