// When a rewrite keeps data values (see internal/precision.h): value sets of data expressions.
#include "rewrites/internal/precision.h"

#include <algorithm>
#include <cmath>

#include "core/interpreter.h"

namespace exocpp::rw {

namespace {

struct Range {
  double lo, hi;
};

Range range_of(ScalarKind k) {
  const auto [lo, hi] = int_precision_limits(k);
  return {static_cast<double>(lo), static_cast<double>(hi)};
}

const Range kI32 = range_of(ScalarKind::I32);

bool within(const Range& r, const Range& in) { return in.lo <= r.lo && r.hi <= in.hi; }

// Integer data arithmetic holds 32-bit values: a result that may leave i32 wraps (anywhere in it).
Range wrap32(const Range& r) { return within(r, kI32) ? r : kI32; }

// The values an integer-typed data expression can have (nullopt: not only integers).
std::optional<Range> int_range(const Expr& e) {
  ScalarKind t = e.type().base;
  if (!is_data(t)) {  // an integer literal (expression) inside a data expression
    if (const ConstNode* c = e.as<ConstNode>()) return Range{c->val, c->val};
    if (const USubNode* u = e.as<USubNode>()) {
      auto r = int_range(u->arg);
      if (r) return Range{-r->hi, -r->lo};
    }
    return std::nullopt;
  }
  if (!is_int_precision(t)) {
    // A float literal meeting an integer operator: integral literals stay as they are.
    if (const ConstNode* c = e.as<ConstNode>(); c && std::trunc(c->val) == c->val)
      return Range{c->val, c->val};
    return std::nullopt;
  }
  switch (e.kind()) {
    case ExprKind::Read:
    case ExprKind::Extern:
    case ExprKind::ReadConfig:
    case ExprKind::WindowExpr:
    case ExprKind::StrideExpr:
      return range_of(t);
    case ExprKind::Const: {
      double v = e.as<ConstNode>()->val;
      if (std::trunc(v) != v) return std::nullopt;
      return Range{v, v};
    }
    case ExprKind::USub: {
      auto r = int_range(e.as<USubNode>()->arg);
      if (!r) return std::nullopt;
      return Range{-r->hi, -r->lo};  // not wrapped by the interpreter: -(-2^31) stays 2^31
    }
    case ExprKind::BinOp: {
      const BinOpNode* b = e.as<BinOpNode>();
      auto x = int_range(b->lhs), y = int_range(b->rhs);
      if (!x || !y) return std::nullopt;
      switch (b->op) {
        case BinOpKind::Add:
          return wrap32({x->lo + y->lo, x->hi + y->hi});
        case BinOpKind::Sub:
          return wrap32({x->lo - y->hi, x->hi - y->lo});
        case BinOpKind::Mul: {
          double c[] = {x->lo * y->lo, x->lo * y->hi, x->hi * y->lo, x->hi * y->hi};
          return wrap32({*std::min_element(c, c + 4), *std::max_element(c, c + 4)});
        }
        case BinOpKind::Div:
        case BinOpKind::Mod: {
          Range xw = wrap32(*x);
          double m = std::max(std::fabs(xw.lo), std::fabs(xw.hi));
          Range r{xw.lo >= 0 ? 0 : -m, m};
          return wrap32(r);
        }
        case BinOpKind::Lt:
        case BinOpKind::Le:
        case BinOpKind::Gt:
        case BinOpKind::Ge:
        case BinOpKind::Eq:
        case BinOpKind::And:
        case BinOpKind::Or:
          return std::nullopt;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Float precisions ordered by inclusion of their value sets (R: exact reals; it includes only
// itself, since an interpreter may compute R in any precision). f16 and bf16 share a rank: neither
// includes the other (f16 has the longer significand, bf16 the wider exponent).
bool float_includes(ScalarKind to, ScalarKind from) {
  if (to == from) return true;
  auto rank = [](ScalarKind k) {
    if (k == ScalarKind::F16 || k == ScalarKind::BF16) return 1;
    return k == ScalarKind::F32 ? 2 : k == ScalarKind::F64 ? 3 : 0;
  };
  return rank(from) > 0 && rank(to) > rank(from);
}

// An integer range exactly representable in precision `to`.
bool range_fits(const Range& r, ScalarKind to) {
  if (is_int_precision(to)) return within(r, range_of(to));
  double m = std::max(std::fabs(r.lo), std::fabs(r.hi));
  switch (to) {
    case ScalarKind::F16:
      return m <= 2048;
    case ScalarKind::BF16:
      return m <= 256;
    case ScalarKind::F32:
      return m <= 16777216;
    case ScalarKind::F64:
    case ScalarKind::R:
      return true;
    default:
      return false;
  }
}

// A bare float literal: its value depends on the precision around it, so it survives only when
// that precision cannot matter.
bool literal_exact_everywhere(double v) {
  return round_to_kind(ScalarKind::F16, v) == v && round_to_kind(ScalarKind::BF16, v) == v;
}

}  // namespace

bool store_keeps_value(const Expr& e, ScalarKind to) {
  if (!is_data(to)) return false;
  ScalarKind t = e.type().base;
  const Expr* core = &e;
  while (const USubNode* u = core->as<USubNode>()) core = &u->arg;
  if (core->as<ConstNode>() && !is_int_precision(t)) {
    double v = core->as<ConstNode>()->val;
    if (!is_data(t)) return range_fits(Range{v, v}, to);  // an integer literal
    // A float literal: non-integral ones are kept only by float buffers.
    return literal_exact_everywhere(v) &&
           (is_float(to) || (std::trunc(v) == v && range_fits(Range{v, v}, to)));
  }
  // Literals combined (`16777217.0 * (0.5 + 3.0)`) compute in the precision around them, which
  // the store changes: their value is not the one they had where they stood.
  if (is_literal_only(e)) return false;
  if (is_int_precision(t) || !is_data(t)) {
    auto r = int_range(e);
    return r && range_fits(*r, to);
  }
  return is_float(to) && float_includes(to, t);
}

std::optional<ScalarKind> precision_keeping(const Expr& e) {
  ScalarKind t = e.type().base;
  if (is_data(t) && store_keeps_value(e, t)) return t;
  if (store_keeps_value(e, ScalarKind::I32)) return ScalarKind::I32;
  return std::nullopt;
}

bool includes_precision(ScalarKind to, ScalarKind from) {
  if (is_int_precision(to) && is_int_precision(from)) return within(range_of(from), range_of(to));
  if (is_float(to) && is_float(from)) return float_includes(to, from);
  return false;
}

bool is_integer_arith(const Expr& e) {
  ScalarKind t = e.type().base;
  if (!is_data(t)) return int_range(e).has_value();
  if (const ConstNode* c = e.as<ConstNode>()) return std::trunc(c->val) == c->val;
  if (!is_int_precision(t)) return false;
  switch (e.kind()) {
    case ExprKind::USub:
      return is_integer_arith(e.as<USubNode>()->arg);
    case ExprKind::BinOp: {
      const BinOpNode* b = e.as<BinOpNode>();
      return is_integer_arith(b->lhs) && is_integer_arith(b->rhs);
    }
    case ExprKind::Const:
      return std::trunc(e.as<ConstNode>()->val) == e.as<ConstNode>()->val;
    case ExprKind::Read:
    case ExprKind::Extern:
    case ExprKind::ReadConfig:
    case ExprKind::WindowExpr:
    case ExprKind::StrideExpr:
      return true;
  }
  return false;
}

bool partial_store_keeps_value(const Expr& a, const Expr& b, ScalarKind to) {
  if (is_int_precision(to)) {
    if (is_integer_arith(a) && is_integer_arith(b)) return true;
    return store_keeps_value(a, to) && is_integer_arith(b);
  }
  return store_keeps_value(a, to);
}

ScalarKind arithmetic_of(ScalarKind t) { return is_int_precision(t) ? ScalarKind::I32 : t; }

bool takes_context_precision(const Expr& e) {
  return !is_data(e.type().base) || is_literal_only(e);
}

bool operand_of(const Expr& e, ScalarKind to) {
  if (is_int_precision(to)) return is_integer_arith(e);
  if (!is_float(to)) return false;
  return e.type().base == to || takes_context_precision(e);
}

bool sum_regroups_in(const Expr& b, const Expr& c, ScalarKind to) {
  if (operand_of(b, to) && operand_of(c, to)) return true;
  // Exact everywhere: integer values whose sum never wraps in 32-bit int and fits `to` exactly,
  // so that every form computes the same integer. (A float sum of another precision rounds.)
  if (!is_integer_arith(b) || !is_integer_arith(c)) return false;
  const std::optional<Range> rb = int_range(b), rc = int_range(c);
  if (!rb || !rc) return false;
  const Range sum{rb->lo + rc->lo, rb->hi + rc->hi};
  return within(sum, kI32) && range_fits(*rb, to) && range_fits(*rc, to) && range_fits(sum, to);
}

namespace {

// The arithmetic a node computes in, for changed_arithmetic: nullopt where it takes the
// context's (literals, control values).
std::optional<ScalarKind> node_arithmetic(const Expr& e) {
  if (takes_context_precision(e)) return std::nullopt;
  return arithmetic_of(e.type().base);
}

std::optional<ArithmeticChange> walk(const Expr& b, const Expr& a);

std::optional<ArithmeticChange> walk_all(const std::vector<Expr>& b, const std::vector<Expr>& a) {
  if (b.size() != a.size()) return std::nullopt;  // replaced (a read of another buffer)
  for (size_t i = 0; i < b.size(); ++i)
    if (auto d = walk(b[i], a[i])) return d;
  return std::nullopt;
}

std::optional<ArithmeticChange> walk(const Expr& b, const Expr& a) {
  if (b.get() == a.get() || b.kind() != a.kind()) return std::nullopt;  // same, or replaced here
  switch (b.kind()) {
    case ExprKind::Read: {
      const ReadNode *x = b.as<ReadNode>(), *y = a.as<ReadNode>();
      if (x->name != y->name) return std::nullopt;  // replaced
      return walk_all(x->idx, y->idx);
    }
    case ExprKind::USub:
    case ExprKind::BinOp:
      if (const BinOpNode* x = b.as<BinOpNode>(); x && x->op != a.as<BinOpNode>()->op)
        return std::nullopt;  // replaced by another operation
      if (node_arithmetic(b) != node_arithmetic(a)) return ArithmeticChange{b, a};
      if (const USubNode* x = b.as<USubNode>()) return walk(x->arg, a.as<USubNode>()->arg);
      if (auto d = walk(b.as<BinOpNode>()->lhs, a.as<BinOpNode>()->lhs)) return d;
      return walk(b.as<BinOpNode>()->rhs, a.as<BinOpNode>()->rhs);
    case ExprKind::Extern: {
      const ExternNode *x = b.as<ExternNode>(), *y = a.as<ExternNode>();
      if (x->fn != y->fn) return std::nullopt;  // replaced
      // An extern rounds its result to its type, and computes its arguments in it.
      if (b.type().base != a.type().base ||
          takes_context_precision(b) != takes_context_precision(a))
        return ArithmeticChange{b, a};
      return walk_all(x->args, y->args);
    }
    case ExprKind::Const:
    case ExprKind::WindowExpr:
    case ExprKind::StrideExpr:
    case ExprKind::ReadConfig:
      return std::nullopt;  // leaves: replaced, if anything
  }
  return std::nullopt;
}

// The expressions a statement holds itself (not those of the statements nested in it).
std::vector<Expr> own_exprs(const Stmt& s) {
  std::vector<Expr> out;
  switch (s.kind()) {
    case StmtKind::Assign: {
      const AssignNode* n = s.as<AssignNode>();
      out = n->idx;
      out.push_back(n->rhs);
      break;
    }
    case StmtKind::Reduce: {
      const ReduceNode* n = s.as<ReduceNode>();
      out = n->idx;
      out.push_back(n->rhs);
      break;
    }
    case StmtKind::WriteConfig:
      out.push_back(s.as<WriteConfigNode>()->rhs);
      break;
    case StmtKind::If:
      out.push_back(s.as<IfNode>()->cond);
      break;
    case StmtKind::For:
      out.push_back(s.as<ForNode>()->lo);
      out.push_back(s.as<ForNode>()->hi);
      break;
    case StmtKind::Call:
      out = s.as<CallNode>()->args;
      break;
    case StmtKind::WindowStmt:
      out.push_back(s.as<WindowStmtNode>()->rhs);
      break;
    case StmtKind::Pass:
    case StmtKind::Alloc:
      break;
  }
  return out;
}

}  // namespace

std::optional<ArithmeticChange> changed_arithmetic(const Expr& before, const Expr& after) {
  return walk(before, after);
}

std::optional<ArithmeticChange> changed_arithmetic(const Block& before, const Block& after) {
  EXOCPP_ASSERT(before.size() == after.size(),
                "changed_arithmetic: statement lists of different shapes");
  for (size_t i = 0; i < before.size(); ++i) {
    const Stmt &b = before[i], &a = after[i];
    if (b.get() == a.get()) continue;
    EXOCPP_ASSERT(b.kind() == a.kind(), "changed_arithmetic: statements of different kinds");
    std::vector<Expr> eb = own_exprs(b), ea = own_exprs(a);
    EXOCPP_ASSERT(eb.size() == ea.size(), "changed_arithmetic: statements of different shapes");
    for (size_t k = 0; k < eb.size(); ++k)
      if (auto d = walk(eb[k], ea[k])) return d;
    if (const IfNode* x = b.as<IfNode>()) {
      if (auto d = changed_arithmetic(x->body, a.as<IfNode>()->body)) return d;
      if (auto d = changed_arithmetic(x->orelse, a.as<IfNode>()->orelse)) return d;
    }
    if (const ForNode* x = b.as<ForNode>())
      if (auto d = changed_arithmetic(x->body, a.as<ForNode>()->body)) return d;
  }
  return std::nullopt;
}

}  // namespace exocpp::rw
