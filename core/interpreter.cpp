// The reference interpreter's evaluator: argument binding and checks, statements, control and
// data expressions, windows, calls and configs. Semantics are documented in interpreter.h.
#include "core/interpreter.h"

#include <cmath>
#include <cstdio>
#include <deque>

#include "core/externs.h"
#include "core/printer.h"

namespace exocpp {
namespace {

[[noreturn]] void fail(const SrcInfo& where, std::string reason) {
  throw InterpError(where, std::move(reason));
}

std::string fmt_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string index_list(const std::vector<int64_t>& idx) {
  std::string s;
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
  return s;
}

bool kinds_compatible(ScalarKind declared, ScalarKind given) {
  return declared == given || declared == ScalarKind::R || given == ScalarKind::R;
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floor_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// The variables of one proc activation. A proc has few variables, so a linear scan of their
// ids (most recent first) beats hashing; values live in a deque so that references to them stay
// valid while the body binds more names.
struct Frame {
  const ProcNode* proc = nullptr;
  std::vector<uint64_t> ids;
  std::vector<ArgValue*> ptrs;  // ptrs[i] is the value of ids[i], in vals
  std::deque<ArgValue> vals;

  ArgValue* find(const Sym& s) {
    const uint64_t id = s.id();
    for (size_t i = ids.size(); i-- > 0;)
      if (ids[i] == id) return ptrs[i];
    return nullptr;
  }
  // The slot of `s`, created (holding 0) when `s` is not bound yet.
  ArgValue& slot(const Sym& s) {
    if (ArgValue* v = find(s)) return *v;
    ids.push_back(s.id());
    ptrs.push_back(&vals.emplace_back(int64_t(0)));
    return *ptrs.back();
  }
};

class Interp {
 public:
  Interp(ConfigState& cfg, const InterpOptions& opts) : cfg_(cfg), opts_(opts) {}

  // Binds `args` to `p`'s arguments in `f` and checks kinds, sizes and shapes. `site` is the
  // call statement for a call, nullptr at the top level.
  void bind_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f, const SrcInfo* site) {
    bind_control_args(p, args, f, site);
    bind_data_args(p, args, f, site);
  }
  void bind_control_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f,
                         const SrcInfo* site);
  void bind_data_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f,
                      const SrcInfo* site);
  std::vector<int64_t> eval_shape(const Type& t, Frame& f) {
    std::vector<int64_t> shape;
    for (const Expr& d : t.shape) shape.push_back(eval_int(d, f));
    return shape;
  }
  // Index of the first assert that fails, or -1.
  int first_failing_pred(const ProcNode& p, Frame& f);
  void check_preds(const ProcNode& p, Frame& f, const SrcInfo* site);
  void run(const ProcNode& p, const std::vector<ArgValue>& args, const SrcInfo* site) {
    Frame f;
    f.proc = &p;
    bind_args(p, args, f, site);
    check_preds(p, f, site);
    exec(p.body, f);
  }

 private:
  void exec(const Block& b, Frame& f) {
    for (const Stmt& s : b) exec(s, f);
  }
  void exec(const Stmt& s, Frame& f);
  void exec_store(const Stmt& s, const Sym& name, const std::vector<Expr>& idx, const Expr& rhs,
                  bool reduce, Frame& f);
  void exec_call(const CallNode* c, const Stmt& s, Frame& f);
  void exec_alloc(const AllocNode* a, const Stmt& s, Frame& f);

  int64_t eval_int(const Expr& e, Frame& f);
  bool eval_bool(const Expr& e, Frame& f) { return eval_int(e, f) != 0; }
  double eval_data(const Expr& e, Frame& f);
  int64_t eval_int_binop(const BinOpNode* b, const Expr& e, Frame& f);
  double eval_data_binop(const BinOpNode* b, const Expr& e, Frame& f);
  Buffer eval_window(const WindowExprNode* w, const Expr& e, Frame& f);

  // The precision values of type `k` are computed in (InterpOptions::real_as for R).
  ScalarKind precision(ScalarKind k) const { return k == ScalarKind::R ? opts_.real_as : k; }
  ArgValue& lookup(Frame& f, const Sym& name, const SrcInfo& where);
  Buffer& lookup_buffer(Frame& f, const Sym& name, const SrcInfo& where);
  // Storage position of name[idx], bounds-checked.
  int64_t locate(Buffer& b, const Sym& name, const std::vector<Expr>& idx, Frame& f,
                 const SrcInfo& where, const char* what);
  std::string describe_args(const ProcNode& p, Frame& f);

  ConfigState& cfg_;
  const InterpOptions& opts_;
  int64_t steps_ = 0;
};

// ---- arguments and asserts -------------------------------------------------------------------

void Interp::bind_control_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f,
                               const SrcInfo* site) {
  const std::string pname = "proc '" + p.name + "'";
  if (args.size() != p.args.size())
    fail(site ? *site : p.srcinfo, pname + " takes " + std::to_string(p.args.size()) +
                                       " arguments, got " + std::to_string(args.size()));
  // Control arguments first: the data arguments' shapes refer to them.
  for (size_t i = 0; i < args.size(); ++i) {
    const FnArg& a = p.args[i];
    const SrcInfo& where = site ? *site : a.srcinfo;
    const std::string what = "argument '" + a.name.name() + "' of " + pname;
    if (a.type.is_data()) continue;
    if (!a.type.is_control())
      fail(a.srcinfo, what + " has a type the interpreter cannot bind");
    if (a.type.base == ScalarKind::Bool) {
      if (!std::holds_alternative<bool>(args[i]))
        fail(where, what + " is a bool, got " + to_string(args[i]));
    } else {
      if (!std::holds_alternative<int64_t>(args[i]))
        fail(where, what + " is " + std::string(to_string(a.type.base)) + " (an integer), got " +
                        to_string(args[i]));
      if (a.type.base == ScalarKind::Size && std::get<int64_t>(args[i]) <= 0)
        fail(where, what + " is a size and must be positive, got " + to_string(args[i]));
    }
    f.slot(a.name) = args[i];
  }
}

void Interp::bind_data_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f,
                            const SrcInfo* site) {
  const std::string pname = "proc '" + p.name + "'";
  for (size_t i = 0; i < args.size(); ++i) {
    const FnArg& a = p.args[i];
    if (!a.type.is_data()) continue;
    const SrcInfo& where = site ? *site : a.srcinfo;
    const std::string what = "argument '" + a.name.name() + "' of " + pname;
    const Buffer* b = std::get_if<Buffer>(&args[i]);
    if (!b || !b->defined())
      fail(where, what + " is data of type " + std::string(to_string(a.type.base)) +
                      " and needs a Buffer, got " + to_string(args[i]));
    if (!kinds_compatible(a.type.base, b->kind()))
      fail(where, what + " holds " + to_string(a.type.base) + " values, got a " +
                      to_string(b->kind()) + " buffer");
    std::vector<int64_t> shape = eval_shape(a.type, f);
    if (b->shape() != shape)
      fail(where, what + " must have shape " + shape_string(shape) + " (it is " +
                      to_string(a.type) + "), got shape " + shape_string(b->shape()));
    if (!a.type.window && !b->is_dense())
      fail(where, what + " is a tensor, which must be a dense row-major buffer; it was given a "
                         "strided window (declare the argument as a window [" +
                      std::string(to_string(a.type.base)) + "][...] to accept one)");
    f.slot(a.name) = *b;
  }
}

std::string Interp::describe_args(const ProcNode& p, Frame& f) {
  std::string s;
  for (const FnArg& a : p.args) {
    const ArgValue* v = f.find(a.name);
    if (!v) continue;
    s += (s.empty() ? "" : ", ") + a.name.name() + " = " + to_string(*v);
  }
  return s;
}

int Interp::first_failing_pred(const ProcNode& p, Frame& f) {
  for (size_t i = 0; i < p.preds.size(); ++i)
    if (!eval_bool(p.preds[i], f)) return static_cast<int>(i);
  return -1;
}

void Interp::check_preds(const ProcNode& p, Frame& f, const SrcInfo* site) {
  int k = first_failing_pred(p, f);
  if (k < 0) return;
  const Expr& pred = p.preds[static_cast<size_t>(k)];
  std::string reason = "`assert " + to_string(pred) + "` of proc '" + p.name + "' does not hold for " +
                       describe_args(p, f);
  if (site) reason += " (assert at " + pred.srcinfo().to_string() + ")";
  fail(site ? *site : pred.srcinfo(), reason);
}

// ---- environment and accesses ----------------------------------------------------------------

ArgValue& Interp::lookup(Frame& f, const Sym& name, const SrcInfo& where) {
  ArgValue* v = f.find(name);
  if (!v) fail(where, "'" + name.name() + "' is not defined at this point of proc '" + f.proc->name + "'");
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

// ---- statements ------------------------------------------------------------------------------

void Interp::exec(const Stmt& s, Frame& f) {
  if (++steps_ > opts_.max_steps)
    fail(s.srcinfo(), "step limit exceeded: more than " + std::to_string(opts_.max_steps) +
                          " statements executed (raise InterpOptions::max_steps if this is intended)");
  switch (s.kind()) {
    case StmtKind::Assign: {
      const AssignNode* n = s.as<AssignNode>();
      exec_store(s, n->name, n->idx, n->rhs, false, f);
      return;
    }
    case StmtKind::Reduce: {
      const ReduceNode* n = s.as<ReduceNode>();
      exec_store(s, n->name, n->idx, n->rhs, true, f);
      return;
    }
    case StmtKind::WriteConfig: {
      const WriteConfigNode* n = s.as<WriteConfigNode>();
      const ConfigField* field = n->config->field(n->field);
      if (!field) fail(s.srcinfo(), "config " + n->config->name + " has no field '" + n->field + "'");
      ConfigValue v;
      if (is_data(field->type))
        v = round_to_kind(field->type, eval_data(n->rhs, f));
      else if (field->type == ScalarKind::Bool)
        v = eval_bool(n->rhs, f);
      else
        v = eval_int(n->rhs, f);
      cfg_.set(n->config->name, n->field, v);
      return;
    }
    case StmtKind::Pass:
      return;
    case StmtKind::If: {
      const IfNode* n = s.as<IfNode>();
      exec(eval_bool(n->cond, f) ? n->body : n->orelse, f);
      return;
    }
    case StmtKind::For: {
      const ForNode* n = s.as<ForNode>();
      int64_t lo = eval_int(n->lo, f), hi = eval_int(n->hi, f);
      ArgValue& slot = f.slot(n->iter);
      for (int64_t i = lo; i < hi; ++i) {
        slot = i;
        exec(n->body, f);
      }
      return;
    }
    case StmtKind::Alloc:
      exec_alloc(s.as<AllocNode>(), s, f);
      return;
    case StmtKind::Call:
      exec_call(s.as<CallNode>(), s, f);
      return;
    case StmtKind::WindowStmt: {
      const WindowStmtNode* n = s.as<WindowStmtNode>();
      const WindowExprNode* w = n->rhs.as<WindowExprNode>();
      if (!w) fail(s.srcinfo(), "window statement without a window expression");
      f.slot(n->name) = eval_window(w, n->rhs, f);
      return;
    }
  }
}

void Interp::exec_store(const Stmt& s, const Sym& name, const std::vector<Expr>& idx,
                        const Expr& rhs, bool reduce, Frame& f) {
  Buffer& b = lookup_buffer(f, name, s.srcinfo());
  int64_t pos = locate(b, name, idx, f, s.srcinfo(), "write");
  double v = eval_data(rhs, f);
  if (reduce) v += b.raw(pos);
  if (!is_float(b.kind()) && !std::isfinite(v))
    fail(s.srcinfo(), "storing " + fmt_double(v) + " into '" + name.name() + "', a " +
                          to_string(b.kind()) + " buffer (an integer type cannot hold it)");
  b.raw_set(pos, v);
}

void Interp::exec_alloc(const AllocNode* a, const Stmt& s, Frame& f) {
  if (!a->type.is_data())
    fail(s.srcinfo(), "allocation of '" + a->name.name() + "' must have a data type");
  std::vector<int64_t> shape;
  int64_t n = 1;
  for (const Expr& d : a->type.shape) {
    int64_t v = eval_int(d, f);
    if (v < 0)
      fail(s.srcinfo(), "allocation of '" + a->name.name() + "' with negative extent " +
                            std::to_string(v));
    shape.push_back(v);
    if (v != 0 && n > opts_.max_alloc_elements / v) n = opts_.max_alloc_elements + 1;
    else n *= v;
  }
  if (n > opts_.max_alloc_elements)
    fail(s.srcinfo(), "allocation of '" + a->name.name() + "' with shape " + shape_string(shape) +
                          " exceeds InterpOptions::max_alloc_elements (" +
                          std::to_string(opts_.max_alloc_elements) + ")");
  ScalarKind k = precision(a->type.base);
  double fill = is_float(k) ? std::nan("") : 0.0;
  f.slot(a->name) = Buffer(k, std::move(shape), fill);
}

void Interp::exec_call(const CallNode* c, const Stmt& s, Frame& f) {
  const ProcNode& callee = *c->proc;
  if (c->args.size() != callee.args.size())
    fail(s.srcinfo(), "call of '" + callee.name + "' with " + std::to_string(c->args.size()) +
                          " arguments; it takes " + std::to_string(callee.args.size()));
  std::vector<ArgValue> vals;
  vals.reserve(c->args.size());
  for (size_t i = 0; i < c->args.size(); ++i) {
    const FnArg& formal = callee.args[i];
    const Expr& e = c->args[i];
    if (!formal.type.is_data()) {
      if (formal.type.base == ScalarKind::Bool) vals.emplace_back(eval_bool(e, f));
      else vals.emplace_back(eval_int(e, f));
      continue;
    }
    if (const WindowExprNode* w = e.as<WindowExprNode>()) {
      vals.emplace_back(eval_window(w, e, f));
      continue;
    }
    const ReadNode* r = e.as<ReadNode>();
    if (r) {
      ArgValue& v = lookup(f, r->name, e.srcinfo());
      if (Buffer* b = std::get_if<Buffer>(&v)) {
        if (r->idx.empty()) {
          vals.emplace_back(*b);  // the whole tensor, window or scalar: aliased
          continue;
        }
        // An element passed to a scalar argument: alias that element.
        locate(*b, r->name, r->idx, f, e.srcinfo(), "read");  // bounds check with a message
        std::vector<Buffer::Slice> pts;
        for (const Expr& i : r->idx) pts.push_back(Buffer::Slice::point(eval_int(i, f)));
        Buffer elem = b->window(pts);
        vals.emplace_back(elem);
        continue;
      }
    }
    // Any other data expression: a fresh scalar holding its value.
    ScalarKind k = is_data(e.type().base) ? e.type().base : formal.type.base;
    vals.emplace_back(Buffer::scalar(k, eval_data(e, f)));
  }
  Frame cf;
  cf.proc = &callee;
  bind_args(callee, vals, cf, &s.srcinfo());
  check_preds(callee, cf, &s.srcinfo());
  exec(callee.body, cf);
}


// ---- expressions -----------------------------------------------------------------------------

int64_t Interp::eval_int(const Expr& e, Frame& f) {
  ScalarKind t = e.type().base;
  if (t == ScalarKind::Error || !e.type().is_scalar())
    fail(e.srcinfo(), "ill-typed expression where a control value is needed (run the type checker)");
  if (is_data(t)) fail(e.srcinfo(), "a data value is used where a control value is needed");
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* n = e.as<ReadNode>();
      ArgValue& v = lookup(f, n->name, e.srcinfo());
      if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
      if (const bool* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
      fail(e.srcinfo(), "'" + n->name.name() + "' is a buffer, not a control value");
    }
    case ExprKind::Const:
      return static_cast<int64_t>(e.as<ConstNode>()->val);
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
        fail(e.srcinfo(), "stride(" + n->name.name() + ", " + std::to_string(n->dim) +
                              "): '" + n->name.name() + "' has rank " + std::to_string(b.rank()));
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
  fail(e.srcinfo(), std::string("a ") + to_string(e.kind()) +
                        " expression cannot give a control value");
}

int64_t Interp::eval_int_binop(const BinOpNode* b, const Expr& e, Frame& f) {
  // Logical operators short-circuit, as the emitted C (&&, ||) does.
  if (b->op == BinOpKind::And) return eval_bool(b->lhs, f) && eval_bool(b->rhs, f);
  if (b->op == BinOpKind::Or) return eval_bool(b->lhs, f) || eval_bool(b->rhs, f);
  int64_t x = eval_int(b->lhs, f), y = eval_int(b->rhs, f), r = 0;
  auto overflow = [&]() -> int64_t {
    fail(e.srcinfo(), "integer overflow: " + std::to_string(x) + " " + to_string(b->op) + " " +
                          std::to_string(y) + " does not fit in 64 bits");
  };
  switch (b->op) {
    case BinOpKind::Add: return __builtin_add_overflow(x, y, &r) ? overflow() : r;
    case BinOpKind::Sub: return __builtin_sub_overflow(x, y, &r) ? overflow() : r;
    case BinOpKind::Mul: return __builtin_mul_overflow(x, y, &r) ? overflow() : r;
    case BinOpKind::Div:
    case BinOpKind::Mod:
      if (y == 0)
        fail(e.srcinfo(), std::string(b->op == BinOpKind::Div ? "division" : "modulo") +
                              " by zero: " + std::to_string(x) + " " + to_string(b->op) + " 0");
      if (b->op == BinOpKind::Mod) return floor_mod(x, y);
      if (x == INT64_MIN && y == -1) return overflow();
      return floor_div(x, y);
    case BinOpKind::Lt: return x < y;
    case BinOpKind::Le: return x <= y;
    case BinOpKind::Gt: return x > y;
    case BinOpKind::Ge: return x >= y;
    case BinOpKind::Eq: return x == y;
    case BinOpKind::And:
    case BinOpKind::Or:
      break;
  }
  return 0;
}

double Interp::eval_data(const Expr& e, Frame& f) {
  ScalarKind t = e.type().base;
  if (t == ScalarKind::Error || !e.type().is_scalar())
    fail(e.srcinfo(), "ill-typed expression where a data value is needed (run the type checker)");
  if (!is_data(t)) return static_cast<double>(eval_int(e, f));  // integer literals, mostly
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* n = e.as<ReadNode>();
      Buffer& b = lookup_buffer(f, n->name, e.srcinfo());
      return b.raw(locate(b, n->name, n->idx, f, e.srcinfo(), "read"));
    }
    case ExprKind::Const:
      return e.as<ConstNode>()->val;
    case ExprKind::USub:
      return -eval_data(e.as<USubNode>()->arg, f);
    case ExprKind::BinOp:
      return eval_data_binop(e.as<BinOpNode>(), e, f);
    case ExprKind::Extern: {
      const ExternNode* n = e.as<ExternNode>();
      std::vector<double> args;
      args.reserve(n->args.size());
      for (const Expr& a : n->args) args.push_back(eval_data(a, f));
      if (static_cast<int>(args.size()) != n->fn->arity())
        fail(e.srcinfo(), n->fn->name() + "() takes " + std::to_string(n->fn->arity()) +
                              " arguments, got " + std::to_string(args.size()));
      return round_to_kind(precision(t), n->fn->interpret(args));
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
  fail(e.srcinfo(), std::string("a ") + to_string(e.kind()) + " expression cannot give a data value");
}

// Float arithmetic is rounded to the expression's precision after each operation. Integer data
// arithmetic follows C: the operands are promoted to (32-bit) int, so intermediates wrap at 32
// bits and `/` truncates toward zero; the store then wraps to the buffer's width.
double Interp::eval_data_binop(const BinOpNode* b, const Expr& e, Frame& f) {
  ScalarKind t = precision(e.type().base);
  double x = eval_data(b->lhs, f), y = eval_data(b->rhs, f);
  ScalarKind r = is_float(t) ? t : ScalarKind::I32;
  switch (b->op) {
    case BinOpKind::Add: return round_to_kind(r, x + y);
    case BinOpKind::Sub: return round_to_kind(r, x - y);
    case BinOpKind::Mul: return round_to_kind(r, x * y);
    case BinOpKind::Div:
    case BinOpKind::Mod: {
      if (is_float(t)) return round_to_kind(t, b->op == BinOpKind::Div ? x / y : std::fmod(x, y));
      if (y == 0)
        fail(e.srcinfo(), std::string("integer ") + (b->op == BinOpKind::Div ? "division" : "modulo") +
                              " by zero: " + fmt_double(x) + " " + to_string(b->op) + " 0");
      auto xi = static_cast<int64_t>(x), yi = static_cast<int64_t>(y);
      return round_to_kind(r, static_cast<double>(b->op == BinOpKind::Div ? xi / yi : xi % yi));
    }
    case BinOpKind::Lt: case BinOpKind::Le: case BinOpKind::Gt: case BinOpKind::Ge:
    case BinOpKind::Eq: case BinOpKind::And: case BinOpKind::Or:
      break;
  }
  fail(e.srcinfo(), std::string("operator ") + to_string(b->op) + " cannot give a data value");
}

}  // namespace

// ---- public entry points ---------------------------------------------------------------------

void interpret(const Proc& p, std::vector<ArgValue>& args, const InterpOptions& opts) {
  if (!p.defined()) throw InterpError({}, "interpret() of an undefined proc");
  ConfigState local;
  Interp in(opts.configs ? *opts.configs : local, opts);
  in.run(*p.get(), args, nullptr);
}

void interpret(const Proc& p, std::map<std::string, ArgValue>& args, const InterpOptions& opts) {
  if (!p.defined()) throw InterpError({}, "interpret() of an undefined proc");
  std::vector<ArgValue> vals;
  std::string names;
  for (const FnArg& a : p.args()) {
    names += (names.empty() ? "" : ", ") + a.name.name();
    auto it = args.find(a.name.name());
    if (it == args.end())
      throw InterpError(a.srcinfo, "no value given for argument '" + a.name.name() + "' of proc '" +
                                       p.name() + "'");
    vals.push_back(it->second);
  }
  for (const auto& [name, v] : args) {
    bool known = false;
    for (const FnArg& a : p.args()) known = known || a.name.name() == name;
    if (!known)
      throw InterpError(p->srcinfo, "proc '" + p.name() + "' has no argument named '" + name +
                                        "' (its arguments: " + names + ")");
  }
  interpret(p, vals, opts);
}

void check_args(const Proc& p, const std::vector<ArgValue>& args) {
  if (!p.defined()) throw InterpError({}, "check_args() of an undefined proc");
  ConfigState cfg;
  InterpOptions opts;
  Interp in(cfg, opts);
  Frame f;
  f.proc = p.get();
  in.bind_args(*p.get(), args, f, nullptr);
  in.check_preds(*p.get(), f, nullptr);
}

std::vector<std::vector<int64_t>> arg_shapes(const Proc& p, const std::vector<ArgValue>& args) {
  if (!p.defined()) throw InterpError({}, "arg_shapes() of an undefined proc");
  ConfigState cfg;
  InterpOptions opts;
  Interp in(cfg, opts);
  Frame f;
  f.proc = p.get();
  in.bind_control_args(*p.get(), args, f, nullptr);
  std::vector<std::vector<int64_t>> out;
  for (const FnArg& a : p.args()) out.push_back(a.type.is_data() ? in.eval_shape(a.type, f) : std::vector<int64_t>{});
  return out;
}

int first_failing_assert(const Proc& p, const std::vector<ArgValue>& args) {
  if (!p.defined()) throw InterpError({}, "first_failing_assert() of an undefined proc");
  ConfigState cfg;
  InterpOptions opts;
  Interp in(cfg, opts);
  Frame f;
  f.proc = p.get();
  in.bind_args(*p.get(), args, f, nullptr);
  return in.first_failing_pred(*p.get(), f);
}

}  // namespace exocpp
