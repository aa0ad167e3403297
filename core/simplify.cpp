// Expression simplification: control expressions are normalised as polynomials over atoms
// (variables, stride() and config reads, and sub-expressions the normal form cannot express),
// then rebuilt in a stable order (terms in order of first appearance, constant last).
#include "core/simplify.h"

#include <functional>
#include <optional>
#include <utility>

#include "core/index_normal_form.h"
#include "core/int_arith.h"
#include "core/ir_visit.h"
#include "core/uses.h"

namespace exocpp {

namespace {

// A polynomial with integer coefficients over atoms; monomials are sorted atom-id lists.
struct Poly {
  struct Term {
    std::vector<int> mono;  // empty: the constant term
    int64_t coeff;
  };
  std::vector<Term> terms;  // in order of first appearance

  int64_t constant() const {
    for (const Term& t : terms)
      if (t.mono.empty()) return t.coeff;
    return 0;
  }
  bool is_constant() const {
    for (const Term& t : terms)
      if (!t.mono.empty() && t.coeff != 0) return false;
    return true;
  }
  bool add_term(const std::vector<int>& mono, int64_t c) {
    for (Term& t : terms)
      if (t.mono == mono) return checked_add(t.coeff, c, &t.coeff);
    terms.push_back({mono, c});
    return true;
  }
};

// The inclusive range [lo, hi] of an atom, when it is known (a loop variable with constant bounds).
using Interval = std::pair<int64_t, int64_t>;
using RangeOf = std::function<std::optional<Interval>(const Expr&)>;

// A fact X % k == 0 that holds wherever the simplified code runs.
struct Divisible {
  Expr x;
  int64_t k;
};

// The facts `X % k == 0` (or `0 == X % k`) among `conds`, looking inside `and`s; only those whose
// X reads no config field and no data, so that they hold throughout the body.
std::vector<Divisible> divisibility_facts(const std::vector<Expr>& conds) {
  std::vector<Divisible> out;
  std::function<void(const Expr&)> visit = [&](const Expr& e) {
    const BinOpNode* b = e.as<BinOpNode>();
    if (!b) return;
    if (b->op == BinOpKind::And) {
      visit(b->lhs);
      visit(b->rhs);
      return;
    }
    if (b->op != BinOpKind::Eq) return;
    for (auto [mod, zero] : {std::pair{b->lhs, b->rhs}, std::pair{b->rhs, b->lhs}}) {
      const BinOpNode* m = mod.as<BinOpNode>();
      const ConstNode* z = zero.as<ConstNode>();
      const ConstNode* k = m ? m->rhs.as<ConstNode>() : nullptr;
      if (!m || m->op != BinOpKind::Mod || !z || is_data(z->type.base) || z->int_val() != 0 || !k ||
          is_data(k->type.base) || k->int_val() <= 0)
        continue;
      const Uses u = uses_of(m->lhs);
      if (u.reads_data || !u.config_reads.empty()) continue;
      out.push_back(Divisible{m->lhs, k->int_val()});
    }
  };
  for (const Expr& c : conds) visit(c);
  return out;
}

class Normalizer {
 public:
  Normalizer() = default;
  explicit Normalizer(const RangeOf* range_of, const std::vector<Divisible>* facts = nullptr)
      : range_of_(range_of), facts_(facts) {}

  // `poly(e)` with the divisibility facts applied to the result: a term c * (X / k) with k | c
  // and X % k == 0 becomes (c / k) * X.
  std::optional<Poly> poly_with_facts(const Expr& e) {
    std::optional<Poly> p = poly(e);
    if (!p || !facts_ || facts_->empty()) return p;
    Poly out;
    for (const Poly::Term& t : p->terms) {
      std::optional<Poly> x;
      if (t.mono.size() == 1)
        if (auto d = atoms_[static_cast<size_t>(t.mono[0])].as<BinOpNode>();
            d && d->op == BinOpKind::Div && d->rhs.is<ConstNode>()) {
          const int64_t k = d->rhs.as<ConstNode>()->int_val();
          if (k > 0 && t.coeff % k == 0 && divisible(d->lhs, k)) x = poly(d->lhs);
        }
      if (!x) {
        if (!out.add_term(t.mono, t.coeff)) return p;
        continue;
      }
      const int64_t k =
          atoms_[static_cast<size_t>(t.mono[0])].as<BinOpNode>()->rhs.as<ConstNode>()->int_val();
      for (const Poly::Term& u : x->terms) {
        int64_t c;
        if (!checked_mul(u.coeff, t.coeff / k, &c) || !out.add_term(u.mono, c)) return p;
      }
    }
    return out;
  }

  // `m * (X - k * (X / k)) + R` becomes `m * (X % k) + R` (floor division and modulo: exact
  // for every X): a term -m*k * (L / k), m > 0, where every variable term of m * L appears in
  // `p` with the same sign and at least its magnitude, so the rewrite adds no term.
  // `n - 4 * (n / 4) + 7` is `n % 4 + 7`, the form Exo's divide_with_recompute leaves.
  Poly remainders_as_mod(const Poly& p) {
    for (const Poly::Term& t : p.terms) {
      if (t.mono.size() != 1) continue;
      const Expr atom = atoms_[static_cast<size_t>(t.mono[0])];
      const BinOpNode* d = atom.as<BinOpNode>();
      if (!d || d->op != BinOpKind::Div || !d->rhs.is<ConstNode>()) continue;
      const int64_t k = d->rhs.as<ConstNode>()->int_val();
      if (k <= 0 || t.coeff >= 0 || t.coeff % k != 0) continue;
      const int64_t m = -t.coeff / k;
      std::optional<Poly> l = poly(d->lhs);
      if (!l || l->is_constant()) continue;
      auto coeff_in_p = [&](const std::vector<int>& mono) {
        for (const Poly::Term& u : p.terms)
          if (u.mono == mono) return u.coeff;
        return int64_t{0};
      };
      bool fits = true;
      Poly out = p;
      for (const Poly::Term& u : l->terms) {
        int64_t mu;
        if (!checked_mul(u.coeff, m, &mu)) fits = false;
        if (!fits || u.coeff == 0) continue;
        if (!u.mono.empty()) {
          const int64_t c = coeff_in_p(u.mono);
          if ((c > 0) != (mu > 0) || (c > 0 ? c < mu : c > mu)) fits = false;
        }
        int64_t neg;
        fits = fits && checked_mul(mu, -1, &neg) && out.add_term(u.mono, neg);
      }
      fits = fits && out.add_term(t.mono, m * k);
      if (!fits) continue;
      std::optional<Poly> mod =
          atom_poly(BinOpNode::make(BinOpKind::Mod, d->lhs, d->rhs, d->srcinfo));
      if (!mod || !out.add_term(mod->terms[0].mono, m)) continue;
      std::erase_if(out.terms, [](const Poly::Term& u) { return !u.mono.empty() && u.coeff == 0; });
      return remainders_as_mod(out);
    }
    return p;
  }

  // The polynomial of a control expression, or nullopt when it does not fit (overflow).
  std::optional<Poly> poly(const Expr& e) {
    if (auto c = e.as<ConstNode>();
        c && c->type.base != ScalarKind::Bool && !is_data(c->type.base)) {
      Poly p;
      p.add_term({}, c->int_val());
      return p;
    }
    if (auto u = e.as<USubNode>()) {
      auto p = poly(u->arg);
      if (!p) return p;
      for (auto& t : p->terms)
        if (!checked_mul(t.coeff, -1, &t.coeff)) return std::nullopt;
      return p;
    }
    if (auto b = e.as<BinOpNode>()) {
      if (b->op == BinOpKind::Add || b->op == BinOpKind::Sub) {
        auto l = poly(b->lhs), r = poly(b->rhs);
        if (!l || !r) return std::nullopt;
        for (const auto& t : r->terms) {
          int64_t c = t.coeff;
          if (b->op == BinOpKind::Sub && !checked_mul(c, -1, &c)) return std::nullopt;
          if (!l->add_term(t.mono, c)) return std::nullopt;
        }
        return l;
      }
      if (b->op == BinOpKind::Mul) {
        auto l = poly(b->lhs), r = poly(b->rhs);
        if (!l || !r) return std::nullopt;
        Poly out;
        for (const auto& x : l->terms)
          for (const auto& y : r->terms) {
            std::vector<int> m = x.mono;
            m.insert(m.end(), y.mono.begin(), y.mono.end());
            std::sort(m.begin(), m.end());
            int64_t c;
            if (!checked_mul(x.coeff, y.coeff, &c) || !out.add_term(m, c)) return std::nullopt;
          }
        return out;
      }
      if ((b->op == BinOpKind::Div || b->op == BinOpKind::Mod) && b->rhs.is<ConstNode>()) {
        int64_t k = b->rhs.as<ConstNode>()->int_val();
        auto l = poly(b->lhs);
        if (!l || k <= 0) return std::nullopt;
        // Exact when every non-constant coefficient is a multiple of k:
        //   (k*A + c) / k = A + floor(c / k)      (k*A + c) % k = c mod k
        bool divisible = true;
        for (const auto& t : l->terms)
          if (!t.mono.empty() && t.coeff % k != 0) divisible = false;
        if (divisible) {
          Poly out;
          int64_t c = l->constant();
          if (b->op == BinOpKind::Mod) {
            out.add_term({}, floor_mod(c, k));
            return out;
          }
          for (const auto& t : l->terms)
            if (!t.mono.empty()) out.add_term(t.mono, t.coeff / k);
          out.add_term({}, floor_div(c, k));
          return out;
        }
        if (auto folded = fold_by_range(*l, k, b->op)) return folded;
        if (auto folded = fold_by_facts(*l, k, b->op, b->srcinfo)) return folded;
        // Otherwise the (simplified) division is an atom, and `L % k` is `L - k * (L / k)`, so
        // that it cancels against the terms around it (`16 * (M / 16) + M % 16` is `M`);
        // remainders_as_mod gives the modulo back where it stays.
        Expr inner = rebuild(*l, b->lhs);
        std::optional<Poly> div =
            atom_poly(BinOpNode::make(BinOpKind::Div, inner, b->rhs, b->srcinfo));
        if (b->op == BinOpKind::Div) return div;
        Poly out = *l;
        if (!out.add_term(div->terms[0].mono, -k)) return std::nullopt;
        return out;
      }
    }
    return atom_poly(e);
  }

  // Rebuilds an expression from a polynomial; `like` gives the source location.
  Expr rebuild(const Poly& poly_in, const Expr& like) {
    const Poly p = remainders_as_mod(poly_in);
    Expr out;
    const SrcInfo& s = like.srcinfo();
    for (const auto& t : p.terms) {
      if (t.mono.empty() || t.coeff == 0) continue;
      Expr m;
      for (int id : t.mono)
        m = m.defined() ? BinOpNode::make(BinOpKind::Mul, m, atoms_[static_cast<size_t>(id)], s)
                        : atoms_[static_cast<size_t>(id)];
      int64_t c = t.coeff;
      bool neg = c < 0 && out.defined();
      int64_t mag = neg ? -c : c;
      Expr term = mag == 1 ? m : BinOpNode::make(BinOpKind::Mul, ConstNode::make_int(mag, s), m, s);
      if (c == -1 && !out.defined()) term = USubNode::make(m, s);  // `-m + n`, as Exo prints it
      if (!out.defined())
        out = term;
      else
        out = BinOpNode::make(neg ? BinOpKind::Sub : BinOpKind::Add, out, term, s);
    }
    int64_t c = p.constant();
    if (!out.defined()) return ConstNode::make_int(c, s);
    if (c > 0) out = BinOpNode::make(BinOpKind::Add, out, ConstNode::make_int(c, s), s);
    if (c < 0) out = BinOpNode::make(BinOpKind::Sub, out, ConstNode::make_int(-c, s), s);
    return out;
  }

 private:
  std::optional<Poly> atom_poly(const Expr& e) {
    int id = -1;
    for (size_t i = 0; i < atoms_.size(); ++i)
      if (expr_equal(atoms_[i], e)) id = static_cast<int>(i);
    if (id < 0) {
      id = static_cast<int>(atoms_.size());
      atoms_.push_back(e);
    }
    Poly p;
    p.add_term({id}, 1);
    return p;
  }
  // (k*Q + R) / k = Q + d and (k*Q + R) % k = R - d*k when every value of R lies in
  // [d*k, d*k + k): R gathers the terms whose coefficient k does not divide, and the ranges of
  // its atoms come from the enclosing loops. `(16*io + ii) / 16` with ii in [0, 15] is `io`.
  std::optional<Poly> fold_by_range(const Poly& l, int64_t k, BinOpKind op) {
    if (!range_of_) return std::nullopt;
    Poly q, r;
    for (const auto& t : l.terms) {
      if (!t.mono.empty() && t.coeff % k == 0)
        q.add_term(t.mono, t.coeff / k);
      else
        r.add_term(t.mono, t.coeff);
    }
    int64_t lo = 0, hi = 0;
    for (const auto& t : r.terms) {
      int64_t a = t.coeff, b = t.coeff;
      if (!t.mono.empty()) {
        if (t.mono.size() != 1) return std::nullopt;
        auto range = (*range_of_)(atoms_[static_cast<size_t>(t.mono[0])]);
        if (!range) return std::nullopt;
        if (!checked_mul(t.coeff, range->first, &a) || !checked_mul(t.coeff, range->second, &b))
          return std::nullopt;
        if (a > b) std::swap(a, b);
      }
      if (!checked_add(lo, a, &lo) || !checked_add(hi, b, &hi)) return std::nullopt;
    }
    int64_t d = floor_div(lo, k);
    if (d != floor_div(hi, k)) return std::nullopt;
    if (op == BinOpKind::Div) {
      q.add_term({}, d);
      return q;
    }
    int64_t dk;
    if (!checked_mul(d, -k, &dk) || !r.add_term({}, dk)) return std::nullopt;
    return r;
  }

  // Whether a fact says k divides the value of `x` (a fact for a multiple of k counts).
  bool divisible(const Expr& x, int64_t k) {
    if (!facts_) return false;
    std::optional<Poly> px = poly(x);
    if (!px) return false;
    for (const Divisible& f : *facts_) {
      if (f.k % k != 0) continue;
      std::optional<Poly> pf = poly(f.x);
      if (pf && same_poly(*px, *pf)) return true;
    }
    return false;
  }
  static bool same_poly(const Poly& a, const Poly& b) {
    auto covered = [](const Poly& x, const Poly& y) {
      for (const Poly::Term& t : x.terms) {
        if (t.coeff == 0) continue;
        bool found = false;
        for (const Poly::Term& u : y.terms)
          found = found || (u.mono == t.mono && u.coeff == t.coeff);
        if (!found) return false;
      }
      return true;
    };
    return covered(a, b) && covered(b, a);
  }
  // (X + c) / k = X / k + floor(c / k) and (X + c) % k = c mod k when a fact says k divides X
  // (X: the non-constant terms of `l`).
  std::optional<Poly> fold_by_facts(const Poly& l, int64_t k, BinOpKind op, const SrcInfo& s) {
    if (!facts_ || facts_->empty()) return std::nullopt;
    Poly x;
    for (const Poly::Term& t : l.terms)
      if (!t.mono.empty()) x.add_term(t.mono, t.coeff);
    if (x.terms.empty()) return std::nullopt;
    Expr xe = rebuild(x, ConstNode::make_int(0, s));
    if (!divisible(xe, k)) return std::nullopt;
    const int64_t c = l.constant();
    Poly out;
    if (op == BinOpKind::Mod) {
      out.add_term({}, floor_mod(c, k));
      return out;
    }
    out = *atom_poly(BinOpNode::make(BinOpKind::Div, xe, ConstNode::make_int(k, s), s));
    out.add_term({}, floor_div(c, k));
    return out;
  }

  std::vector<Expr> atoms_;
  const RangeOf* range_of_ = nullptr;
  const std::vector<Divisible>* facts_ = nullptr;
};

bool is_index_arith(const Expr& e) {
  ScalarKind k = e.type().base;
  return e.type().is_scalar() && (is_indexable(k) || k == ScalarKind::Stride);
}

// Where the simplified code's index expressions go: our own form (terms in order of first
// appearance, constant last), or Exo's normal form where it is not more complex than ours
// (the `simplify` scheduling operation, whose output goldens written for Exo compare with).
enum class IndexForm { Ours, Exo };

class Simplifier : public IRMutator {
 public:
  explicit Simplifier(std::vector<Divisible> facts = {}, IndexForm form = IndexForm::Ours,
                      const std::vector<Sym>& size_args = {})
      : facts_(std::move(facts)), form_(form) {
    range_of_ = [this](const Expr& atom) -> std::optional<Interval> {
      auto r = atom.as<ReadNode>();
      if (!r || !r->idx.empty()) return std::nullopt;
      for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it)
        if (it->first == r->name) return it->second;
      return std::nullopt;
    };
    // Exo's ranges: a size argument is at least 1; a loop variable lies between its bounds.
    for (const Sym& a : size_args) exo_ranges_.push_back({a, IndexRange{1, std::nullopt}});
    exo_range_of_ = [this](const Sym& v) -> IndexRange {
      for (auto it = exo_ranges_.rbegin(); it != exo_ranges_.rend(); ++it)
        if (it->first == v) return it->second;
      return {};
    };
  }
  using IRMutator::mutate;
  Expr mutate(const Expr& e) override {
    if (form_ == IndexForm::Exo && index_depth_ == 0 && is_index_arith(e) &&
        (e.is<BinOpNode>() || e.is<USubNode>())) {
      ++index_depth_;
      Expr ours = mutate(e);
      --index_depth_;
      return least_complex(e, ours);
    }
    Expr m = IRMutator::mutate(e);
    if (!m.defined()) return m;
    if (is_index_arith(m) && (m.is<BinOpNode>() || m.is<USubNode>())) return normalize(m);
    if (auto b = m.as<BinOpNode>()) return fold_bool(b, m);
    return m;
  }

 protected:
  // Loop variables with constant bounds are known to lie in [lo, hi - 1] inside the body.
  Stmt mutate_For(const ForNode* n, const Stmt& s) override {
    Expr lo = mutate(n->lo), hi = mutate(n->hi);
    auto clo = lo.as<ConstNode>(), chi = hi.as<ConstNode>();
    bool known = clo && chi && !is_data(clo->type.base) && !is_data(chi->type.base) &&
                 clo->int_val() < chi->int_val();
    if (known) ranges_.push_back({n->iter, {clo->int_val(), chi->int_val() - 1}});
    IndexRange iter{index_range(lo, exo_range_of_).lo, index_range(hi, exo_range_of_).hi};
    if (iter.hi) --*iter.hi;
    if (iter.lo && iter.hi && *iter.lo > *iter.hi) iter = {};
    exo_ranges_.push_back({n->iter, iter});
    Stmt out = IRMutator::mutate_For(n, s);
    exo_ranges_.pop_back();
    if (known) ranges_.pop_back();
    return out;
  }

 private:
  Expr normalize(const Expr& e) {
    Normalizer n(&range_of_, &facts_);
    std::optional<Poly> p = n.poly_with_facts(e);
    if (!p) return e;
    return n.rebuild(*p, e);
  }

  static std::optional<bool> const_bool(const Expr& e) {
    if (auto c = e.as<ConstNode>(); c && c->type.base == ScalarKind::Bool) return c->val != 0;
    return std::nullopt;
  }

  Expr fold_bool(const BinOpNode* b, const Expr& e) {
    if (is_comparison(b->op) && is_index_arith(b->lhs) && is_index_arith(b->rhs)) {
      Normalizer n;
      auto l = n.poly(b->lhs), r = n.poly(b->rhs);
      if (l && r) {
        bool ok = true;
        for (const auto& t : r->terms) {
          int64_t c;
          ok = ok && checked_mul(t.coeff, -1, &c) && l->add_term(t.mono, c);
        }
        if (ok && l->is_constant()) {
          int64_t d = l->constant();  // lhs - rhs
          bool v = false;
          switch (b->op) {
            case BinOpKind::Lt:
              v = d < 0;
              break;
            case BinOpKind::Le:
              v = d <= 0;
              break;
            case BinOpKind::Gt:
              v = d > 0;
              break;
            case BinOpKind::Ge:
              v = d >= 0;
              break;
            case BinOpKind::Eq:
              v = d == 0;
              break;
            default:
              return e;
          }
          return ConstNode::make_bool(v, e.srcinfo());
        }
      }
      return e;
    }
    if (is_logical(b->op)) {
      auto l = const_bool(b->lhs), r = const_bool(b->rhs);
      bool is_and = b->op == BinOpKind::And;
      if (l) return *l == is_and ? b->rhs : ConstNode::make_bool(*l, e.srcinfo());
      if (r) return *r == is_and ? b->lhs : ConstNode::make_bool(*r, e.srcinfo());
    }
    return e;
  }

  // Of the index expression `original` and `ours` (its simplification), Exo's normal form of
  // either, or ours: the least complex, preferring Exo's form of the original, then Exo's form
  // of ours, on a tie.
  Expr least_complex(const Expr& original, const Expr& ours) {
    Expr best = ours;
    int best_cost = index_complexity(ours);
    for (const Expr& from : {ours, original})
      if (std::optional<Expr> exo = exo_index_normal_form(from, exo_range_of_);
          exo && index_complexity(*exo) <= best_cost) {
        best = *exo;
        best_cost = index_complexity(*exo);
      }
    return best;
  }

  std::vector<std::pair<Sym, Interval>> ranges_;  // enclosing loops with constant bounds
  RangeOf range_of_;
  std::vector<Divisible> facts_;  // X % k == 0 throughout the simplified code
  IndexForm form_;
  int index_depth_ = 0;  // > 0 inside an index expression being put in Exo's form
  std::vector<std::pair<Sym, IndexRange>> exo_ranges_;  // size arguments, enclosing loops
  IndexRangeOf exo_range_of_;
};

}  // namespace

Expr simplify_expr(const Expr& e) { return Simplifier().mutate(e); }
Stmt simplify_stmt(const Stmt& s) { return Simplifier().mutate(s); }
Block simplify_block(const Block& b) { return Simplifier().mutate(b); }
Block simplify_block(const Block& b, const std::vector<Expr>& facts) {
  return Simplifier(divisibility_facts(facts)).mutate(b);
}
SimplifiedProc simplify_in_exo_form(const Proc& p) {
  std::vector<Sym> size_args;
  for (const FnArg& a : p->args)
    if (a.type.is_scalar() && a.type.base == ScalarKind::Size) size_args.push_back(a.name);
  SimplifiedProc out;
  // The asserts are simplified without their own facts: `assert N % 4 == 0` must stay.
  Simplifier plain({}, IndexForm::Exo, size_args);
  for (const Expr& pred : p->preds) out.preds.push_back(plain.mutate(pred));
  out.body = Simplifier(divisibility_facts(p->preds), IndexForm::Exo, size_args).mutate(p.body());
  return out;
}

}  // namespace exocpp
