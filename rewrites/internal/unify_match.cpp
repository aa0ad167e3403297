// The first stage of replace's unifier: walk the caller's block and the subproc's body in
// step, check that they have the same shape (statement kinds, loops, operators, constants,
// allocations), and collect what the solver needs: index equations and the accesses of the
// subproc's buffer arguments next to the caller accesses they stand for (see unify.h).
#include <algorithm>
#include <unordered_set>

#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "core/uses.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/unify.h"

namespace exocpp::rw::unify {

namespace {

// The first line of a statement, without its trailing newline or body.
std::string first_line(const Stmt& s) {
  std::string t = to_string(s);
  size_t nl = t.find('\n');
  return nl == std::string::npos ? t : t.substr(0, nl);
}

const char* stmt_word(StmtKind k) {
  switch (k) {
    case StmtKind::Assign:
      return "assignment";
    case StmtKind::Reduce:
      return "reduction";
    case StmtKind::WriteConfig:
      return "config write";
    case StmtKind::Pass:
      return "pass";
    case StmtKind::If:
      return "if";
    case StmtKind::For:
      return "loop";
    case StmtKind::Alloc:
      return "allocation";
    case StmtKind::Call:
      return "call";
    case StmtKind::WindowStmt:
      return "window statement";
  }
  return "statement";
}

std::string with_article(const std::string& w) {
  return (std::string("aeiou").find(w[0]) == std::string::npos ? "a " : "an ") + w;
}

// An index, size, int or stride value: what equations compare.
bool is_number(const Type& t) {
  return t.is_scalar() && (is_indexable(t.base) || t.base == ScalarKind::Stride);
}

class Matcher {
 public:
  Matcher(const Proc& callee, Problem& pb) : callee_(callee), pb_(pb) {
    for (const FnArg& a : callee.args()) args_.push_back(&a);
  }

  void block(const Block& ce, const Block& ke, const SrcInfo& where, const std::string& what) {
    if (ce.size() != ke.size())
      throw Mismatch{ke.empty() ? where : ke.front().srcinfo(),
                     what + " has " + count(ke.size()) + " but the matching part of '" +
                         callee_.name() + "' has " + count(ce.size())};
    for (size_t k = 0; k < ce.size(); ++k) stmt(ce[k], ke[k]);
  }

 private:
  static std::string count(size_t n) {
    return std::to_string(n) + (n == 1 ? " statement" : " statements");
  }

  [[noreturn]] void differ(const Stmt& ce, const Stmt& ke, const std::string& why) const {
    throw Mismatch{ke.srcinfo(), "the " + std::string(stmt_word(ke.kind())) + " `" +
                                     first_line(ke) + "` does not match `" + first_line(ce) +
                                     "` of '" + callee_.name() + "': " + why};
  }
  [[noreturn]] void differ(const Expr& ce, const Expr& ke, const std::string& why) const {
    throw Mismatch{ke.srcinfo().known() ? ke.srcinfo() : cur_,
                   "the expression `" + to_string(ke) + "` does not match `" + to_string(ce) +
                       "` of '" + callee_.name() + "': " + why};
  }

  const FnArg* arg_of(const Sym& s) const {
    for (const FnArg* a : args_)
      if (a->name == s) return a;
    return nullptr;
  }
  Expr subst(const Expr& e) const { return simplify_expr(rw::substitute(e, iters_)); }

  void stmt(const Stmt& ce, const Stmt& ke) {
    if (ce.kind() != ke.kind()) differ(ce, ke, "expected " + with_article(stmt_word(ce.kind())));
    cur_ = ke.srcinfo();
    switch (ce.kind()) {
      case StmtKind::Assign:
        return write<AssignNode>(ce, ke);
      case StmtKind::Reduce:
        return write<ReduceNode>(ce, ke);
      case StmtKind::WriteConfig: {
        const WriteConfigNode* c = ce.as<WriteConfigNode>();
        const WriteConfigNode* k = ke.as<WriteConfigNode>();
        if (c->config->name != k->config->name || c->field != k->field)
          differ(ce, ke, "it writes another config field");
        expr(c->rhs, k->rhs, is_data(c->rhs.type().base));
        return;
      }
      case StmtKind::Pass:
        return;
      case StmtKind::If: {
        const IfNode* c = ce.as<IfNode>();
        const IfNode* k = ke.as<IfNode>();
        expr(c->cond, k->cond);
        block(c->body, k->body, ke.srcinfo(), "the body of `" + first_line(ke) + "`");
        if (c->orelse.empty() != k->orelse.empty())
          differ(ce, ke, "only one of them has an else branch");
        block(c->orelse, k->orelse, ke.srcinfo(), "the else branch of `" + first_line(ke) + "`");
        return;
      }
      case StmtKind::For:
        return loop(ce, ke);
      case StmtKind::Alloc: {
        const AllocNode* c = ce.as<AllocNode>();
        const AllocNode* k = ke.as<AllocNode>();
        if (c->type.rank() != k->type.rank()) differ(ce, ke, "the buffers have different ranks");
        if (c->type.base != k->type.base && c->type.base != ScalarKind::R &&
            k->type.base != ScalarKind::R)
          differ(ce, ke, "the element types differ");
        // R stands for any float precision (reals, as in Exo), not for an integer one: an integer
        // buffer wraps what an R buffer keeps exactly.
        if (c->type.base != k->type.base && (!is_float(c->type.base) || !is_float(k->type.base)))
          differ(ce, ke,
                 std::string("the element types differ (") + to_string(k->type.base) + " vs " +
                     to_string(c->type.base) + "): R matches float precisions only");
        if (c->mem != k->mem)
          differ(ce, ke, "the memories differ (" + k->mem + " vs " + c->mem + ")");
        for (int d = 0; d < c->type.rank(); ++d)
          equation(c->type.shape[static_cast<size_t>(d)], k->type.shape[static_cast<size_t>(d)],
                   ke);
        pb_.locals[c->name] = k->name;
        return;
      }
      case StmtKind::Call:
        differ(ce, ke,
               "calls inside the subproc's body are not unified; inline_proc the inner call first");
      case StmtKind::WindowStmt:
        differ(ce, ke, "window statements inside the subproc's body are not unified");
    }
  }

  // `x[idx] = rhs` or `x[idx] += rhs` on both sides.
  template <class N>
  void write(const Stmt& ce, const Stmt& ke) {
    const N* c = ce.as<N>();
    const N* k = ke.as<N>();
    access(ce, ke, c->name, c->idx, k->name, k->idx, /*write=*/true);
    expr(c->rhs, k->rhs, /*data=*/true);
  }

  // Loops match up to renaming and a shift: callee `for j in seq(a, b)` and caller
  // `for i in seq(c, d)` run the same number of times and j stands for i - c + a. A caller nest
  // `for io in seq(c, c + P): for ii in seq(e, e + Q): s` of constant trip counts stands for
  // one callee loop of P*Q iterations (j = Q*(io - c) + (ii - e) + a), as divide_loop leaves it.
  void loop(const Stmt& ce, const Stmt& ke) {
    const ForNode* c = ce.as<ForNode>();
    const ForNode* k = ke.as<ForNode>();
    Expr c_lo = subst(c->lo);
    Expr c_ext = simplify_expr(rw::mk_sub(subst(c->hi), c_lo));
    Expr k_ext = simplify_expr(rw::mk_sub(k->hi, k->lo));
    std::vector<const ForNode*> nest{k};
    Expr linear = simplify_expr(rw::mk_sub(rw::index_var(k->iter), k->lo));
    if (auto want = rw::const_int(c_ext), have = rw::const_int(k_ext);
        want && have && *have < *want) {
      int64_t prod = *have;
      Expr lin = linear;
      std::vector<const ForNode*> n = nest;
      while (prod < *want && n.back()->body.size() == 1 && n.back()->body[0].is<ForNode>()) {
        const ForNode* in = n.back()->body[0].as<ForNode>();
        auto e = rw::const_int(simplify_expr(rw::mk_sub(in->hi, in->lo)));
        if (!e || *e <= 0) break;
        lin = rw::mk_add(rw::mk_mul(lin, rw::int_const(*e)),
                         rw::mk_sub(rw::index_var(in->iter), in->lo));
        prod *= *e;
        n.push_back(in);
      }
      if (prod == *want && n.size() > 1) {
        nest = n;
        linear = simplify_expr(lin);
        k_ext = rw::int_const(prod);
      }
    }
    // Loop modes: a `par` loop of the callee claims its iterations are independent (codegen runs
    // them in parallel), which a `seq` loop of the caller does not; a `seq` callee loop may stand
    // for a `par` one (running independent iterations in order is one of their orders).
    if (c->mode == LoopMode::Par)
      for (const ForNode* l : nest)
        if (!is_parallel(l->mode))
          differ(ce, ke,
                 "the loop of '" + callee_.name() + "' is `par` but `" + first_line(ke) +
                     "` runs in order (`seq`); make it `par` first (parallelize_loop proves its "
                     "iterations independent)");
    Stmt innermost = ke;
    std::string kline = first_line(ke);
    for (size_t d = 1; d < nest.size(); ++d) {
      innermost = nest[d - 1]->body[0];
      kline += " " + first_line(innermost);
    }
    pb_.eqs.push_back(
        IndexEq{c_ext, k_ext,
                Site{ke.srcinfo(), "the trip count " + to_string(k_ext) + " of `" + kline + "`",
                     "the trip count " + to_string(c_ext) + " of `" + first_line(ce) + "`"}});
    for (const ForNode* l : nest) pb_.inner_loops.push_back(l);
    iters_[c->iter] = simplify_expr(rw::mk_add(linear, c_lo));
    block(c->body, nest.back()->body, innermost.srcinfo(),
          "the body of `" + first_line(innermost) + "`");
  }

  void equation(const Expr& ce, const Expr& ke, const Stmt& at) {
    pb_.eqs.push_back(IndexEq{subst(ce), ke, Site{at.srcinfo(), to_string(ke), to_string(ce)}});
  }

  // The callee accesses `cn[ci]`, the caller `kn[ki]` (a write for assignments/reductions).
  void access(const Stmt& cs, const Stmt& ks, const Sym& cn, const std::vector<Expr>& ci,
              const Sym& kn, const std::vector<Expr>& ki, bool write) {
    if (auto it = pb_.locals.find(cn); it != pb_.locals.end()) {
      if (it->second != kn)
        differ(cs, ks,
               "'" + kn.name() + "' stands where '" + callee_.name() + "' uses its own buffer '" +
                   cn.name() + "' (matched to '" + it->second.name() + "')");
      for (size_t d = 0; d < ci.size() && d < ki.size(); ++d) equation(ci[d], ki[d], ks);
      return;
    }
    const FnArg* a = arg_of(cn);
    if (!a || !a->type.is_data())
      differ(cs, ks, "'" + cn.name() + "' is not a data argument of '" + callee_.name() + "'");
    std::vector<Expr> sci;
    for (const Expr& e : ci) sci.push_back(subst(e));
    std::string ctext = cn.name();
    if (!ci.empty()) {
      ctext += "[";
      for (size_t d = 0; d < sci.size(); ++d) ctext += (d ? ", " : "") + to_string(ci[d]);
      ctext += "]";
    }
    std::string ktext = kn.name();
    if (!ki.empty()) {
      ktext += "[";
      for (size_t d = 0; d < ki.size(); ++d) ktext += (d ? ", " : "") + to_string(ki[d]);
      ktext += "]";
    }
    for (size_t d = 0; d < ci.size() && d < ki.size(); ++d) index_reads(ci[d], ki[d]);
    pb_.accesses.push_back(
        BufAccess{cn, std::move(sci), kn, ki, write, Site{ks.srcinfo(), ktext, ctext}});
  }

  // The index `ce` of a callee access against the caller's `ke`: the solver compares them as
  // offsets of a window, but the elements of index parameters they read (a gather's
  // `src[idx[l]]` against `x[col[j + l]]`) must first be solved as windows of the caller's
  // index arguments: the i-th such read of `ce` stands for the i-th element read of `ke`.
  void index_reads(const Expr& ce, const Expr& ke) {
    std::vector<Expr> mine = outermost(ce, [&](const Expr& x) { return index_param_read(x); });
    if (mine.empty()) return;
    std::vector<Expr> theirs = outermost(ke, [&](const Expr& x) {
      const ReadNode* r = x.as<ReadNode>();
      return r && !r->idx.empty() && is_number(x.type());
    });
    if (mine.size() != theirs.size())
      differ(ce, ke,
             "it reads " + std::to_string(mine.size()) + " elements of index arguments, `" +
                 to_string(ke) + "` reads " + std::to_string(theirs.size()));
    for (size_t k = 0; k < mine.size(); ++k) number(mine[k], theirs[k]);
  }

  // Is `e` a control value in a data expression (an integer literal or a data value read)?
  bool is_data_value(const Expr& e) const {
    if (const ReadNode* r = e.as<ReadNode>()) {
      if (pb_.locals.count(r->name)) return true;
      const FnArg* a = arg_of(r->name);
      return a && a->type.is_data();
    }
    if (e.is<USubNode>() || e.is<BinOpNode>()) {
      // Arithmetic on control variables (`base + i` stored into integer data) is an index
      // expression: an equation, so that `base` is solved as loop indices are. Arithmetic on
      // literals and data values is data.
      for (const Sym& s : uses_of(e).read) {
        if (pb_.locals.count(s)) continue;
        const FnArg* a = arg_of(s);
        if (!a || !a->type.is_data()) return false;
      }
      return true;
    }
    return e.is<ConstNode>() || e.is<ExternNode>() || e.is<ReadConfigNode>();
  }

  // The subexpressions of `e` that satisfy `pred`, in order, leaving out those inside another
  // (`col[rowptr[i] + l]` is one element read, whatever its index reads).
  template <class Pred>
  static std::vector<Expr> outermost(const Expr& e, Pred pred) {
    std::vector<Expr> out;
    std::unordered_set<const void*> inside;
    for_each_expr(e, [&](const Expr& x) {
      if (inside.count(x.get()) || !pred(x)) return;
      out.push_back(x);
      for (const Expr& i : x.as<ReadNode>()->idx)
        for_each_expr(i, [&](const Expr& y) { inside.insert(y.get()); });
    });
    return out;
  }

  // `ce` reads an element of an index parameter (`idx[l]`): a control value that stands for
  // an element of the caller's index argument.
  const ReadNode* index_param_read(const Expr& ce) const {
    const ReadNode* r = ce.as<ReadNode>();
    if (!r || r->idx.empty()) return nullptr;
    const FnArg* a = arg_of(r->name);
    return a && a->range ? r : nullptr;
  }
  bool reads_index_param(const Expr& ce) const {
    bool found = false;
    for_each_expr(ce, [&](const Expr& x) { found = found || index_param_read(x); });
    return found;
  }

  // A control expression. Plain arithmetic is one equation; one that reads an index parameter
  // (a gather's `src[idx[l]]` against `x[col[j + l]]`) matches as written down to those reads,
  // each an access of the parameter, which the solver turns into a window of the caller's
  // index argument (`col[j:j + 16]`) before it solves the accesses whose indices read it.
  void number(const Expr& ce, const Expr& ke) {
    if (!is_number(ke.type())) differ(ce, ke, "an index expression was expected");
    const SrcInfo at = ke.srcinfo().known() ? ke.srcinfo() : cur_;
    if (!reads_index_param(ce)) {
      pb_.eqs.push_back(IndexEq{subst(ce), ke, Site{at, to_string(ke), to_string(ce)}});
      return;
    }
    if (const ReadNode* c = index_param_read(ce)) {
      const ReadNode* k = ke.as<ReadNode>();
      if (!k || k->idx.empty())
        differ(ce, ke,
               "'" + c->name.name() + "' is an index argument of '" + callee_.name() +
                   "', so an element of an index argument of the caller must stand here");
      std::vector<Expr> sci;
      for (const Expr& e : c->idx) sci.push_back(subst(e));
      pb_.accesses.push_back(BufAccess{c->name, std::move(sci), k->name, k->idx, false,
                                       Site{at, to_string(ke), to_string(ce)}});
      return;
    }
    if (ce.kind() != ke.kind())
      differ(ce, ke,
             "the expressions have different forms (one reading an index argument "
             "is matched as written)");
    if (const USubNode* c = ce.as<USubNode>()) return number(c->arg, ke.as<USubNode>()->arg);
    const BinOpNode* c = ce.as<BinOpNode>();
    const BinOpNode* k = ke.as<BinOpNode>();
    if (!c || c->op != k->op)
      differ(ce, ke,
             "the expressions differ (one reading an index argument is matched as written)");
    number(c->lhs, k->lhs);
    number(c->rhs, k->rhs);
  }

  // Expressions of the same shape; control subexpressions become equations. `data`: inside a
  // data expression, where integer literals are data values.
  void expr(const Expr& ce, const Expr& ke, bool data = false) {
    const Type& ct = ce.type();
    if (is_number(ct) && !(data && is_data_value(ce))) return number(ce, ke);
    if (ce.kind() != ke.kind()) differ(ce, ke, "the expressions have different forms");
    switch (ce.kind()) {
      case ExprKind::Read: {
        const ReadNode* c = ce.as<ReadNode>();
        const ReadNode* k = ke.as<ReadNode>();
        if (ct.base == ScalarKind::Bool) {
          const FnArg* a = arg_of(c->name);
          if (!a) differ(ce, ke, "boolean variables are not unified");
          pb_.eqs.push_back(IndexEq{ce, ke, Site{cur_, to_string(ke), to_string(ce)}});
          return;
        }
        if (auto it = pb_.locals.find(c->name); it != pb_.locals.end()) {
          if (it->second != k->name)
            differ(ce, ke,
                   "'" + k->name.name() + "' stands where '" + callee_.name() +
                       "' reads its own buffer '" + c->name.name() + "'");
          for (size_t d = 0; d < c->idx.size() && d < k->idx.size(); ++d)
            pb_.eqs.push_back(
                IndexEq{subst(c->idx[d]), k->idx[d], Site{cur_, to_string(ke), to_string(ce)}});
          return;
        }
        const FnArg* a = arg_of(c->name);
        if (!a || !a->type.is_data())
          differ(ce, ke, "'" + c->name.name() + "' is not a data argument");
        std::vector<Expr> sci;
        for (const Expr& e : c->idx) sci.push_back(subst(e));
        for (size_t d = 0; d < c->idx.size() && d < k->idx.size(); ++d)
          index_reads(c->idx[d], k->idx[d]);
        pb_.accesses.push_back(BufAccess{c->name, std::move(sci), k->name, k->idx, false,
                                         Site{cur_, to_string(ke), to_string(ce)}});
        return;
      }
      case ExprKind::Const: {
        const ConstNode* c = ce.as<ConstNode>();
        const ConstNode* k = ke.as<ConstNode>();
        if (!same_constant(c->val, k->val)) differ(ce, ke, "the constants differ");
        return;
      }
      case ExprKind::USub:
        return expr(ce.as<USubNode>()->arg, ke.as<USubNode>()->arg, data);
      case ExprKind::BinOp: {
        const BinOpNode* c = ce.as<BinOpNode>();
        const BinOpNode* k = ke.as<BinOpNode>();
        if (!data && is_comparison(c->op) && is_comparison(k->op)) return comparison(ce, ke);
        if (c->op != k->op)
          differ(ce, ke,
                 std::string("the operators differ (") + to_string(k->op) + " vs " +
                     to_string(c->op) + ")");
        expr(c->lhs, k->lhs, data);
        expr(c->rhs, k->rhs, data);
        return;
      }
      case ExprKind::Extern: {
        const ExternNode* c = ce.as<ExternNode>();
        const ExternNode* k = ke.as<ExternNode>();
        if (c->fn != k->fn || c->args.size() != k->args.size())
          differ(ce, ke, "different functions are called");
        for (size_t i = 0; i < c->args.size(); ++i) expr(c->args[i], k->args[i], data);
        return;
      }
      case ExprKind::ReadConfig: {
        const ReadConfigNode* c = ce.as<ReadConfigNode>();
        const ReadConfigNode* k = ke.as<ReadConfigNode>();
        if (c->config->name != k->config->name || c->field != k->field)
          differ(ce, ke, "they read different config fields");
        return;
      }
      case ExprKind::WindowExpr:
      case ExprKind::StrideExpr:
        differ(ce, ke, "windows and strides inside the subproc's body are not unified");
    }
  }

  // `a < b` against `c < d` (also <=, >, >=, ==; `a > b` read as `b < a`): one equation
  // a - b == c - d, so `i < n` unifies with `16 * jo + ii < M` by n := M - 16 * jo. Over the
  // integers `a <= b` is `a < b + 1`, so a `<=` unifies with a `<` (as in Exo): `i < n`
  // against `i <= M` gives n := M + 1.
  void comparison(const Expr& ce, const Expr& ke) {
    const BinOpNode* cb = ce.as<BinOpNode>();
    const BinOpNode* kb = ke.as<BinOpNode>();
    if (!is_number(cb->lhs.type()) || !is_number(cb->rhs.type())) {
      // A comparison of booleans (`ConfigStore.act == True`, `flag == b`): no arithmetic to
      // solve, so the same operator and operands that unify one by one.
      if (cb->op != kb->op)
        differ(ce, ke,
               std::string("the comparisons differ (") + to_string(kb->op) + " vs " +
                   to_string(cb->op) + ")");
      expr(cb->lhs, kb->lhs);
      expr(cb->rhs, kb->rhs);
      return;
    }
    auto canon = [](const BinOpNode* b, Expr& l, Expr& r) {
      l = b->lhs, r = b->rhs;
      if (b->op == BinOpKind::Gt || b->op == BinOpKind::Ge) std::swap(l, r);
      return b->op == BinOpKind::Gt   ? BinOpKind::Lt
             : b->op == BinOpKind::Ge ? BinOpKind::Le
                                      : b->op;
    };
    Expr cl, cr, kl, kr;
    BinOpKind cop = canon(ce.as<BinOpNode>(), cl, cr), kop = canon(ke.as<BinOpNode>(), kl, kr);
    auto ordering = [](BinOpKind op) { return op == BinOpKind::Lt || op == BinOpKind::Le; };
    if (cop != kop && !(ordering(cop) && ordering(kop)))
      differ(ce, ke,
             std::string("the comparisons differ (") + to_string(ke.as<BinOpNode>()->op) + " vs " +
                 to_string(ce.as<BinOpNode>()->op) + ")");
    for (const Expr& e : {cl, cr, kl, kr})
      if (!is_number(e.type())) differ(ce, ke, "only comparisons of index expressions are unified");
    if (cop == BinOpKind::Le) cr = rw::mk_add(cr, rw::int_const(1));
    if (kop == BinOpKind::Le) kr = rw::mk_add(kr, rw::int_const(1));
    pb_.eqs.push_back(
        IndexEq{subst(rw::mk_sub(cl, cr)), simplify_expr(rw::mk_sub(kl, kr)),
                Site{ke.srcinfo().known() ? ke.srcinfo() : cur_,
                     "the condition `" + to_string(ke) + "`", "`" + to_string(ce) + "`"}});
  }

  const Proc& callee_;
  Problem& pb_;
  std::vector<const FnArg*> args_;
  rw::SymMap iters_;
  SrcInfo cur_;
};

}  // namespace

Problem match(const Proc& callee, const Block& caller) {
  Problem pb;
  Matcher m(callee, pb);
  m.block(callee.body(), caller, caller.empty() ? SrcInfo{} : caller.front().srcinfo(),
          "the block");
  return pb;
}

}  // namespace exocpp::rw::unify
