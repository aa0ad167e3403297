// C emission of expressions: control arithmetic (floor division as the interpreter defines it),
// data arithmetic in the buffer's precision, externs, config reads, and buffer addressing
// through each memory's window().
#include <algorithm>
#include <cmath>

#include "codegen/c_prelude.h"
#include "codegen/c_proc.h"
#include "codegen/c_types.h"
#include "core/externs.h"
#include "core/interpreter.h"
#include "core/printer.h"

namespace exocpp::codegen {
namespace {

constexpr int kAtom = 100, kPostfix = 16, kUnary = 14, kMul = 13, kAdd = 12, kRel = 10, kEq = 9,
              kAnd = 5, kOr = 4;

int prec_of(BinOpKind op) {
  switch (op) {
    case BinOpKind::Mul:
    case BinOpKind::Div:
    case BinOpKind::Mod:
      return kMul;
    case BinOpKind::Add:
    case BinOpKind::Sub:
      return kAdd;
    case BinOpKind::Lt:
    case BinOpKind::Le:
    case BinOpKind::Gt:
    case BinOpKind::Ge:
      return kRel;
    case BinOpKind::Eq:
      return kEq;
    case BinOpKind::And:
      return kAnd;
    case BinOpKind::Or:
      return kOr;
  }
  return kOr;
}

const char* c_op(BinOpKind op) {
  switch (op) {
    case BinOpKind::And:
      return "&&";
    case BinOpKind::Or:
      return "||";
    default:
      return to_string(op);
  }
}

bool is_atom(const std::string& s) {
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '[' &&
        c != ']')
      return false;
  return !s.empty();
}

// `s` as a factor of a product.
std::string factor(const std::string& s) { return is_atom(s) ? s : "(" + s + ")"; }

}  // namespace

BufInfo& ProcEmitter::buf(const Sym& s, const SrcInfo& where) {
  auto it = bufs_.find(s.id());
  if (it == bufs_.end())
    throw CodegenError(
        where, "'" + s.name() + "' is not a buffer at this point of proc '" + proc_.name() + "'");
  return it->second;
}

std::string ProcEmitter::sub(const Expr& e, int min_prec) {
  CExpr c = expr(e);
  return c.prec < min_prec ? "(" + c.text + ")" : c.text;
}

bool ProcEmitter::nonneg(const Expr& e) const {
  if (const ConstNode* c = e.as<ConstNode>()) return c->val >= 0;
  if (const ReadNode* r = e.as<ReadNode>())
    return r->idx.empty() && nonneg_.count(r->name.id()) > 0;
  if (const BinOpNode* b = e.as<BinOpNode>()) {
    const ConstNode* c = b->rhs.as<ConstNode>();
    switch (b->op) {
      case BinOpKind::Add:
      case BinOpKind::Mul:
      case BinOpKind::Div:
        return nonneg(b->lhs) && nonneg(b->rhs);
      case BinOpKind::Mod:
        return c && c->val > 0;  // floor modulo takes the divisor's sign
      default:
        return false;
    }
  }
  return false;
}

ScalarKind ProcEmitter::data_kind(const Expr& e) const {
  ScalarKind k = data_kind_in(e, data_ctx_);
  return k == ScalarKind::R ? ScalarKind::F32 : k;
}

CExpr ProcEmitter::data(const Expr& e) {
  if (!is_data(e.type().base)) {
    // An integer literal (expression) meeting float data: the value of the context's type it
    // rounds to, once (`x_f16 + 2049` adds the f16 value 2048, as the interpreter does, where
    // C would add the int in float; a bf16 literal is not rounded to float first). A literal
    // the type holds exactly, and any in integer data, stays a C int.
    if (is_float(data_ctx_)) {
      if (const ConstNode* c = e.as<ConstNode>()) {
        const double v = round_to_kind(data_ctx_, c->val);
        if (v == c->val) return expr(e);
        std::string s = float_literal(v, data_ctx_);
        return {s, is_atom(s) ? kAtom : kUnary};
      }
      return {from_double("(double)(" + expr(e).text + ")", data_ctx_), kPostfix};
    }
  }
  return expr(e);
}

std::string ProcEmitter::data_sub(const Expr& e, int min_prec) {
  CExpr c = data(e);
  return c.prec < min_prec ? "(" + c.text + ")" : c.text;
}

CExpr ProcEmitter::expr(const Expr& e) {
  CExpr c = stored_expr(e);
  // bf16 values are computed on as floats (c_types.h): a read converts what is stored.
  if (e.type().base == ScalarKind::BF16 && (e.is<ReadNode>() || e.is<ReadConfigNode>()))
    return {"exo_bf16_to_float(" + c.text + ")", kPostfix};
  return c;
}

CExpr ProcEmitter::stored_expr(const Expr& e) {
  const ScalarKind t = e.type().base;
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* n = e.as<ReadNode>();
      if (!n->idx.empty()) return {access(n->name, n->idx, e.srcinfo(), true), kPostfix};
      auto it = bufs_.find(n->name.id());
      if (it == bufs_.end()) return {name_of(n->name, e.srcinfo()), kAtom};
      const BufInfo& b = it->second;
      if (b.kind == BufInfo::Kind::ScalarArg || b.kind == BufInfo::Kind::ScalarLocal)
        return {access(n->name, {}, e.srcinfo(), true),
                b.kind == BufInfo::Kind::ScalarArg ? kUnary : kAtom};
      throw CodegenError(e.srcinfo(),
                         "the whole buffer '" + n->name.name() +
                             "' cannot be used as a value; index it or pass it to a call");
    }
    case ExprKind::Const: {
      const ConstNode* c = e.as<ConstNode>();
      if (t == ScalarKind::Bool) return {c->val != 0 ? "true" : "false", kAtom};
      if (!is_data(t)) {
        std::string s = std::to_string(c->int_val());
        return {s, c->int_val() < 0 ? kUnary : kAtom};
      }
      ScalarKind k = t == ScalarKind::R ? data_ctx_ : t;
      if (!is_float(k)) {
        double iv = std::trunc(c->val);
        if (iv == c->val && std::fabs(iv) < 2147483648.0) {
          std::string s = std::to_string(static_cast<int64_t>(iv));
          return {s, iv < 0 ? kUnary : kAtom};
        }
      }
      std::string s = float_literal(c->val, k);
      return {s, is_atom(s) ? kAtom : kUnary};
    }
    case ExprKind::USub: {
      if (!is_data(t)) {
        std::string a = sub(e.as<USubNode>()->arg, kUnary);
        if (!a.empty() && a[0] == '-') a = "(" + a + ")";  // never "--x"
        return {"-" + a, kUnary};
      }
      const ScalarKind k = data_kind(e);
      ScalarKind saved = data_ctx_;
      data_ctx_ = k;
      if (!is_float(k)) {
        // Integer data: -INT32_MIN wraps, as the interpreter computes it.
        std::string a = data(e.as<USubNode>()->arg).text;
        data_ctx_ = saved;
        return {int_neg(a, g_.helpers), kPostfix};
      }
      std::string a = data_sub(e.as<USubNode>()->arg, kUnary);
      data_ctx_ = saved;
      if (!a.empty() && a[0] == '-') a = "(" + a + ")";  // never "--x"
      return {"-" + a, kUnary};
    }
    case ExprKind::BinOp:
      return binop(e.as<BinOpNode>(), e);
    case ExprKind::Extern: {
      const ExternNode* n = e.as<ExternNode>();
      const ScalarKind k = data_kind(e);
      ScalarKind saved = data_ctx_;
      data_ctx_ = k;
      std::vector<std::string> args;
      for (const Expr& a : n->args) args.push_back(data(a).text);
      data_ctx_ = saved;
      if (k == ScalarKind::BF16 || !is_float(k) || !n->fn->compiles_exactly_in(k)) {
        // The interpreter computes an extern exactly (in double) and rounds the result once to
        // its precision (abs(INT32_MIN) wraps). Where the function's own C in that precision
        // would round otherwise (sinf, an f16 sin left in double, sigmoid's float steps), the C
        // does the same: the f64 function on the arguments as doubles, then one conversion.
        for (std::string& a : args) a = "(double)(" + a + ")";
        g_.add(n->fn->c_global(ScalarKind::F64));
        const std::string d = n->fn->compile(args, ScalarKind::F64);
        if (is_float(k)) return {from_double(d, k), kPostfix};
        return {int_conversion(d, ScalarKind::F64, k, g_.helpers), kPostfix};
      }
      g_.add(n->fn->c_global(k));
      std::string s = n->fn->compile(args, k);
      return {s, is_atom(s) ? kAtom : kPostfix};
    }
    case ExprKind::WindowExpr:
      throw CodegenError(e.srcinfo(),
                         "a window can only be passed to a call or bound by a window statement");
    case ExprKind::StrideExpr: {
      const StrideExprNode* n = e.as<StrideExprNode>();
      BufInfo& b = buf(n->name, e.srcinfo());
      if (n->dim < 0 || n->dim >= b.rank())
        throw CodegenError(e.srcinfo(), "stride(" + n->name.name() + ", " + std::to_string(n->dim) +
                                            "): '" + n->name.name() + "' has rank " +
                                            std::to_string(b.rank()));
      std::string s = strides(b)[static_cast<size_t>(n->dim)];
      return {s, is_atom(s) ? kAtom : b.kind == BufInfo::Kind::Window ? kPostfix : kMul};
    }
    case ExprKind::ReadConfig: {
      const ReadConfigNode* n = e.as<ReadConfigNode>();
      uses_ctx_ = true;
      return {"ctx->" + n->config->name + "." + n->field, kPostfix};
    }
  }
  throw InternalError("unknown expression kind");
}

CExpr ProcEmitter::binop(const BinOpNode* b, const Expr& e) {
  const int p = prec_of(b->op);
  const ScalarKind t = e.type().base;
  if (is_comparison(b->op) && (b->lhs.type().is_data() || b->rhs.type().is_data())) {
    // Data compare in their common precision (R as f32), literals rounded to it, as the
    // interpreter compares; C's float comparisons are IEEE's (a NaN is unordered).
    ScalarKind k = data_operand_type(b->lhs, b->rhs);
    ScalarKind saved = data_ctx_;
    data_ctx_ = k == ScalarKind::R ? ScalarKind::F32 : k;
    std::string s = data_sub(b->lhs, p + 1) + " " + c_op(b->op) + " " + data_sub(b->rhs, p + 1);
    data_ctx_ = saved;
    return {s, p};
  }
  if (is_comparison(b->op) || is_logical(b->op)) {
    ScalarKind saved = data_ctx_;
    ScalarKind lt = b->lhs.type().base, rt = b->rhs.type().base;
    if (is_data(lt) && lt != ScalarKind::R)
      data_ctx_ = lt;
    else if (is_data(rt) && rt != ScalarKind::R)
      data_ctx_ = rt;
    else if (is_data(lt) || is_data(rt))
      data_ctx_ = ScalarKind::F32;
    // `a && b || c` is parenthesized: compilers warn on it (-Wparentheses).
    int lp = b->op == BinOpKind::Or ? kAnd + 1 : p;
    std::string s = sub(b->lhs, lp) + " " + c_op(b->op) + " " + sub(b->rhs, std::max(lp, p + 1));
    data_ctx_ = saved;
    return {s, p};
  }
  if (!is_data(t)) {
    if (b->op == BinOpKind::Div || b->op == BinOpKind::Mod) {
      const ConstNode* c = b->rhs.as<ConstNode>();
      if (c && c->val > 0 && nonneg(b->lhs))
        return {sub(b->lhs, p) + " " + c_op(b->op) + " " + sub(b->rhs, p + 1), p};
      bool div = b->op == BinOpKind::Div;
      (div ? g_.floor_div : g_.floor_mod) = true;
      return {std::string(div ? "exo_floor_div(" : "exo_floor_mod(") + expr(b->lhs).text + ", " +
                  expr(b->rhs).text + ")",
              kPostfix};
    }
    return {sub(b->lhs, p) + " " + c_op(b->op) + " " + sub(b->rhs, p + 1), p};
  }
  // Data arithmetic, in the precision the interpreter computes it in: the expression's own
  // (R as f32), or its context's when it is literal-only (data_kind_in).
  const ScalarKind k = data_kind(e);
  ScalarKind saved = data_ctx_;
  data_ctx_ = k;
  if (!is_float(k)) {
    // Integer data: promoted to int32_t and wrapped, through the prelude's helpers (C's own
    // `+ - * /` overflow into undefined behaviour, and INT32_MIN / -1 traps).
    for (const Expr* o : {&b->lhs, &b->rhs})
      if (is_float(data_kind(*o)) && !o->is<ConstNode>())
        throw CodegenError(o->srcinfo(), std::string("the ") + to_string(o->type().base) +
                                             " value `" + to_string(*o) + "` is an operand of " +
                                             to_string(k) +
                                             " arithmetic; set its precision (set_precision) to " +
                                             to_string(k) + " first");
    CExpr out = {int_binop(b->op, data(b->lhs).text, data(b->rhs).text, g_.helpers), kPostfix};
    data_ctx_ = saved;
    return out;
  }
  // The type checker allows `%` only on control values.
  CExpr out = {data_sub(b->lhs, p) + " " + c_op(b->op) + " " + data_sub(b->rhs, p + 1), p};
  data_ctx_ = saved;
  // Half precision rounds after every operation, as the interpreter does (C would keep the
  // intermediate in float).
  if (k == ScalarKind::F16) return {"(exo_f16)" + factor(out.text), kUnary};
  if (k == ScalarKind::BF16) return {"exo_bf16_round(" + out.text + ")", kPostfix};
  return out;
}

// ---- buffers ---------------------------------------------------------------------------------

std::string ProcEmitter::base_ptr(const BufInfo& b) const {
  return b.kind == BufInfo::Kind::Window ? b.cname + ".data" : b.cname;
}

std::vector<std::string> ProcEmitter::strides(const BufInfo& b) const {
  std::vector<std::string> out(b.shape.size());
  if (b.kind == BufInfo::Kind::Window) {
    for (size_t d = 0; d < out.size(); ++d) {
      auto fixed = b.asserted_strides.find(static_cast<int>(d));
      if (fixed == b.asserted_strides.end())
        out[d] = b.cname + ".strides[" + std::to_string(d) + "]";
      else if (fixed->second < 0)
        out[d] = "(" + std::to_string(fixed->second) + ")";
      else
        out[d] = std::to_string(fixed->second);
    }
    return out;
  }
  std::string acc;
  for (size_t d = out.size(); d-- > 0;) {
    out[d] = acc.empty() ? "1" : acc;
    acc = acc.empty() ? b.shape[d] : factor(b.shape[d]) + " * " + factor(acc);
  }
  return out;
}

std::string ProcEmitter::access_strs(const BufInfo& b, const std::vector<std::string>& idx,
                                     const SrcInfo& where) {
  if (b.kind == BufInfo::Kind::ScalarArg) return "*" + b.cname;
  if (b.kind == BufInfo::Kind::ScalarLocal) return b.cname;
  return b.memory->window(c_type(b.elem), base_ptr(b), idx, strides(b), where);
}

std::string ProcEmitter::access(const Sym& name, const std::vector<Expr>& all_idx,
                                const SrcInfo& where, bool plain) {
  BufInfo& b = buf(name, where);
  // A distributed buffer's leading indices name this thread's slice, which is all it holds.
  const std::vector<Expr> idx(
      all_idx.begin() + static_cast<std::ptrdiff_t>(
                            std::min<size_t>(all_idx.size(), static_cast<size_t>(b.distributed))),
      all_idx.end());
  if (plain && !b.memory->can_read())
    throw CodegenError(where, "'" + name.name() + "' lives in memory " + b.mem +
                                  ", which plain code cannot read or write; access it through "
                                  "instructions (replace this statement with an @instr proc)");
  if (static_cast<int>(idx.size()) != b.rank() &&
      !(idx.empty() &&
        (b.kind == BufInfo::Kind::ScalarArg || b.kind == BufInfo::Kind::ScalarLocal)))
    throw CodegenError(where, "'" + name.name() + "' has rank " + std::to_string(b.rank()) +
                                  " but is indexed with " + std::to_string(idx.size()) +
                                  " indices");
  std::vector<std::string> is;
  for (const Expr& i : idx) is.push_back(expr(i).text);
  return access_strs(b, is, where);
}

ProcEmitter::WindowParts ProcEmitter::window_parts(const Expr& e) {
  WindowParts w;
  std::vector<std::string> origin;
  if (const WindowExprNode* n = e.as<WindowExprNode>()) {
    BufInfo& b = buf(n->name, e.srcinfo());
    const size_t skip = static_cast<size_t>(b.distributed);  // this thread's slice
    if (n->idx.size() != skip + static_cast<size_t>(b.rank()))
      throw CodegenError(e.srcinfo(), "window of '" + n->name.name() + "' with " +
                                          std::to_string(n->idx.size()) +
                                          " indices, but it has rank " + std::to_string(b.rank()));
    std::vector<std::string> st = strides(b);
    for (size_t d = skip; d < n->idx.size(); ++d) {
      origin.push_back(expr(n->idx[d].lo).text);
      if (n->idx[d].is_interval) w.strides.push_back(st[d - skip]);
    }
    w.buf = &b;
  } else if (const ReadNode* r = e.as<ReadNode>(); r && r->idx.empty()) {
    BufInfo& b = buf(r->name, e.srcinfo());
    origin.assign(static_cast<size_t>(b.rank()), "0");
    w.strides = strides(b);
    w.buf = &b;
  } else {
    throw CodegenError(e.srcinfo(), "expected a buffer or a window of one here");
  }
  w.rank = static_cast<int>(w.strides.size());
  w.origin = access_strs(*w.buf, origin, e.srcinfo());
  if (w.buf->kind != BufInfo::Kind::ScalarArg && w.buf->kind != BufInfo::Kind::ScalarLocal) {
    w.base = base_ptr(*w.buf);
    w.offset = linear_offset(origin, strides(*w.buf));
  }
  return w;
}

std::string ProcEmitter::window_struct(const WindowParts& w, bool const_data,
                                       const SrcInfo& where) {
  if (!w.buf->memory->addressable())
    throw CodegenError(where, "'" + w.buf->cname + "' lives in memory " + w.buf->mem +
                                  ", which cannot be addressed through a window; pass it to an "
                                  "instruction whose template uses {name_data}");
  g_.windows.insert(
      {w.rank, w.buf->elem == ScalarKind::R ? ScalarKind::F32 : w.buf->elem, const_data});
  std::string s =
      "(" + window_struct_name(w.rank, w.buf->elem, const_data) + "){ &" + w.origin + ", { ";
  for (size_t d = 0; d < w.strides.size(); ++d) s += (d ? ", " : "") + w.strides[d];
  return s + " } }";
}

}  // namespace exocpp::codegen
