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

}  // namespace exocpp::rw
