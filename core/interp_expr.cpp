// The reference interpreter's expressions: variable lookup, bounds-checked element access,
// windows, and control (64-bit integer) and data (rounded double) evaluation.
#include <algorithm>
#include <cmath>

#include "core/externs.h"
#include "core/int_arith.h"
#include "core/interp_internal.h"

namespace exocpp {
namespace {

bool literal_leaves(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Const:
      return e.type().base != ScalarKind::Bool;
    case ExprKind::USub:
      return literal_leaves(e.as<USubNode>()->arg);
    case ExprKind::BinOp: {
      const BinOpNode* b = e.as<BinOpNode>();
      return is_arithmetic(b->op) && literal_leaves(b->lhs) && literal_leaves(b->rhs);
    }
    case ExprKind::Extern: {
      const ExternNode* x = e.as<ExternNode>();
      return std::all_of(x->args.begin(), x->args.end(), literal_leaves);
    }
    case ExprKind::Read:
    case ExprKind::WindowExpr:
    case ExprKind::StrideExpr:
    case ExprKind::ReadConfig:
      return false;
  }
  return false;
}

}  // namespace

bool is_literal_only(const Expr& e) {
  return e.defined() && e.type().is_scalar() && e.type().base == ScalarKind::R && literal_leaves(e);
}

ScalarKind data_kind_in(const Expr& e, ScalarKind ctx) {
  const ScalarKind own = e.type().base;
  if (!is_data(ctx)) return own;
  if (!is_data(own) || is_literal_only(e)) return ctx;
  return own;
}

bool reductions_regroup(ScalarKind target, const Expr& addend) {
  return !is_int_precision(target) || !is_float(data_kind_in(addend, target));
}

}  // namespace exocpp

namespace exocpp::interp_detail {

// ---- environment and accesses ----------------------------------------------------------------

ArgValue& Interp::lookup(Frame& f, const Sym& name, const SrcInfo& where) {
  ArgValue* v = f.find(name);
  if (!v)
    fail(where,
         "'" + name.name() + "' is not defined at this point of proc '" + f.proc->name + "'");
  return *v;
}

Buffer& Interp::lookup_buffer(Frame& f, const Sym& name, const SrcInfo& where) {
  ArgValue& v = lookup(f, name, where);
  Buffer* b = std::get_if<Buffer>(&v);
  if (!b) fail(where, "'" + name.name() + "' is a control value, not a buffer");
  return *b;
}

int64_t Interp::locate(Buffer& b, const Sym& name, const std::vector<Expr>& idx, Frame& f,
                       const SrcInfo& where, const char* what) {
  if (static_cast<int>(idx.size()) != b.rank())
    fail(where, std::string(what) + " of '" + name.name() + "' with " + std::to_string(idx.size()) +
                    " indices, but it has rank " + std::to_string(b.rank()));
  int64_t pos = b.offset();
  for (size_t d = 0; d < idx.size(); ++d) {
    int64_t v = eval_int(idx[d], f);
    if (v < 0 || v >= b.shape()[d]) {
      std::vector<int64_t> vals;
      for (const Expr& i : idx) vals.push_back(eval_int(i, f));
      fail(where, std::string("out-of-bounds ") + what + ": " + name.name() + "[" +
                      index_list(vals) + "] is outside " + name.name() + " of shape " +
                      shape_string(b.shape()) + " (index " + std::to_string(d) + " is " +
                      std::to_string(v) + ", extent " + std::to_string(b.shape()[d]) + ")");
    }
    pos += v * b.strides()[d];
  }
  return pos;
}

Buffer Interp::eval_window(const WindowExprNode* w, const Expr& e, Frame& f) {
  Buffer& b = lookup_buffer(f, w->name, e.srcinfo());
  if (static_cast<int>(w->idx.size()) != b.rank())
    fail(e.srcinfo(), "window of '" + w->name.name() + "' with " + std::to_string(w->idx.size()) +
                          " indices, but it has rank " + std::to_string(b.rank()));
  std::vector<Buffer::Slice> slices;
  bool ok = true;
  std::string text;
  for (size_t d = 0; d < w->idx.size(); ++d) {
    const WAccess& a = w->idx[d];
    int64_t lo = eval_int(a.lo, f);
    int64_t ext = b.shape()[d];
    if (a.is_interval) {
      int64_t hi = eval_int(a.hi, f);
      slices.push_back(Buffer::Slice::interval(lo, hi));
      ok = ok && 0 <= lo && lo <= hi && hi <= ext;
      text += (d ? ", " : "") + std::to_string(lo) + ":" + std::to_string(hi);
    } else {
      slices.push_back(Buffer::Slice::point(lo));
      ok = ok && 0 <= lo && lo < ext;
      text += (d ? ", " : "") + std::to_string(lo);
    }
  }
  if (!ok)
    fail(e.srcinfo(), "out-of-bounds window: " + w->name.name() + "[" + text + "] is outside " +
                          w->name.name() + " of shape " + shape_string(b.shape()));
  return b.window(slices);
}

// ---- expressions -----------------------------------------------------------------------------

int64_t Interp::eval_int(const Expr& e, Frame& f) {
  ScalarKind t = e.type().base;
  if (t == ScalarKind::Error || !e.type().is_scalar())
    fail(e.srcinfo(),
         "ill-typed expression where a control value is needed (run the type checker)");
  if (is_data(t)) fail(e.srcinfo(), "a data value is used where a control value is needed");
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* n = e.as<ReadNode>();
      ArgValue& v = lookup(f, n->name, e.srcinfo());
      if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
      if (const bool* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
      // An element of an index argument (its type says int; its range was checked at entry).
      if (Buffer* b = std::get_if<Buffer>(&v); b && !is_float(b->kind()))
        return static_cast<int64_t>(b->raw(locate(*b, n->name, n->idx, f, e.srcinfo(), "read")));
      fail(e.srcinfo(), "'" + n->name.name() + "' is a buffer, not a control value");
    }
    case ExprKind::Const: {
      double v = e.as<ConstNode>()->val;
      if (!(std::fabs(v) < 9.2e18))
        fail(e.srcinfo(), "integer constant " + fmt_double(v) + " does not fit in 64 bits");
      return static_cast<int64_t>(v);
    }
    case ExprKind::USub: {
      int64_t v = eval_int(e.as<USubNode>()->arg, f);
      if (v == INT64_MIN) fail(e.srcinfo(), "integer overflow in negation");
      return -v;
    }
    case ExprKind::BinOp:
      return eval_int_binop(e.as<BinOpNode>(), e, f);
    case ExprKind::StrideExpr: {
      const StrideExprNode* n = e.as<StrideExprNode>();
      Buffer& b = lookup_buffer(f, n->name, e.srcinfo());
      if (n->dim < 0 || n->dim >= b.rank())
        fail(e.srcinfo(), "stride(" + n->name.name() + ", " + std::to_string(n->dim) + "): '" +
                              n->name.name() + "' has rank " + std::to_string(b.rank()));
      return b.strides()[static_cast<size_t>(n->dim)];
    }
    case ExprKind::ReadConfig: {
      const ReadConfigNode* n = e.as<ReadConfigNode>();
      const ConfigValue& v = cfg_.get(n->config->name, n->field, e.srcinfo());
      if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
      if (const bool* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
      fail(e.srcinfo(), "config field " + n->config->name + "." + n->field +
                            " holds a data value, not a control value");
    }
    case ExprKind::Extern:
    case ExprKind::WindowExpr:
      break;
  }
  fail(e.srcinfo(),
       std::string("a ") + to_string(e.kind()) + " expression cannot give a control value");
}

// `x op y` for a comparison `op`, in C++'s (IEEE's, for doubles) meaning.
template <class T>
static bool compare(BinOpKind op, T x, T y) {
  switch (op) {
    case BinOpKind::Lt:
      return x < y;
    case BinOpKind::Le:
      return x <= y;
    case BinOpKind::Gt:
      return x > y;
    case BinOpKind::Ge:
      return x >= y;
    case BinOpKind::Eq:
      return x == y;
    case BinOpKind::Add:
    case BinOpKind::Sub:
    case BinOpKind::Mul:
    case BinOpKind::Div:
    case BinOpKind::Mod:
    case BinOpKind::And:
    case BinOpKind::Or:
      break;
  }
  throw InternalError(std::string("compare() of the non-comparison '") + to_string(op) + "'");
}

int64_t Interp::eval_int_binop(const BinOpNode* b, const Expr& e, Frame& f) {
  // Logical operators short-circuit, as the emitted C (&&, ||) does.
  if (b->op == BinOpKind::And) return eval_bool(b->lhs, f) && eval_bool(b->rhs, f);
  if (b->op == BinOpKind::Or) return eval_bool(b->lhs, f) || eval_bool(b->rhs, f);
  if (is_comparison(b->op) && (b->lhs.type().is_data() || b->rhs.type().is_data())) {
    // Data compare in their common precision, as IEEE does: a NaN is unordered (every
    // comparison with it is false) and -0 == +0.
    const ScalarKind k = data_operand_type(b->lhs, b->rhs);
    return compare(b->op, eval_data(b->lhs, f, k), eval_data(b->rhs, f, k));
  }
  int64_t x = eval_int(b->lhs, f), y = eval_int(b->rhs, f), r = 0;
  if (is_comparison(b->op)) return compare(b->op, x, y);
  auto overflow = [&]() -> int64_t {
    fail(e.srcinfo(), "integer overflow: " + std::to_string(x) + " " + to_string(b->op) + " " +
                          std::to_string(y) + " does not fit in 64 bits");
  };
  switch (b->op) {
    case BinOpKind::Add:
      return __builtin_add_overflow(x, y, &r) ? overflow() : r;
    case BinOpKind::Sub:
      return __builtin_sub_overflow(x, y, &r) ? overflow() : r;
    case BinOpKind::Mul:
      return __builtin_mul_overflow(x, y, &r) ? overflow() : r;
    case BinOpKind::Div:
    case BinOpKind::Mod:
      if (y == 0)
        fail(e.srcinfo(), std::string(b->op == BinOpKind::Div ? "division" : "modulo") +
                              " by zero: " + std::to_string(x) + " " + to_string(b->op) + " 0");
      if (b->op == BinOpKind::Mod) return floor_mod(x, y);
      if (x == INT64_MIN && y == -1) return overflow();
      return floor_div(x, y);
    case BinOpKind::Lt:
    case BinOpKind::Le:
    case BinOpKind::Gt:
    case BinOpKind::Ge:
    case BinOpKind::Eq:
    case BinOpKind::And:
    case BinOpKind::Or:
      break;  // comparisons above; logical operators at the top
  }
  return 0;
}

// A literal takes the precision of the expression around it (`ctx`: the operator's, the
// extern's, or the stored-to buffer's), as the emitted C spells it: `x * 0.1` in f32 multiplies by
// the float nearest 0.1 (C's `0.1f`), an integer literal in a float expression is converted to that
// type, and in an integer expression a non-integral literal is truncated to the type
// (`(uint8_t)0.7` is 0) while an integral one stays a plain int. Without this the interpreter
// computed with the exact decimal, and disagreed with the compiled kernel (e.g. f16 `h * 0.1`, f32
// `x + 16777217`). A literal-only expression (`0.1 + 0.2`, `-(2.0 * 3.0)`, `sqrt(2.0)`: type R,
// every leaf a literal) does the same as a whole: every literal and every operation in it is
// computed in the context's precision (data_kind_in), whatever InterpOptions::real_as says, so
// `x_f64 + (0.1 + 0.2)` adds two doubles and `x_f32 + (16777216.0 + 1.0 + 1.0)` sums in float.
double Interp::literal_in(ScalarKind ctx, ScalarKind own, double v) const {
  ScalarKind k = precision(own == ScalarKind::R || !is_data(own) ? ctx : own);
  if (is_float(k)) return round_to_kind(k, v);
  if (!is_data(k) || !is_data(own) || std::trunc(v) == v) return v;
  return round_to_kind(k, v);
}

double Interp::eval_data(const Expr& e, Frame& f, ScalarKind ctx) {
  ScalarKind t = e.type().base;
  if (t == ScalarKind::Error || !e.type().is_scalar())
    fail(e.srcinfo(), "ill-typed expression where a data value is needed (run the type checker)");
  if (!is_data(t)) return literal_in(ctx, t, static_cast<double>(eval_int(e, f)));  // literals
  const ScalarKind k = data_kind_in(e, ctx);  // t, or ctx for a literal-only expression
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* n = e.as<ReadNode>();
      Buffer& b = lookup_buffer(f, n->name, e.srcinfo());
      return b.raw(locate(b, n->name, n->idx, f, e.srcinfo(), "read"));
    }
    case ExprKind::Const:
      return literal_in(ctx, t, e.as<ConstNode>()->val);
    case ExprKind::USub: {
      double v = -eval_data(e.as<USubNode>()->arg, f, k);
      // Integer data is computed in 32-bit int: -INT32_MIN wraps to INT32_MIN.
      return is_float(precision(k)) ? v : round_to_kind(ScalarKind::I32, v);
    }
    case ExprKind::BinOp:
      return eval_data_binop(e.as<BinOpNode>(), e, k, f);
    case ExprKind::Extern: {
      const ExternNode* n = e.as<ExternNode>();
      std::vector<double> args;
      args.reserve(n->args.size());
      for (const Expr& a : n->args) args.push_back(eval_data(a, f, k));
      if (static_cast<int>(args.size()) != n->fn->arity())
        fail(e.srcinfo(), n->fn->name() + "() takes " + std::to_string(n->fn->arity()) +
                              " arguments, got " + std::to_string(args.size()));
      return round_to_kind(precision(k), n->fn->interpret_in(args, precision(k)));
    }
    case ExprKind::ReadConfig: {
      const ReadConfigNode* n = e.as<ReadConfigNode>();
      const ConfigValue& v = cfg_.get(n->config->name, n->field, e.srcinfo());
      if (const double* d = std::get_if<double>(&v)) return *d;
      if (const int64_t* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
      return std::get<bool>(v) ? 1.0 : 0.0;
    }
    case ExprKind::WindowExpr:
    case ExprKind::StrideExpr:
      break;
  }
  fail(e.srcinfo(),
       std::string("a ") + to_string(e.kind()) + " expression cannot give a data value");
}

// Float arithmetic is rounded to the expression's precision after each operation. Integer data
// arithmetic is 32-bit two's complement: the operands are promoted to 32-bit int, results wrap
// modulo 2^32 (never overflow), `/` truncates toward zero (INT32_MIN / -1 wraps to INT32_MIN,
// INT32_MIN % -1 is 0), division by zero is an error; the store then wraps to the buffer's width.
// `k` is the type the operation computes in: its own, or its context's when it is literal-only.
// The emitted C computes the same through its prelude's helpers (codegen/c_prelude.cpp).
double Interp::eval_data_binop(const BinOpNode* b, const Expr& e, ScalarKind k, Frame& f) {
  ScalarKind t = precision(k);
  double x = eval_data(b->lhs, f, k), y = eval_data(b->rhs, f, k);
  ScalarKind r = is_float(t) ? t : ScalarKind::I32;
  if (!is_float(t) && is_arithmetic(b->op) && b->op != BinOpKind::Div && b->op != BinOpKind::Mod &&
      std::trunc(x) == x && std::trunc(y) == y) {
    // Exact 32-bit wrap-around (a double product of two 32-bit values can be inexact).
    auto xi = static_cast<uint32_t>(static_cast<int64_t>(round_to_kind(r, x)));
    auto yi = static_cast<uint32_t>(static_cast<int64_t>(round_to_kind(r, y)));
    uint32_t z = b->op == BinOpKind::Add ? xi + yi : b->op == BinOpKind::Sub ? xi - yi : xi * yi;
    return static_cast<double>(static_cast<int32_t>(z));
  }
  switch (b->op) {
    case BinOpKind::Add:
      return round_to_kind(r, x + y);
    case BinOpKind::Sub:
      return round_to_kind(r, x - y);
    case BinOpKind::Mul:
      return round_to_kind(r, x * y);
    case BinOpKind::Div:
    case BinOpKind::Mod: {
      if (is_float(t)) return round_to_kind(t, b->op == BinOpKind::Div ? x / y : std::fmod(x, y));
      if (round_to_kind(r, y) == 0)
        fail(e.srcinfo(), std::string("integer ") +
                              (b->op == BinOpKind::Div ? "division" : "modulo") +
                              " by zero: " + fmt_double(x) + " " + to_string(b->op) + " 0");
      // Operands are already 32-bit values unless a literal is out of range: wrap them first so
      // that the conversion to an integer is always defined.
      auto xi = static_cast<int64_t>(round_to_kind(r, x)),
           yi = static_cast<int64_t>(round_to_kind(r, y));
      return round_to_kind(r, static_cast<double>(b->op == BinOpKind::Div ? xi / yi : xi % yi));
    }
    case BinOpKind::Lt:
    case BinOpKind::Le:
    case BinOpKind::Gt:
    case BinOpKind::Ge:
    case BinOpKind::Eq:
    case BinOpKind::And:
    case BinOpKind::Or:
      break;
  }
  fail(e.srcinfo(), std::string("operator ") + to_string(b->op) + " cannot give a data value");
}

}  // namespace exocpp::interp_detail
