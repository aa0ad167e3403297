// Extern functions callable from data expressions (select, relu, sin, sqrt, ...). The registry
// is open: a user library registers its own ExternFn and the parser, type checker,
// interpreter and code generator all pick it up.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir.h"

namespace exocpp {

class ExternFn {
 public:
  virtual ~ExternFn() = default;
  virtual std::string name() const = 0;
  // Number of arguments the function takes.
  virtual int arity() const = 0;
  // Result type for these (type-checked) arguments; ScalarKind::Error if they do not fit.
  // The default: every argument must be a data scalar of one precision (R unifies), and the
  // result has that precision.
  virtual ScalarKind result_type(const std::vector<Expr>& args) const;
  // Why result_type() said Error, in words; "" if the arguments fit.
  virtual std::string check_args(const std::vector<Expr>& args) const;
  // The value, for the reference interpreter (arguments already evaluated).
  virtual double interpret(const std::vector<double>& args) const = 0;
  // The value when the call's precision is `t`, before the interpreter rounds it to `t`: for a
  // function whose single rounding depends on the precision (fma). The default is interpret().
  virtual double interpret_in(const std::vector<double>& args, ScalarKind t) const {
    (void)t;
    return interpret(args);
  }
  // C code for a call with the given C argument expressions, for result type `t`.
  virtual std::string compile(const std::vector<std::string>& args, ScalarKind t) const = 0;
  // Whether compile(args, t), on arguments of float precision `t`, computes exactly what the
  // interpreter does: interpret_in(args, t) rounded once to `t`. The default says so for f64
  // only (C's double functions are the interpreter's own). Elsewhere the code generator calls
  // compile(args, F64) on the arguments converted to double and converts the result once to
  // `t`, so that a function whose C rounds on its own (`sinf`, a float formula) never makes the
  // kernel differ from the interpreter.
  virtual bool compiles_exactly_in(ScalarKind t) const { return t == ScalarKind::F64; }
  // Global C (includes, helper functions) the emitted call needs.
  virtual std::string c_global(ScalarKind t) const {
    (void)t;
    return "";
  }
};

// Registers `fn` under fn->name(), replacing any earlier function of that name.
void register_extern(std::shared_ptr<const ExternFn> fn);
// nullptr when no extern of that name is registered. The built-ins (select, relu, sin, cos,
// sqrt, expf, fmaxf, sigmoid, abs, fma) are always present. fma(a, b, c) is a * b + c rounded
// once, in f32 or f64 (IEEE fusedMultiplyAdd; C's fmaf / fma): what an FMA instruction computes.
std::shared_ptr<const ExternFn> find_extern(const std::string& name);
std::vector<std::string> extern_names();

}  // namespace exocpp
