// The reference interpreter: argument binding and checks, asserts, statements, calls, and the
// public entry points. Expressions are in interp_expr.cpp; semantics are documented in
// interpreter.h.
#include "core/interpreter.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/interp_internal.h"
#include "core/printer.h"

namespace exocpp {
using interp_detail::Frame;
using interp_detail::Interp;

namespace interp_detail {
namespace {

bool kinds_compatible(ScalarKind declared, ScalarKind given) {
  return declared == given || declared == ScalarKind::R || given == ScalarKind::R;
}

}  // namespace

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
    if (!a.type.is_control()) fail(a.srcinfo, what + " has a type the interpreter cannot bind");
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
      fail(where, what +
                      " is a tensor, which must be a dense row-major buffer; it was given a "
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

void Interp::check_index_args(const ProcNode& p, Frame& f, const SrcInfo* site) {
  for (const FnArg& a : p.args) {
    if (!a.range) continue;
    const int64_t lo = eval_int(a.range->lo, f), hi = eval_int(a.range->hi, f);
    Buffer& b = lookup_buffer(f, a.name, a.srcinfo);
    // Walk the elements in row-major order, so the first bad one is named.
    std::vector<int64_t> idx(static_cast<size_t>(b.rank()), 0);
    bool empty = false;
    for (int64_t e : b.shape()) empty = empty || e == 0;
    while (!empty) {
      int64_t pos = b.offset();
      for (size_t d = 0; d < idx.size(); ++d) pos += idx[d] * b.strides()[d];
      const double v = b.raw(pos);
      if (!(v >= static_cast<double>(lo) && v < static_cast<double>(hi))) {
        std::string where = a.name.name() + (idx.empty() ? "" : "[" + index_list(idx) + "]");
        fail(site ? *site : a.srcinfo,
             "index argument '" + a.name.name() + "' of proc '" + p.name + "': " + where + " = " +
                 fmt_double(v) + " is outside its declared range range(" + to_string(a.range->lo) +
                 ", " + to_string(a.range->hi) + ") = [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + ")");
      }
      size_t d = idx.size();
      while (d > 0 && ++idx[d - 1] == b.shape()[d - 1]) idx[--d] = 0;
      if (d == 0) break;
    }
  }
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
  std::string reason = "`assert " + to_string(pred) + "` of proc '" + p.name +
                       "' does not hold for " + describe_args(p, f);
  if (site) reason += " (assert at " + pred.srcinfo().to_string() + ")";
  fail(site ? *site : pred.srcinfo(), reason);
}

// ---- the step bound ----------------------------------------------------------------------------

namespace {
constexpr uint64_t kManySteps = uint64_t{1} << 62;
uint64_t sat_add(uint64_t a, uint64_t b) { return a + b >= kManySteps ? kManySteps : a + b; }
uint64_t sat_mul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kManySteps / b ? kManySteps : a * b;
}
std::optional<int64_t> literal(const Expr& e) {
  const ConstNode* c = e.as<ConstNode>();
  if (c && c->is_int()) return c->int_val();
  return std::nullopt;
}
uint64_t min_steps(const Block& b);
// Each executed statement is one step; a nested loop with literal bounds runs its body that
// many times; an if runs at least its cheaper branch.
uint64_t min_steps(const Stmt& s) {
  uint64_t n = 1;
  if (const ForNode* f = s.as<ForNode>()) {
    std::optional<int64_t> lo = literal(f->lo), hi = literal(f->hi);
    if (lo && hi && *hi > *lo)
      n = sat_add(
          n, sat_mul(static_cast<uint64_t>(*hi) - static_cast<uint64_t>(*lo), min_steps(f->body)));
  } else if (const IfNode* i = s.as<IfNode>()) {
    n = sat_add(n, std::min(min_steps(i->body), min_steps(i->orelse)));
  }
  return n;
}
uint64_t min_steps(const Block& b) {
  uint64_t n = 0;
  for (const Stmt& s : b) n = sat_add(n, min_steps(s));
  return n;
}
}  // namespace

uint64_t Interp::min_body_steps(const ForNode* n) {
  auto it = min_body_steps_.find(n);
  if (it != min_body_steps_.end()) return it->second;
  uint64_t m = min_steps(n->body);
  min_body_steps_.emplace(n, m);
  return m;
}

void Interp::check_loop_fits(const ForNode* n, const Stmt& s, int64_t lo, int64_t hi) {
  if (hi <= lo) return;
  uint64_t trips = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  uint64_t per = min_body_steps(n);
  uint64_t left = opts_.max_steps > steps_ ? static_cast<uint64_t>(opts_.max_steps - steps_) : 0;
  if (per == 0 || trips <= left / per) return;
  fail(s.srcinfo(),
       "step limit exceeded: the loop over " + n->iter.name() + " would run " +
           std::to_string(trips) + " iterations of at least " + std::to_string(per) + " statement" +
           (per == 1 ? "" : "s") + " each, which exceeds the step limit of " +
           std::to_string(opts_.max_steps) + " statements (" + std::to_string(steps_) +
           " already executed): too large to interpret (raise InterpOptions::max_steps if this is "
           "intended)");
}

// ---- statements ------------------------------------------------------------------------------

void Interp::exec(const Stmt& s, Frame& f) {
  if (++steps_ > opts_.max_steps)
    fail(s.srcinfo(),
         "step limit exceeded: more than " + std::to_string(opts_.max_steps) +
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
      if (!field)
        fail(s.srcinfo(), "config " + n->config->name + " has no field '" + n->field + "'");
      ConfigValue v;
      if (is_data(field->type))
        v = round_to_kind(precision(field->type), eval_data(n->rhs, f, field->type));
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
      check_loop_fits(n, s, lo, hi);
      ArgValue& slot = f.slot(n->iter);
      if (is_parallel(n->mode) && opts_.reverse_par) {
        for (int64_t i = hi; i > lo;) {
          slot = --i;
          exec(n->body, f);
        }
        return;
      }
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
  double v = eval_data(rhs, f, b.kind());
  // A control value stored into integer data wraps to the precision, as C's conversion does.
  if (!rhs.type().is_data() && is_int_precision(b.kind())) v = round_to_kind(b.kind(), v);
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
      fail(s.srcinfo(),
           "allocation of '" + a->name.name() + "' with negative extent " + std::to_string(v));
    shape.push_back(v);
    if (v != 0 && n > opts_.max_alloc_elements / v)
      n = opts_.max_alloc_elements + 1;
    else
      n *= v;
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
      if (formal.type.base == ScalarKind::Bool)
        vals.emplace_back(eval_bool(e, f));
      else
        vals.emplace_back(eval_int(e, f));
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
    ScalarKind k = data_kind_in(e, formal.type.base);
    vals.emplace_back(Buffer::scalar(k, eval_data(e, f, k)));
  }
  Frame cf;
  cf.proc = &callee;
  bind_args(callee, vals, cf, &s.srcinfo());
  check_index_args(callee, cf, &s.srcinfo());
  check_preds(callee, cf, &s.srcinfo());
  exec(callee.body, cf);
}

}  // namespace interp_detail

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

void check_args(const Proc& p, const std::vector<ArgValue>& args, const ConfigState* configs) {
  if (!p.defined()) throw InterpError({}, "check_args() of an undefined proc");
  ConfigState cfg = configs ? *configs : ConfigState{};
  InterpOptions opts;
  Interp in(cfg, opts);
  Frame f;
  f.proc = p.get();
  in.bind_args(*p.get(), args, f, nullptr);
  in.check_index_args(*p.get(), f, nullptr);
  in.check_preds(*p.get(), f, nullptr);
}

namespace {
// Calls `use(interp, frame)` with `p`'s control arguments bound to `args` (buffers untouched):
// what the signature's expressions (shapes, ranges) are evaluated in.
template <class F>
auto with_control_args(const Proc& p, const std::vector<ArgValue>& args, const char* who, F use) {
  if (!p.defined()) throw InterpError({}, std::string(who) + "() of an undefined proc");
  ConfigState cfg;
  InterpOptions opts;
  Interp in(cfg, opts);
  Frame f;
  f.proc = p.get();
  in.bind_control_args(*p.get(), args, f, nullptr);
  return use(in, f);
}
}  // namespace

std::vector<std::vector<int64_t>> arg_shapes(const Proc& p, const std::vector<ArgValue>& args) {
  return with_control_args(p, args, "arg_shapes", [&](Interp& in, Frame& f) {
    std::vector<std::vector<int64_t>> out;
    for (const FnArg& a : p.args())
      out.push_back(a.type.is_data() ? in.eval_shape(a.type, f) : std::vector<int64_t>{});
    return out;
  });
}

std::vector<std::optional<std::pair<int64_t, int64_t>>> index_arg_ranges(
    const Proc& p, const std::vector<ArgValue>& args) {
  return with_control_args(p, args, "index_arg_ranges", [&](Interp& in, Frame& f) {
    std::vector<std::optional<std::pair<int64_t, int64_t>>> out;
    for (const FnArg& a : p.args()) {
      out.emplace_back();
      if (a.range) out.back() = {in.eval_control(a.range->lo, f), in.eval_control(a.range->hi, f)};
    }
    return out;
  });
}

int first_failing_assert(const Proc& p, const std::vector<ArgValue>& args,
                         const ConfigState* configs) {
  if (!p.defined()) throw InterpError({}, "first_failing_assert() of an undefined proc");
  ConfigState cfg = configs ? *configs : ConfigState{};
  InterpOptions opts;
  Interp in(cfg, opts);
  Frame f;
  f.proc = p.get();
  in.bind_args(*p.get(), args, f, nullptr);
  return in.first_failing_pred(*p.get(), f);
}

}  // namespace exocpp
