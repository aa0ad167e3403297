// The extern registry and the built-in externs.
#include "core/externs.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>

namespace exocpp {

ScalarKind ExternFn::result_type(const std::vector<Expr>& args) const {
  if (!check_args(args).empty()) return ScalarKind::Error;
  ScalarKind t = ScalarKind::R;
  bool any_data = false;
  for (const Expr& a : args) {
    ScalarKind k = a.type().base;
    if (!is_data(k)) continue;  // integer literals take the others' precision
    if (!any_data || t == ScalarKind::R) t = k;
    any_data = true;
  }
  return t;
}

std::string ExternFn::check_args(const std::vector<Expr>& args) const {
  if (static_cast<int>(args.size()) != arity())
    return name() + "() takes " + std::to_string(arity()) + " argument" +
           (arity() == 1 ? "" : "s") + ", got " + std::to_string(args.size());
  ScalarKind seen = ScalarKind::R;
  for (size_t i = 0; i < args.size(); ++i) {
    const Type& t = args[i].type();
    const ConstNode* c = args[i].as<ConstNode>();
    bool int_lit = c && c->is_int();
    if (!t.is_scalar() || (!t.is_data() && !int_lit))
      return "argument " + std::to_string(i + 1) + " of " + name() +
             "() must be a data value, got " + to_string(t);
    if (!t.is_data()) continue;
    if (seen != ScalarKind::R && t.base != ScalarKind::R && t.base != seen)
      return "arguments of " + name() + "() mix precisions " + to_string(seen) + " and " +
             to_string(t.base);
    if (t.base != ScalarKind::R) seen = t.base;
  }
  return "";
}

namespace {

std::string c_suffix(ScalarKind t) { return t == ScalarKind::F32 ? "f" : ""; }
std::string c_type(ScalarKind t) {
  switch (t) {
    case ScalarKind::F16:
      return "_Float16";
    case ScalarKind::F32:
      return "float";
    case ScalarKind::I8:
      return "int8_t";
    case ScalarKind::UI8:
      return "uint8_t";
    case ScalarKind::UI16:
      return "uint16_t";
    case ScalarKind::I32:
      return "int32_t";
    default:
      return "double";
  }
}

// A built-in extern defined by a value function and a C rendering.
class BuiltinExtern : public ExternFn {
 public:
  using ValueFn = std::function<double(const std::vector<double>&)>;
  using CompileFn = std::function<std::string(const std::vector<std::string>&, ScalarKind)>;
  // `exact_in`: the float precisions whose compile() rounds once, as the interpreter does (see
  // ExternFn::compiles_exactly_in); f64 always.
  BuiltinExtern(std::string n, int a, ValueFn v, CompileFn c, std::string g = "#include <math.h>",
                std::vector<ScalarKind> exact_in = {})
      : name_(std::move(n)),
        arity_(a),
        value_(std::move(v)),
        compile_(std::move(c)),
        global_(std::move(g)),
        exact_in_(std::move(exact_in)) {}
  std::string name() const override { return name_; }
  int arity() const override { return arity_; }
  double interpret(const std::vector<double>& a) const override { return value_(a); }
  std::string compile(const std::vector<std::string>& a, ScalarKind t) const override {
    return compile_(a, t);
  }
  std::string c_global(ScalarKind) const override { return global_; }
  bool compiles_exactly_in(ScalarKind t) const override {
    return t == ScalarKind::F64 ||
           std::find(exact_in_.begin(), exact_in_.end(), t) != exact_in_.end();
  }

 private:
  std::string name_;
  int arity_;
  ValueFn value_;
  CompileFn compile_;
  std::string global_;
  std::vector<ScalarKind> exact_in_;
};

// Where a function only picks one of its argument values (select, relu, ...), C computes it
// exactly in every float precision.
std::vector<ScalarKind> every_float() { return {ScalarKind::F16, ScalarKind::F32}; }

// A one-argument libm function: sin, cos, sqrt, expf... `exact_in`: the float precisions in
// which its C function (sqrtf) is correctly rounded.
std::shared_ptr<const ExternFn> unary_math(const std::string& name, double (*f)(double),
                                           std::vector<ScalarKind> exact_in = {}) {
  return std::make_shared<BuiltinExtern>(
      name, 1, [f](const std::vector<double>& a) { return f(a[0]); },
      [name](const std::vector<std::string>& a, ScalarKind t) {
        std::string base = name == "expf" ? "exp" : name;
        if (!is_float(t)) return "(" + c_type(t) + ")" + base + "((double)" + a[0] + ")";
        return base + c_suffix(t) + "(" + a[0] + ")";
      },
      "#include <math.h>", std::move(exact_in));
}

// fma(a, b, c): a * b + c with one rounding, in f32 or f64 only (the precisions whose fused
// multiply-add C and the hardware define). The interpreter computes it with the C library's
// correctly rounded fmaf / fma on the exact argument values (f32 values are exact in a double),
// so it agrees bit for bit with the emitted call and with an FMA instruction.
class FmaExtern : public ExternFn {
 public:
  std::string name() const override { return "fma"; }
  int arity() const override { return 3; }
  // The base result_type() calls this, so the precision is found here without calling it: the
  // base check already made every data argument one precision (R unifies).
  std::string check_args(const std::vector<Expr>& args) const override {
    std::string why = ExternFn::check_args(args);
    if (!why.empty()) return why;
    ScalarKind k = ScalarKind::R;
    for (const Expr& a : args)
      if (a.type().is_data() && a.type().base != ScalarKind::R) k = a.type().base;
    if (k != ScalarKind::F32 && k != ScalarKind::F64)
      return std::string(
                 "fma() computes in f32 or f64 (where its single rounding is defined), "
                 "not in ") +
             to_string(k) + ": give an argument of one of those precisions";
    return "";
  }
  double interpret(const std::vector<double>& a) const override {
    return std::fma(a[0], a[1], a[2]);
  }
  double interpret_in(const std::vector<double>& a, ScalarKind t) const override {
    if (t == ScalarKind::F32)
      return std::fmaf(static_cast<float>(a[0]), static_cast<float>(a[1]),
                       static_cast<float>(a[2]));
    return std::fma(a[0], a[1], a[2]);
  }
  std::string compile(const std::vector<std::string>& a, ScalarKind t) const override {
    return std::string(t == ScalarKind::F32 ? "fmaf" : "fma") + "(" + a[0] + ", " + a[1] + ", " +
           a[2] + ")";
  }
  std::string c_global(ScalarKind) const override { return "#include <math.h>"; }
  bool compiles_exactly_in(ScalarKind t) const override {
    return t == ScalarKind::F32 || t == ScalarKind::F64;  // fmaf, fma: one rounding
  }
};

struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const ExternFn>> fns;
  Registry() {
    auto add = [&](std::shared_ptr<const ExternFn> f) { fns[f->name()] = std::move(f); };
    add(std::make_shared<BuiltinExtern>(
        "select", 4, [](const std::vector<double>& a) { return a[0] < a[1] ? a[2] : a[3]; },
        [](const std::vector<std::string>& a, ScalarKind) {
          return "((" + a[0] + ") < (" + a[1] + ") ? (" + a[2] + ") : (" + a[3] + "))";
        },
        "", every_float()));
    add(std::make_shared<BuiltinExtern>(
        "relu", 1, [](const std::vector<double>& a) { return a[0] > 0 ? a[0] : 0.0; },
        // The int 0 converts to the other branch's type (a cast to C's name of the precision
        // would spell _Float16, which some compilers lack: the prelude's exo_f16 is __fp16 there).
        [](const std::vector<std::string>& a, ScalarKind) {
          return "((" + a[0] + ") > 0 ? (" + a[0] + ") : 0)";
        },
        "", every_float()));
    add(std::make_shared<BuiltinExtern>(
        "fmaxf", 2, [](const std::vector<double>& a) { return a[0] > a[1] ? a[0] : a[1]; },
        [](const std::vector<std::string>& a, ScalarKind) {
          return "((" + a[0] + ") > (" + a[1] + ") ? (" + a[0] + ") : (" + a[1] + "))";
        },
        "", every_float()));
    add(std::make_shared<BuiltinExtern>(
        "abs", 1, [](const std::vector<double>& a) { return a[0] < 0 ? -a[0] : a[0]; },
        [](const std::vector<std::string>& a, ScalarKind) {
          return "((" + a[0] + ") < 0 ? -(" + a[0] + ") : (" + a[0] + "))";
        },
        "", every_float()));
    add(std::make_shared<BuiltinExtern>(
        "sigmoid", 1, [](const std::vector<double>& a) { return 1.0 / (1.0 + std::exp(-a[0])); },
        [](const std::vector<std::string>& a, ScalarKind t) {
          return "(1 / (1 + exp" + c_suffix(t) + "(-(" + a[0] + "))))";
        }));
    add(unary_math("sin", [](double x) { return std::sin(x); }));
    add(unary_math("cos", [](double x) { return std::cos(x); }));
    add(unary_math("sqrt", [](double x) { return std::sqrt(x); }, {ScalarKind::F32}));
    add(unary_math("expf", [](double x) { return std::exp(x); }));
    add(std::make_shared<FmaExtern>());
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_extern(std::shared_ptr<const ExternFn> fn) {
  EXOCPP_ASSERT(fn != nullptr, "register_extern(nullptr)");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.fns[fn->name()] = std::move(fn);
}

std::shared_ptr<const ExternFn> find_extern(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.fns.find(name);
  return it == r.fns.end() ? nullptr : it->second;
}

std::vector<std::string> extern_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> out;
  for (auto& [n, f] : r.fns) out.push_back(n);
  return out;
}

}  // namespace exocpp
