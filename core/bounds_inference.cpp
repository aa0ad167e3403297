// See bounds_inference.h. Each index is bounded by substituting, for every loop variable of
// the code, the end of its range that makes the index smallest (largest): the sign of the
// variable's coefficient decides, and a loop bound that depends on an outer loop of the code
// is bounded the same way in turn.
#include "core/bounds_inference.h"

#include <map>

#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/simplify.h"

namespace exocpp {

namespace {

struct Range {
  Expr lo, hi;  // inclusive
};

Expr int_expr(int64_t v) { return ConstNode::make_int(v); }
Expr bin(BinOpKind op, const Expr& a, const Expr& b) {
  return simplify_expr(BinOpNode::make(op, a, b));
}
std::optional<int64_t> const_of(const Expr& e) {
  const ConstNode* c = simplify_expr(e).as<ConstNode>();
  if (!c || !c->is_int()) return std::nullopt;
  return c->int_val();
}

struct Bounder {
  // The loops of the code around the expression being bounded: iterator -> [lo, hi).
  std::map<Sym, std::pair<Expr, Expr>> loops;
  std::string why;

  std::optional<Range> range(const Expr& e) {
    if (auto c = const_of(e)) return Range{int_expr(*c), int_expr(*c)};
    if (const ReadNode* r = e.as<ReadNode>(); r && r->idx.empty()) {
      auto l = loops.find(r->name);
      if (l == loops.end()) return Range{e, e};  // a name from outside: symbolic
      auto lo = range(l->second.first);
      auto hi = range(bin(BinOpKind::Sub, l->second.second, int_expr(1)));
      if (!lo || !hi) return std::nullopt;
      return Range{lo->lo, hi->hi};
    }
    if (const USubNode* u = e.as<USubNode>()) {
      auto a = range(u->arg);
      if (!a) return std::nullopt;
      return Range{bin(BinOpKind::Sub, int_expr(0), a->hi),
                   bin(BinOpKind::Sub, int_expr(0), a->lo)};
    }
    if (const BinOpNode* b = e.as<BinOpNode>()) {
      switch (b->op) {
        case BinOpKind::Add:
        case BinOpKind::Sub: {
          auto x = range(b->lhs), y = range(b->rhs);
          if (!x || !y) return std::nullopt;
          if (b->op == BinOpKind::Add)
            return Range{bin(BinOpKind::Add, x->lo, y->lo), bin(BinOpKind::Add, x->hi, y->hi)};
          return Range{bin(BinOpKind::Sub, x->lo, y->hi), bin(BinOpKind::Sub, x->hi, y->lo)};
        }
        case BinOpKind::Mul: {
          std::optional<int64_t> k = const_of(b->lhs);
          Expr other = b->rhs;
          if (!k) {
            k = const_of(b->rhs);
            other = b->lhs;
          }
          if (!k) {
            // A product of outer names only is a single value.
            if (free_of_loops(e)) return Range{e, e};
            why = "the index part '" + to_string(e) + "' multiplies two variables";
            return std::nullopt;
          }
          auto x = range(other);
          if (!x) return std::nullopt;
          Expr lo = bin(BinOpKind::Mul, int_expr(*k), x->lo);
          Expr hi = bin(BinOpKind::Mul, int_expr(*k), x->hi);
          return *k >= 0 ? Range{lo, hi} : Range{hi, lo};
        }
        case BinOpKind::Div: {
          std::optional<int64_t> k = const_of(b->rhs);
          if (!k || *k <= 0) break;
          auto x = range(b->lhs);
          if (!x) return std::nullopt;
          // Division by a positive constant does not decrease.
          return Range{bin(BinOpKind::Div, x->lo, b->rhs), bin(BinOpKind::Div, x->hi, b->rhs)};
        }
        case BinOpKind::Mod: {
          std::optional<int64_t> k = const_of(b->rhs);
          if (!k || *k <= 0) break;
          if (free_of_loops(e)) return Range{e, e};
          return Range{int_expr(0), int_expr(*k - 1)};
        }
        default:
          break;
      }
    }
    if (free_of_loops(e)) return Range{e, e};
    why = "the index part '" + to_string(e) + "' is not affine in the loops";
    return std::nullopt;
  }

  bool free_of_loops(const Expr& e) const {
    struct V : IRVisitor {
      const std::map<Sym, std::pair<Expr, Expr>>* loops;
      bool found = false;
      void visit_Read(const ReadNode* n, const Expr& x) override {
        if (n->idx.empty() && loops->count(n->name)) found = true;
        if (!n->idx.empty()) found = true;  // data: not a fixed value
        IRVisitor::visit_Read(n, x);
      }
    } v;
    v.loops = &loops;
    v.visit(e);
    return !v.found;
  }
};

// The smaller (larger) of two bounds when they differ by a constant.
std::optional<Expr> pick(const Expr& a, const Expr& b, bool smaller) {
  std::optional<int64_t> d = const_of(BinOpNode::make(BinOpKind::Sub, a, b));
  if (!d) return std::nullopt;
  return (*d <= 0) == smaller ? a : b;
}

class BoxCollector : public IRVisitor {
 public:
  explicit BoxCollector(Sym buf) : buf_(std::move(buf)) {}
  std::optional<std::vector<Range>> box;
  std::string why;
  bool failed = false;

  void visit_For(const ForNode* n, const Stmt& s) override {
    visit(n->lo);
    visit(n->hi);
    b_.loops[n->iter] = {n->lo, n->hi};
    for (const Stmt& st : n->body) visit(st);
    b_.loops.erase(n->iter);
    (void)s;
  }
  void visit_Read(const ReadNode* n, const Expr& e) override {
    if (n->name == buf_) {
      if (n->idx.empty()) fail("'" + buf_.name() + "' is passed whole");
      add_points(n->idx);
    }
    IRVisitor::visit_Read(n, e);
  }
  void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    if (n->name == buf_) {
      std::vector<std::pair<Expr, Expr>> dims;
      for (const WAccess& w : n->idx)
        dims.push_back(w.is_interval ? std::pair{w.lo, bin(BinOpKind::Sub, w.hi, int_expr(1))}
                                     : std::pair{w.lo, w.lo});
      add(dims);
    }
    IRVisitor::visit_WindowExpr(n, e);
  }
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    if (n->name == buf_) add_points(n->idx);
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    if (n->name == buf_) add_points(n->idx);
    IRVisitor::visit_Reduce(n, s);
  }

 private:
  void add_points(const std::vector<Expr>& idx) {
    std::vector<std::pair<Expr, Expr>> dims;
    for (const Expr& i : idx) dims.push_back({i, i});
    add(dims);
  }
  void add(const std::vector<std::pair<Expr, Expr>>& dims) {
    if (failed) return;
    std::vector<Range> r;
    for (const auto& [lo_e, hi_e] : dims) {
      auto lo = b_.range(lo_e), hi = b_.range(hi_e);
      if (!lo || !hi) return fail(b_.why);
      r.push_back({lo->lo, hi->hi});
    }
    if (!box) {
      box = r;
      return;
    }
    for (size_t d = 0; d < r.size(); ++d) {
      auto lo = pick((*box)[d].lo, r[d].lo, true), hi = pick((*box)[d].hi, r[d].hi, false);
      if (!lo || !hi)
        return fail("the accesses' bounds in dimension " + std::to_string(d) + " ('" +
                    to_string((*box)[d].lo) + "' and '" + to_string(r[d].lo) +
                    "', or their ends) do not differ by a constant");
      (*box)[d] = {*lo, *hi};
    }
  }
  void fail(const std::string& reason) {
    failed = true;
    why = reason;
  }

  Sym buf_;
  Bounder b_;
};

}  // namespace

std::optional<std::vector<BoxDim>> accessed_box(const Block& code, const Sym& buf,
                                                std::string* why) {
  BoxCollector c(buf);
  for (const Stmt& s : code) c.visit(s);
  auto say = [&](const std::string& w) {
    if (why) *why = w;
    return std::nullopt;
  };
  if (c.failed) return say(c.why);
  if (!c.box) return say("the code does not touch '" + buf.name() + "'");
  std::vector<BoxDim> out;
  for (const Range& r : *c.box) out.push_back({r.lo, bin(BinOpKind::Add, r.hi, int_expr(1))});
  return out;
}

}  // namespace exocpp
