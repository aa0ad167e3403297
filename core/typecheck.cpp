// The type checker: walks a proc with a scope of declared variables (arguments, allocations,
// loop iterators, window statements) and throws a TypeError at the first ill-typed node, with
// that node's location and a message saying what was expected. The rules are Exo's
// (src/exo/frontend/typecheck.py) adapted to this IR, where make() has already computed each
// expression's type and marked operand types that do not combine as ScalarKind::Error:
//
//  - control values (size, index, int, bool, stride) and data values (R, f32, ...) never mix;
//    indices, window bounds, loop bounds and shapes are control values of indexable type;
//  - `/` and `%` on control values divide only by positive integer constants;
//  - tensor shapes are built from arguments and constants (no loop variables, no data), and a
//    constant dimension is positive;
//  - assignments write data buffers with data values (converted to the buffer's precision,
//    as in Exo); the operands of one operator agree in precision (R unifies with any);
//  - calls match the callee's signature; config writes match the field's type;
//  - plain procs (not @instr) touch buffers element by element only in memories that allow it.
//
// Call argument checks live in typecheck_calls.cpp, the loop-invariance of config writes in
// typecheck_config.cpp.
#include "core/typecheck.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <unordered_map>

#include "core/externs.h"
#include "core/int_arith.h"
#include "core/interpreter.h"
#include "core/ir_visit.h"
#include "core/memory.h"
#include "core/printer.h"
#include "core/typecheck_internal.h"

namespace exocpp {
namespace typecheck_detail {

// ---- helpers ---------------------------------------------------------------------------------

std::optional<int64_t> fold_int_constant(const Expr& e) {
  if (!e.defined()) return std::nullopt;
  if (const ConstNode* c = e.as<ConstNode>()) {
    if (c->is_int()) return c->int_val();
    return std::nullopt;
  }
  // Overflow gives nullopt (not a constant we can reason about) rather than wrapping.
  int64_t out = 0;
  if (const USubNode* u = e.as<USubNode>()) {
    auto v = fold_int_constant(u->arg);
    if (v && checked_sub(0, *v, &out)) return out;
    return std::nullopt;
  }
  const BinOpNode* b = e.as<BinOpNode>();
  if (!b || !is_arithmetic(b->op)) return std::nullopt;
  auto l = fold_int_constant(b->lhs), r = fold_int_constant(b->rhs);
  if (!l || !r) return std::nullopt;
  switch (b->op) {
    case BinOpKind::Add:
      if (!checked_add(*l, *r, &out)) return std::nullopt;
      return out;
    case BinOpKind::Sub:
      if (!checked_sub(*l, *r, &out)) return std::nullopt;
      return out;
    case BinOpKind::Mul:
      if (!checked_mul(*l, *r, &out)) return std::nullopt;
      return out;
    case BinOpKind::Div:
    case BinOpKind::Mod:  // rounding toward negative infinity, as Exo's quasi-affine '/'
      if (*r == 0 || (*r == -1 && *l == INT64_MIN)) return std::nullopt;
      return b->op == BinOpKind::Div ? floor_div(*l, *r) : floor_mod(*l, *r);
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

std::string quoted(const Sym& s) { return "'" + s.name() + "'"; }

std::string indices_word(size_t n) { return std::to_string(n) + (n == 1 ? " index" : " indices"); }

// Exo types integer literals outside indices as R; here they are int, so an expression of
// literals is accepted wherever a data value is expected.
bool is_int_literal_expr(const Expr& e) {
  return e.defined() && e.type().is_scalar() && e.type().base == ScalarKind::Int &&
         fold_int_constant(e).has_value();
}

bool precisions_compatible(ScalarKind a, ScalarKind b) {
  return a == b || a == ScalarKind::R || b == ScalarKind::R;
}

void Checker::fail(const SrcInfo& where, const std::string& msg) { throw TypeError(where, msg); }

std::string Checker::describe(const VarInfo& v) {
  switch (v.kind) {
    case VarKind::LoopIter:
      return "a loop variable";
    case VarKind::Window:
      return "a window of type " + to_string(v.type);
    case VarKind::Alloc:
      return "a buffer of type " + to_string(v.type);
    case VarKind::Arg:
      if (v.type.is_control()) return "a control argument of type " + to_string(v.type);
      if (v.index_arg) return "an index argument of type " + to_string(v.type);
      return "an argument of type " + to_string(v.type);
  }
  return "a variable";
}

// ---- scope -----------------------------------------------------------------------------------

const VarInfo& Checker::lookup(const Sym& s, const SrcInfo& where) const {
  auto it = env_.find(s);
  if (it == env_.end())
    fail(where, quoted(s) +
                    " is not defined here (it is used outside the scope of its "
                    "declaration)");
  return it->second;
}

void Checker::declare(const Sym& s, VarInfo info, const SrcInfo& where) {
  if (!s.valid()) fail(where, "a declaration without a name");
  if (env_.count(s))
    fail(where, quoted(s) +
                    " is declared again while its earlier declaration is still in scope "
                    "(one symbol, two declarations)");
  env_.emplace(s, std::move(info));
  declared_.push_back(s);
}

void Checker::pop_scope(size_t mark) {
  while (declared_.size() > mark) {
    env_.erase(declared_.back());
    declared_.pop_back();
  }
}

const Memory& Checker::memory_of(const std::string& mem, const Sym& name, const SrcInfo& where) {
  const Memory* m = find_memory(mem);
  if (m) return *m;
  std::string have;
  for (const std::string& n : memory_names()) have += (have.empty() ? "" : ", ") + n;
  fail(where,
       "unknown memory '" + mem + "' for " + quoted(name) + " (registered memories: " + have + ")");
}

void Checker::check_element_access(const Sym& name, const VarInfo& v, bool write,
                                   const SrcInfo& where) {
  if (!plain_ || !v.type.is_data()) return;
  const Memory& m = memory_of(v.mem, name, where);
  if (m.can_read()) return;
  fail(where, std::string("cannot ") + (write ? "write " : "read ") + quoted(name) + " in proc '" +
                  proc_.name + "': it lives in memory " + m.name() +
                  ", which only instructions (@instr procs) may access; call an instruction "
                  "or stage the data in DRAM");
}

// ---- types -----------------------------------------------------------------------------------

// A data buffer's type: a data element type and positive shapes built from arguments and
// constants. A control type is an error here: only data buffers are allocated.
void Checker::check_data_type(const Type& t, const Sym& name, const SrcInfo& where) {
  if (t.base == ScalarKind::Error) fail(where, quoted(name) + " has no valid type");
  if (t.is_tensor_or_window() && !t.is_data())
    fail(where, quoted(name) + ": a tensor or window must have a data element type, not " +
                    std::string(to_string(t.base)));
  if (!t.is_data())
    fail(where, "cannot allocate " + quoted(name) + " of control type " + to_string(t) +
                    ": only data buffers are allocated (control values are arguments or "
                    "loop variables)");
  for (size_t d = 0; d < t.shape.size(); ++d) {
    std::string what = "dimension " + std::to_string(d) + " of " + quoted(name);
    if (!t.shape[d].defined()) fail(where, what + " is missing");
    check_size_expr(t.shape[d], what);
    auto c = fold_int_constant(t.shape[d]);
    if (c && *c <= 0)
      fail(t.shape[d].srcinfo(), what + " must be positive, got " + std::to_string(*c));
  }
}

// A size expression: indexable, and built only from arguments and constants, so that it is
// fixed for the whole call (no loop variables, no data, no configuration state).
void Checker::check_size_expr(const Expr& e, const std::string& what) {
  expect_index(e, what);
  struct Walk {
    Checker& c;
    const std::string& what;
    void operator()(const Expr& x) {
      switch (x.kind()) {
        case ExprKind::Read: {
          const ReadNode* r = x.as<ReadNode>();
          const VarInfo& v = c.lookup(r->name, x.srcinfo());
          if (v.kind != VarKind::Arg || v.index_arg)
            fail(x.srcinfo(), what + " must be built from size arguments and constants, but " +
                                  quoted(r->name) + " is " + describe(v));
          return;
        }
        case ExprKind::USub:
          (*this)(x.as<USubNode>()->arg);
          return;
        case ExprKind::BinOp:
          (*this)(x.as<BinOpNode>()->lhs);
          (*this)(x.as<BinOpNode>()->rhs);
          return;
        case ExprKind::ReadConfig: {
          const ReadConfigNode* rc = x.as<ReadConfigNode>();
          fail(x.srcinfo(), what +
                                " must be built from size arguments and constants, but it "
                                "reads configuration state " +
                                rc->config->name + "." + rc->field);
        }
        case ExprKind::Const:
        case ExprKind::Extern:
        case ExprKind::WindowExpr:
        case ExprKind::StrideExpr:
          return;  // constants; the others are not indexable and were rejected above
      }
    }
  };
  Walk{*this, what}(e);
}

// An index argument: integer data (a scalar or a tensor, not a window) whose declared range
// `range(lo, hi)` is built from size arguments and constants, like a shape.
void Checker::check_index_arg(const FnArg& a) {
  if (!is_int_precision(a.type.base))
    fail(a.srcinfo, quoted(a.name) + " declares a value range, but only integer data (" +
                        "i8, ui8, ui16, i32) can be an index argument; it is " + to_string(a.type));
  if (a.type.window)
    fail(a.srcinfo, quoted(a.name) +
                        " declares a value range, but an index argument is a tensor or a scalar, "
                        "not a window");
  check_size_expr(a.range->lo, "the lower end of " + quoted(a.name) + "'s value range");
  check_size_expr(a.range->hi, "the upper end of " + quoted(a.name) + "'s value range");
}

// The first read of an index argument's element inside e, or nullptr.
const Expr* find_index_arg_read(const Expr& e,
                                const std::unordered_map<Sym, VarInfo, SymHash>& env) {
  const Expr* found = nullptr;
  for_each_expr(e, [&](const Expr& x) {
    const ReadNode* r = x.as<ReadNode>();
    if (found || !r || !x.type().is_scalar()) return;
    auto it = env.find(r->name);
    if (it != env.end() && it->second.index_arg) found = &x;
  });
  return found;
}

// ---- expressions -----------------------------------------------------------------------------

// The first read of a data value inside e (to point an error at it), or nullptr.
static const Expr* find_data_read(const Expr& e) {
  if (!e.defined()) return nullptr;
  switch (e.kind()) {
    case ExprKind::Read:
    case ExprKind::ReadConfig:
      return e.type().is_data() ? &e : nullptr;
    case ExprKind::USub:
      return find_data_read(e.as<USubNode>()->arg);
    case ExprKind::BinOp: {
      const Expr* l = find_data_read(e.as<BinOpNode>()->lhs);
      return l ? l : find_data_read(e.as<BinOpNode>()->rhs);
    }
    case ExprKind::Const:
    case ExprKind::Extern:
    case ExprKind::WindowExpr:
    case ExprKind::StrideExpr:
      return nullptr;
  }
  return nullptr;
}

void Checker::expect_index(const Expr& e, const std::string& what) {
  check_value(e);
  const Type& t = e.type();
  if (t.is_scalar() && is_indexable(t.base)) return;
  if (t.is_data()) {
    if (const Expr* d = find_data_read(e)) {
      std::string name = d->is<ReadNode>() ? quoted(d->as<ReadNode>()->name)
                                           : d->as<ReadConfigNode>()->config->name + "." +
                                                 d->as<ReadConfigNode>()->field;
      fail(d->srcinfo(), what + " must be a control value (int, index or size), but " + name +
                             " is data of type " + to_string(d->type().base));
    }
    fail(e.srcinfo(), what + " must be a control value (int, index or size), got data of type " +
                          to_string(t.base));
  }
  fail(e.srcinfo(), what + " must be an int, index or size expression, got " + to_string(t));
}

void Checker::expect_bool(const Expr& e, const std::string& what) {
  check_value(e);
  if (e.type().is_scalar() && e.type().base == ScalarKind::Bool) return;
  fail(e.srcinfo(), what + " must be a bool expression, got " + to_string(e.type()));
}

// The right-hand side of an assignment, reduction or config write: a data scalar, or an
// integer literal (which takes the target's type). `verb` is "assign", "reduce" or "write";
// `target` names what is written ("to 'A'").
//
// Storing a value of another precision converts it to the target's type, as in Exo (whose
// precision analysis checks operators, externs and call arguments, not stores): hardware
// libraries rely on it, e.g. Gemmini's `tmp: f32` then `tmp = src[i, j]` with src of type i8,
// then `dst[i, j] = tmp * scale` into i8. Operands of one operator must agree (check_binop).
namespace {

std::string fmt_literal(double v) {
  if (std::trunc(v) == v && std::fabs(v) < 1e17) return std::to_string(static_cast<int64_t>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  for (int prec = 1; prec <= 17; ++prec) {  // the shortest spelling that reads back as v
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// The value of a literal, or of a negated one.
std::optional<double> literal_value(const Expr& e) {
  if (const ConstNode* c = e.as<ConstNode>())
    return c->type.base == ScalarKind::Bool ? std::nullopt : std::optional<double>(c->val);
  if (const USubNode* u = e.as<USubNode>())
    if (auto v = literal_value(u->arg)) return -*v;
  if (auto v = fold_int_constant(e); v && is_int_literal_expr(e)) return static_cast<double>(*v);
  return std::nullopt;
}

// A subexpression of literal expression `e` whose value leaves 32-bit int (C computes such an
// expression in int), or null.
const ExprNode* int32_overflow_in(const Expr& e) {
  auto v = fold_int_constant(e);
  if (!v || *v < INT32_MIN || *v > INT32_MAX) return e.get();
  if (const USubNode* u = e.as<USubNode>()) return int32_overflow_in(u->arg);
  if (const BinOpNode* b = e.as<BinOpNode>()) {
    if (const ExprNode* l = int32_overflow_in(b->lhs)) return l;
    return int32_overflow_in(b->rhs);
  }
  return nullptr;
}

}  // namespace

// A literal takes the precision it meets: a store's target (`whole`: the literal is the whole
// value stored), or the precision of the operator or extern it is an operand of. There it must
// be representable, or the program would silently compute with another number: an integer
// precision needs an integral literal (`x_ui16 * 0.33333334` would multiply by 0) in the
// target's range for a store (`y_ui8 = 300`) or in 32-bit int range inside integer arithmetic
// (which is computed in 32-bit int, so `x_ui8 * 256` is fine); a float precision needs a literal
// that does not round to infinity (`y_f16 = 70000.0`). R is exact: anything goes.
void Checker::check_literals(const Expr& e, ScalarKind ctx, bool whole) {
  if (std::optional<double> v = literal_value(e)) {
    ScalarKind own = e.type().base;
    ScalarKind k = is_data(own) && own != ScalarKind::R ? own : ctx;
    if (!is_data(k) || k == ScalarKind::R) return;
    std::string lit = "the literal " + fmt_literal(*v);
    if (is_float(k)) {
      if (std::isfinite(*v) && std::isinf(round_to_kind(k, *v)))
        fail(e.srcinfo(), lit + " does not fit precision " + to_string(k) +
                              " (it would round to infinity; the largest finite value is " +
                              (k == ScalarKind::F16    ? "65504"
                               : k == ScalarKind::BF16 ? "3.3895314e+38"
                                                       : "3.4028235e+38") +
                              ")");
      return;
    }
    if (std::trunc(*v) != *v)
      fail(e.srcinfo(), lit + " meets integer precision " + to_string(k) +
                            " here and is not an integer (it would be truncated to " +
                            fmt_literal(std::trunc(*v)) +
                            "); write an integer literal, or compute in a float precision");
    if (e.as<BinOpNode>() && is_int_literal_expr(e))
      if (const ExprNode* n = int32_overflow_in(e))
        fail(n->srcinfo, "this part of the literal expression `" + to_string(e) +
                             "` does not fit 32-bit int, in which C computes it");
    const auto [lo_i, hi_i] = int_precision_limits(whole ? k : ScalarKind::I32);
    const double lo = static_cast<double>(lo_i), hi = static_cast<double>(hi_i);
    if (*v < lo || *v > hi)
      fail(e.srcinfo(), lit + " does not fit " +
                            (whole ? std::string("precision ") + to_string(k)
                                   : std::string("32-bit int, in which ") + to_string(k) +
                                         " arithmetic is computed") +
                            " (range " + fmt_literal(lo) + " to " + fmt_literal(hi) + ")");
    return;
  }
  ScalarKind own = e.type().base;
  ScalarKind inner = is_data(own) && own != ScalarKind::R ? own : ctx;
  if (const USubNode* u = e.as<USubNode>()) return check_literals(u->arg, inner, false);
  if (const BinOpNode* b = e.as<BinOpNode>()) {
    if (!is_data(own)) return;
    check_literals(b->lhs, inner, false);
    check_literals(b->rhs, inner, false);
    return;
  }
  if (const ExternNode* x = e.as<ExternNode>())
    for (const Expr& a : x->args) check_literals(a, inner, false);
}

void Checker::expect_data(const Expr& e, ScalarKind target_type, const std::string& target,
                          const std::string& verb) {
  check_value(e);
  check_literals(e, target_type, true);
  if (is_int_literal_expr(e)) return;
  const Type& t = e.type();
  // A control value stored into integer data (an index found by a search, `result = i`)
  // converts as a literal of that value would: wrapping to the precision, as C converts.
  if (verb == "assign" && is_int_precision(target_type) && t.is_scalar() && is_indexable(t.base))
    return;
  if (!t.is_scalar() || !is_data(t.base))
    fail(e.srcinfo(), "cannot " + verb + " a value of type " + to_string(t) + " " + target + " (" +
                          to_string(target_type) +
                          "): data buffers hold data values or integer literals; control "
                          "values belong in indices and bounds");
}

void Checker::check_value(const Expr& e) {
  if (!e.defined()) fail(cur_, "missing expression");
  switch (e.kind()) {
    case ExprKind::Read:
      check_read(e, Access::Value);
      return;
    case ExprKind::Const:
      return;
    case ExprKind::USub: {
      const USubNode* n = e.as<USubNode>();
      check_value(n->arg);
      ScalarKind k = n->arg.type().base;
      if (k == ScalarKind::Bool || k == ScalarKind::Stride || e.type().base == ScalarKind::Error)
        fail(e.srcinfo(), "cannot negate a value of type " + to_string(n->arg.type()));
      return;
    }
    case ExprKind::BinOp:
      check_binop(e);
      return;
    case ExprKind::Extern: {
      const ExternNode* n = e.as<ExternNode>();
      for (const Expr& a : n->args) check_value(a);
      if (e.type().base != ScalarKind::Error) return;
      std::string why = n->fn->check_args(n->args);
      fail(e.srcinfo(),
           why.empty() ? "the arguments of " + n->fn->name() + "() do not fit it" : why);
    }
    case ExprKind::WindowExpr:
      fail(e.srcinfo(), "a window " + e.as<WindowExprNode>()->name.name() +
                            "[...] with intervals can only be passed to a call or bound by a "
                            "window statement (w = A[i, 0:n])");
    case ExprKind::StrideExpr: {
      const StrideExprNode* n = e.as<StrideExprNode>();
      const VarInfo& v = lookup(n->name, e.srcinfo());
      if (!v.type.is_tensor_or_window())
        fail(e.srcinfo(),
             "stride() needs a tensor or window, but " + quoted(n->name) + " is " + describe(v));
      if (n->dim < 0 || n->dim >= v.type.rank())
        fail(e.srcinfo(), "stride(" + n->name.name() + ", " + std::to_string(n->dim) +
                              "): dimension " + std::to_string(n->dim) + " is out of range; " +
                              quoted(n->name) + " has rank " + std::to_string(v.type.rank()) +
                              " (0 <= d < " + std::to_string(v.type.rank()) + ")");
      return;
    }
    case ExprKind::ReadConfig: {
      const ReadConfigNode* n = e.as<ReadConfigNode>();
      if (!n->config->field(n->field))
        fail(e.srcinfo(), "config '" + n->config->name + "' has no field '" + n->field + "'");
      return;
    }
  }
}

void Checker::check_read(const Expr& e, Access access) {
  const ReadNode* n = e.as<ReadNode>();
  const VarInfo& v = lookup(n->name, e.srcinfo());
  if (n->idx.empty()) {
    if (v.type.is_tensor_or_window()) {
      if (access != Access::WholeBuffer)
        fail(e.srcinfo(), quoted(n->name) + " is " + describe(v) + "; read one element (" +
                              n->name.name() + "[...]) or pass it whole to a call");
      return;
    }
    if (access == Access::Value) check_element_access(n->name, v, /*write=*/false, e.srcinfo());
  } else {
    check_indices(n->name, v, n->idx, e.srcinfo());
    if (access == Access::Value) check_element_access(n->name, v, /*write=*/false, e.srcinfo());
  }
  // An element of an index argument is a control value; the whole buffer keeps its type.
  const bool element = !n->idx.empty() || v.type.is_scalar();
  const ScalarKind expected = v.index_arg && element ? ScalarKind::Int : v.type.base;
  if (e.type().base != expected)
    fail(e.srcinfo(), "this read of " + quoted(n->name) + " has type " + to_string(e.type().base) +
                          " but " + quoted(n->name) + " is " + describe(v) +
                          (v.index_arg && element ? ", whose elements read as int" : "") +
                          " (inconsistent IR)");
}

void Checker::check_indices(const Sym& name, const VarInfo& v, const std::vector<Expr>& idx,
                            const SrcInfo& where) {
  if (!v.type.is_tensor_or_window())
    fail(where, "cannot index " + quoted(name) + ": it is " +
                    (v.type.is_control() ? describe(v) : "a scalar of type " + to_string(v.type)));
  if (static_cast<int>(idx.size()) != v.type.rank())
    fail(where, "wrong number of indices for " + quoted(name) + ": it has rank " +
                    std::to_string(v.type.rank()) + ", got " + indices_word(idx.size()));
  for (const Expr& i : idx) expect_index(i, "index of " + quoted(name));
}

void Checker::check_binop(const Expr& e) {
  const BinOpNode* n = e.as<BinOpNode>();
  check_value(n->lhs);
  check_value(n->rhs);
  ScalarKind l = n->lhs.type().base, r = n->rhs.type().base;
  std::string op = to_string(n->op);
  std::string ls = to_string(n->lhs.type()), rs = to_string(n->rhs.type());

  // Strides are compared for equality (assert stride(A, 1) == 1), nothing else (as Exo).
  if (l == ScalarKind::Stride || r == ScalarKind::Stride) {
    if (n->op != BinOpKind::Eq)
      fail(e.srcinfo(), "cannot apply '" + op + "' to " + ls + " and " + rs +
                            ": stride values can only be compared with '=='");
    bool ok = (l == ScalarKind::Stride || is_indexable(l)) &&
              (r == ScalarKind::Stride || is_indexable(r));
    if (!ok)
      fail(e.srcinfo(), "cannot compare " + ls + " and " + rs +
                            " with '==': a stride compares only with a stride or an int, "
                            "index or size expression");
  }

  // Index arithmetic. Division and remainder need a positive constant divisor to stay
  // quasi-affine. Products of two non-constant index expressions (i * j, N * M) are allowed,
  // unlike Exo: the checker encodes them as nonlinear integer terms, which Z3 accepts.
  bool control = is_indexable(l) && is_indexable(r);
  if (control && (n->op == BinOpKind::Div || n->op == BinOpKind::Mod)) {
    auto c = fold_int_constant(n->rhs);
    if (!c)
      fail(n->rhs.srcinfo(), "'" + op +
                                 "' on control values needs a positive integer "
                                 "constant on the right, got " +
                                 (rs == "index" || rs == "int" ? "an " : "a ") + rs +
                                 " expression");
    if (*c <= 0)
      fail(n->rhs.srcinfo(), "'" + op +
                                 "' on control values needs a positive integer "
                                 "constant on the right, got " +
                                 std::to_string(*c));
  }
  if (is_comparison(n->op) && (is_data(l) || is_data(r)) && e.type().base == ScalarKind::Bool &&
      !in_if_condition_)
    fail(e.srcinfo(), "data values are compared with '" + op +
                          "' only in an if condition (elsewhere use select())");
  if (e.type().base != ScalarKind::Error) return;

  // make() found that the operands do not combine: say why.
  if (is_logical(n->op))
    fail(e.srcinfo(), "'" + op + "' needs bool operands, got " + ls + " and " + rs);
  if (is_comparison(n->op)) {
    if (is_data(l) && is_data(r))
      fail(e.srcinfo(), "cannot compare " + ls + " and " + rs + " with '" + op +
                            "': mixed precisions (R unifies with any precision)");
    if (is_data(l) || is_data(r))
      fail(e.srcinfo(), "cannot compare " + ls + " and " + rs + " with '" + op +
                            "': data and control values do not mix (an integer data value is "
                            "a control value only when read from an index argument)");
    fail(e.srcinfo(), "cannot compare " + ls + " and " + rs + " with '" + op + "'");
  }
  std::string what;
  switch (n->op) {
    case BinOpKind::Add:
      what = "cannot add " + ls + " and " + rs;
      break;
    case BinOpKind::Sub:
      what = "cannot subtract " + rs + " from " + ls;
      break;
    case BinOpKind::Mul:
      what = "cannot multiply " + ls + " and " + rs;
      break;
    case BinOpKind::Div:
      what = "cannot divide " + ls + " by " + rs;
      break;
    case BinOpKind::Mod:
      what = "cannot apply '%' to " + ls + " and " + rs;
      break;
    case BinOpKind::Lt:
    case BinOpKind::Le:
    case BinOpKind::Gt:
    case BinOpKind::Ge:
    case BinOpKind::Eq:
    case BinOpKind::And:
    case BinOpKind::Or:
      what = "cannot apply '" + op + "' to " + ls + " and " + rs;
      break;
  }
  if (l == ScalarKind::Bool || r == ScalarKind::Bool)
    fail(e.srcinfo(), what + ": arithmetic is not defined on bool values");
  if (is_data(l) && is_data(r)) {
    if (n->op == BinOpKind::Mod)
      fail(e.srcinfo(), what + ": '%' is defined only on control values");
    fail(e.srcinfo(), what + ": mixed precisions (R unifies with any precision)");
  }
  if (is_data(l) != is_data(r))
    fail(e.srcinfo(), what +
                          ": data and control values do not mix (only integer literals "
                          "may appear in data expressions)");
  fail(e.srcinfo(), what);
}

void Checker::check_window(const Expr& e, bool of_index_arg) {
  const WindowExprNode* n = e.as<WindowExprNode>();
  const VarInfo& v = lookup(n->name, e.srcinfo());
  if (!v.type.is_tensor_or_window())
    fail(e.srcinfo(),
         "cannot take a window of " + quoted(n->name) + ": it is " +
             (v.type.is_control() ? describe(v) : "a scalar of type " + to_string(v.type)) +
             ", not a tensor");
  if (v.index_arg && !of_index_arg)
    fail(e.srcinfo(), "cannot take a window of " + quoted(n->name) + ": it is " + describe(v) +
                          ", whose elements are control values; read them one by one (or pass "
                          "a window of it to an index parameter of a call)");
  if (static_cast<int>(n->idx.size()) != v.type.rank())
    fail(e.srcinfo(), "wrong number of indices for window of " + quoted(n->name) +
                          ": it has rank " + std::to_string(v.type.rank()) + ", got " +
                          indices_word(n->idx.size()));
  for (const WAccess& w : n->idx) {
    if (!w.lo.defined() || (w.is_interval && !w.hi.defined()))
      fail(e.srcinfo(), "window of " + quoted(n->name) + " has a missing bound");
    expect_index(w.lo, (w.is_interval ? "window bound of " : "index of ") + quoted(n->name));
    if (w.is_interval) expect_index(w.hi, "window bound of " + quoted(n->name));
  }
  if (e.type().base != v.type.base)
    fail(e.srcinfo(), "this window of " + quoted(n->name) + " has element type " +
                          to_string(e.type().base) + " but " + quoted(n->name) + " is " +
                          describe(v) + " (inconsistent IR)");
}

// ---- statements ------------------------------------------------------------------------------

void Checker::check_block(const Block& b) {
  size_t mark = declared_.size();
  for (const Stmt& s : b) check_stmt(s);
  pop_scope(mark);
}

void Checker::check_write(const char* verb, const Sym& name, ScalarKind recorded,
                          const std::vector<Expr>& idx, const Expr& rhs, const SrcInfo& where) {
  const VarInfo& v = lookup(name, where);
  if (!v.type.is_data())
    fail(where, "cannot write to " + quoted(name) + ": it is " + describe(v) +
                    "; only data buffers can be written");
  if (v.index_arg)
    fail(where, "cannot write to " + quoted(name) + ": it is " + describe(v) +
                    ", which is read-only (its declared value range is checked once, where the "
                    "proc is entered)");
  if (!idx.empty() || v.type.is_tensor_or_window()) check_indices(name, v, idx, where);
  check_element_access(name, v, /*write=*/true, where);
  if (recorded != v.type.base)
    fail(where, std::string("this ") + verb + " records element type " + to_string(recorded) +
                    " but " + quoted(name) + " is " + describe(v) + " (inconsistent IR)");
  expect_data(rhs, v.type.base,
              std::string(verb == std::string("assign") ? "to " : "into ") + quoted(name), verb);
}

void Checker::check_config_write(const WriteConfigNode* n, const Stmt& s) {
  const ConfigField* f = n->config->field(n->field);
  std::string field = n->config->name + "." + n->field;
  if (!f) fail(s.srcinfo(), "config '" + n->config->name + "' has no field '" + n->field + "'");
  const Expr& rhs = n->rhs;
  ScalarKind ft = f->type;
  if (is_data(ft)) {
    expect_data(rhs, ft, "to " + field, "write");
    return;
  }
  check_value(rhs);
  const Type& t = rhs.type();
  bool ok = false;
  std::string expected;
  if (is_indexable(ft)) {
    ok = t.is_scalar() && is_indexable(t.base);
    expected = "an int, index or size expression";
  } else if (ft == ScalarKind::Bool) {
    ok = t.is_scalar() && t.base == ScalarKind::Bool;
    expected = "a bool expression";
  } else if (ft == ScalarKind::Stride) {
    ok = t.is_scalar() && (t.base == ScalarKind::Stride || t.base == ScalarKind::Int);
    expected = "a stride expression (stride(A, d))";
  }
  if (!ok)
    fail(rhs.srcinfo(), field + " is a control field of type " + to_string(ft) + "; expected " +
                            expected + ", got " + to_string(t));
}

void Checker::check_stmt(const Stmt& s) {
  if (!s.defined()) fail(cur_, "missing statement");
  cur_ = s.srcinfo();
  switch (s.kind()) {
    case StmtKind::Assign: {
      const AssignNode* n = s.as<AssignNode>();
      check_write("assign", n->name, n->type, n->idx, n->rhs, s.srcinfo());
      return;
    }
    case StmtKind::Reduce: {
      const ReduceNode* n = s.as<ReduceNode>();
      check_write("reduce", n->name, n->type, n->idx, n->rhs, s.srcinfo());
      return;
    }
    case StmtKind::WriteConfig:
      check_config_write(s.as<WriteConfigNode>(), s);
      return;
    case StmtKind::Pass:
      return;
    case StmtKind::If: {
      const IfNode* n = s.as<IfNode>();
      in_if_condition_ = true;
      expect_bool(n->cond, "if condition");
      in_if_condition_ = false;
      check_block(n->body);
      check_block(n->orelse);
      return;
    }
    case StmtKind::For: {
      const ForNode* n = s.as<ForNode>();
      expect_index(n->lo, "loop lower bound");
      expect_index(n->hi, "loop upper bound");
      size_t mark = declared_.size();
      declare(n->iter, VarInfo{Type(ScalarKind::Index), VarKind::LoopIter, ""}, s.srcinfo());
      check_block(n->body);
      pop_scope(mark);
      return;
    }
    case StmtKind::Alloc: {
      const AllocNode* n = s.as<AllocNode>();
      check_data_type(n->type, n->name, s.srcinfo());
      memory_of(n->mem, n->name, s.srcinfo());
      if (std::string why = static_alloc_problem(*n); !why.empty()) fail(s.srcinfo(), why);
      declare(n->name, VarInfo{n->type, VarKind::Alloc, n->mem}, s.srcinfo());
      return;
    }
    case StmtKind::Call:
      check_call(s.as<CallNode>(), s);
      return;
    case StmtKind::WindowStmt: {
      const WindowStmtNode* n = s.as<WindowStmtNode>();
      const WindowExprNode* w = n->rhs.as<WindowExprNode>();
      check_window(n->rhs);
      bool any_interval = false;
      for (const WAccess& a : w->idx) any_interval |= a.is_interval;
      if (!any_interval)
        fail(n->rhs.srcinfo(), "window statement " + quoted(n->name) +
                                   " needs at least one interval (lo:hi); " + w->name.name() +
                                   "[...] with only points is a single element");
      std::string mem = lookup(w->name, n->rhs.srcinfo()).mem;
      declare(n->name, VarInfo{n->rhs.type(), VarKind::Window, mem}, s.srcinfo());
      return;
    }
  }
}

// ---- procs -----------------------------------------------------------------------------------

void Checker::check_proc() {
  cur_ = proc_.srcinfo;
  if (proc_.name.empty()) fail(proc_.srcinfo, "a proc needs a name");
  if (proc_.instr)
    if (std::string why = instr_template_problem(proc_, proc_.instr->c_instr); !why.empty())
      fail(proc_.srcinfo, "@instr template of '" + proc_.name + "': " + why);
  // Every argument is in scope for every shape, so a shape may name any size argument.
  for (const FnArg& a : proc_.args) {
    VarInfo v{a.type, VarKind::Arg, "", a.is_index_arg()};
    if (a.type.is_data()) v.mem = a.mem.empty() ? "DRAM" : a.mem;
    declare(a.name, std::move(v), a.srcinfo);
  }
  for (const FnArg& a : proc_.args) {
    cur_ = a.srcinfo;
    if (a.type.base == ScalarKind::Error) fail(a.srcinfo, quoted(a.name) + " has no valid type");
    if (!a.type.is_data()) {
      if (a.type.is_tensor_or_window())
        fail(a.srcinfo, quoted(a.name) +
                            ": a tensor or window must have a data element type, "
                            "not " +
                            std::string(to_string(a.type.base)));
      continue;
    }
    check_data_type(a.type, a.name, a.srcinfo);
    memory_of(env_.at(a.name).mem, a.name, a.srcinfo);
    if (a.is_index_arg()) check_index_arg(a);
  }
  for (const Expr& p : proc_.preds) {
    cur_ = p.defined() ? p.srcinfo() : proc_.srcinfo;
    expect_bool(p, "assert condition");
    if (const Expr* r = find_index_arg_read(p, env_))
      fail(r->srcinfo(), "an assert states facts about control arguments; " +
                             quoted(r->as<ReadNode>()->name) +
                             " is an index argument, whose values are checked against its "
                             "declared range instead");
  }
  check_block(proc_.body);
  check_config_writes_loop_invariant(proc_);
  if (cuda_) check_cuda_structure(proc_, false);
}

}  // namespace typecheck_detail

void typecheck(const Proc& p, const TypecheckOptions& opts) {
  if (!p.defined()) throw TypeError({}, "typecheck: undefined proc");
  typecheck_detail::Checker(*p.get(), opts.memory_access, opts.cuda_structure).check_proc();
}

std::string cuda_structure_problem(const Proc& p, bool host_memory) {
  if (!p.defined()) return "";
  try {
    typecheck_detail::check_cuda_structure(*p.get(), host_memory);
  } catch (const TypeError& e) {
    return e.what();
  }
  return "";
}

namespace {

bool is_constant_expr(const Expr& e) {
  if (e.is<ConstNode>()) return true;
  if (const USubNode* u = e.as<USubNode>()) return is_constant_expr(u->arg);
  if (const BinOpNode* b = e.as<BinOpNode>())
    return is_constant_expr(b->lhs) && is_constant_expr(b->rhs);
  return false;
}

bool has_static_storage(const AllocNode& a) {
  const Memory* m = find_memory(a.mem);
  return m && m->static_storage() && !a.type.shape.empty();
}

std::optional<std::string> shared_alloc_in_block(const Block& b, std::set<const ProcNode*>& seen);

std::optional<std::string> shared_alloc_in_stmt(const Stmt& s, std::set<const ProcNode*>& seen) {
  switch (s.kind()) {
    case StmtKind::Alloc: {
      const AllocNode* a = s.as<AllocNode>();
      if (has_static_storage(*a)) return "'" + a->name.name() + "' (" + a->mem + ")";
      return std::nullopt;
    }
    case StmtKind::If: {
      const IfNode* n = s.as<IfNode>();
      if (auto r = shared_alloc_in_block(n->body, seen)) return r;
      return shared_alloc_in_block(n->orelse, seen);
    }
    case StmtKind::For:
      return shared_alloc_in_block(s.as<ForNode>()->body, seen);
    case StmtKind::Call: {
      const CallNode* c = s.as<CallNode>();
      if (!c->proc || c->proc->instr || !seen.insert(c->proc.get()).second) return std::nullopt;
      if (auto r = shared_alloc_in_block(c->proc->body, seen))
        return *r + (r->find(" in proc '") == std::string::npos ? " in proc '" + c->proc->name + "'"
                                                                : "");
      return std::nullopt;
    }
    case StmtKind::Assign:
    case StmtKind::Reduce:
    case StmtKind::WriteConfig:
    case StmtKind::Pass:
    case StmtKind::WindowStmt:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> shared_alloc_in_block(const Block& b, std::set<const ProcNode*>& seen) {
  for (const Stmt& s : b)
    if (auto r = shared_alloc_in_stmt(s, seen)) return r;
  return std::nullopt;
}

}  // namespace

std::string static_alloc_problem(const AllocNode& a) {
  if (!has_static_storage(a)) return "";
  for (const Expr& e : a.type.shape)
    if (!is_constant_expr(e))
      return "'" + a.name.name() + "' is allocated in " + a.mem +
             ", which gives it static storage, so its shape must be constant; dimension `" +
             to_string(e) + "` is not (use DRAM or DRAM_STACK for a size-dependent buffer)";
  return "";
}

std::optional<SharedAlloc> shared_alloc_in(const Block& b) {
  std::set<const ProcNode*> seen;
  for (const Stmt& s : b)
    if (auto r = shared_alloc_in_stmt(s, seen)) return SharedAlloc{s, *r};
  return std::nullopt;
}

std::string instr_template_problem(const ProcNode& p, const std::string& c_instr) {
  auto arg_named = [&](const std::string& n) -> const FnArg* {
    for (const FnArg& a : p.args)
      if (a.name.name() == n) return &a;
    return nullptr;
  };
  auto arg_list = [&]() {
    std::string out;
    for (const FnArg& a : p.args) out += (out.empty() ? "" : ", ") + a.name.name();
    return out.empty() ? std::string("(none)") : out;
  };
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  int depth = 0;
  size_t first_open = std::string::npos;
  for (size_t i = 0; i < c_instr.size(); ++i) {
    char ch = c_instr[i];
    if (c_instr.compare(i, 2, "//") == 0) {  // comments are text too
      i = std::min(c_instr.find('\n', i), c_instr.size());
      continue;
    }
    if (c_instr.compare(i, 2, "/*") == 0) {
      size_t end = c_instr.find("*/", i + 2);
      if (end == std::string::npos) return "an unterminated comment at offset " + std::to_string(i);
      i = end + 1;
      continue;
    }
    if (ch == '"' || ch == '\'') {  // a C string or character literal: braces in it are text
      size_t j = i + 1;
      while (j < c_instr.size() && c_instr[j] != ch) j += c_instr[j] == '\\' ? 2 : 1;
      if (j >= c_instr.size())
        return std::string("an unterminated ") + (ch == '"' ? "string" : "character") +
               " literal at offset " + std::to_string(i);
      i = j;
      continue;
    }
    if (ch == '}') {
      if (--depth < 0) return "an unmatched '}' at offset " + std::to_string(i);
      continue;
    }
    if (ch != '{') continue;
    size_t j = i + 1;
    while (j < c_instr.size() && ident(c_instr[j])) ++j;
    if (j > i + 1 && j < c_instr.size() && c_instr[j] == '}') {  // a hole
      const std::string hole = c_instr.substr(i + 1, j - i - 1);
      i = j;
      if (arg_named(hole)) continue;
      // {x_data}, and for buffers {x_base} and {x_offset} (docs/hardware-libraries.md).
      bool known = false;
      for (const std::string suffix : {"_data", "_base", "_offset"}) {
        if (hole.size() <= suffix.size() ||
            hole.compare(hole.size() - suffix.size(), suffix.size(), suffix) != 0)
          continue;
        const std::string base = hole.substr(0, hole.size() - suffix.size());
        const FnArg* a = arg_named(base);
        if (a == nullptr) continue;
        if (suffix == "_data" ? !a->type.is_control() : a->type.is_tensor_or_window()) {
          known = true;
          break;
        }
        return "the template hole {" + hole + "} asks for the " +
               (suffix == "_data" ? "data" : suffix.substr(1)) + " of '" + base + "', which is " +
               (a->type.is_control() ? "a control value" : "a scalar") + " (" + to_string(a->type) +
               "), not a buffer";
      }
      if (known) continue;
      // {x_strideK}: the stride of dimension K of buffer argument x, in elements.
      if (size_t at = hole.rfind("_stride");
          at != std::string::npos && at > 0 && at + 7 < hole.size() &&
          std::all_of(hole.begin() + static_cast<long>(at) + 7, hole.end(),
                      [](char d) { return std::isdigit(static_cast<unsigned char>(d)); })) {
        const FnArg* a = arg_named(hole.substr(0, at));
        const size_t dim = std::stoul(hole.substr(at + 7, 4));
        if (a && a->type.is_tensor_or_window() && dim < a->type.shape.size()) continue;
        if (a)
          return "the template hole {" + hole + "} asks for stride " + std::to_string(dim) +
                 " of '" + a->name.name() + "', which has " + std::to_string(a->type.shape.size()) +
                 " dimensions";
      }
      return "the template hole {" + hole + "} names no argument of '" + p.name +
             "' (arguments: " + arg_list() +
             "; use {x}, {x_data}, {x_stride0}, {x_base} or {x_offset})";
    }
    if (depth++ == 0) first_open = i;
  }
  if (depth > 0)
    return "the '{' at offset " + std::to_string(first_open) +
           " is never closed (a hole is {name}; C blocks need both braces)";
  return "";
}

void typecheck(const Module& m) {
  for (const Proc& p : m.procs) typecheck(p);
}

}  // namespace exocpp
