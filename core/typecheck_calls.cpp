// Type checking of calls: every argument against the callee's signature, as Exo's
// check_call_types does. Control parameters take control expressions of a compatible type
// (size and index parameters: int, index or size expressions; a constant size is positive),
// scalar data parameters take a scalar buffer (a variable or one element, passed by address),
// tensor and window parameters take a tensor or a window of the same rank and element precision
// (R unifies); a window given for a tensor parameter must be dense, which the checker decides.
#include "core/printer.h"
#include "core/typecheck_internal.h"

namespace exocpp::typecheck_detail {

void Checker::check_call(const CallNode* n, const Stmt& s) {
  const ProcNode& f = *n->proc;
  if (n->args.size() != f.args.size())
    fail(s.srcinfo(), "'" + f.name + "' takes " + std::to_string(f.args.size()) + " argument" +
                          (f.args.size() == 1 ? "" : "s") + ", got " +
                          std::to_string(n->args.size()));
  for (size_t i = 0; i < n->args.size(); ++i) check_call_arg(f, i, n->args[i]);
}

void Checker::check_call_arg(const ProcNode& callee, size_t i, const Expr& arg) {
  const FnArg& param = callee.args[i];
  std::string who = "argument '" + param.name.name() + "' of '" + callee.name + "'";
  if (!arg.defined()) fail(cur_, who + " is missing");
  const Type& pt = param.type;
  // An index argument passes to an index parameter, whose own range is checked where the callee
  // is entered, whole or as a window (`col[j:j + 16]` for a gather's 16 indices: a dense one
  // for a tensor parameter, which the checker decides as for data); no other buffer may stand
  // for an index parameter.
  const ReadNode* whole = arg.as<ReadNode>();
  const WindowExprNode* part = arg.as<WindowExprNode>();
  const VarInfo* given = whole  ? &lookup(whole->name, arg.srcinfo())
                         : part ? &lookup(part->name, arg.srcinfo())
                                : nullptr;
  const bool from_index_arg = given && given->index_arg && (part || whole->idx.empty());
  if (param.is_index_arg() && !from_index_arg)
    fail(arg.srcinfo(), who + " is an index argument (it declares a value range); pass it an " +
                            "index argument of the caller, whole or a window of one");
  // (An element read of one is a control value, which a control parameter takes.)
  if (given && given->index_arg && !param.is_index_arg() && !pt.is_control())
    fail(arg.srcinfo(), who + " does not declare a value range, so it cannot take " +
                            quoted(whole ? whole->name : part->name) +
                            ", an index argument of the caller");
  if (pt.is_control()) return check_control_arg(who, pt, arg);
  if (!pt.is_data()) fail(arg.srcinfo(), who + " has no valid type in '" + callee.name + "'");
  if (pt.is_scalar()) return check_scalar_buffer_arg(who, pt, arg);
  check_tensor_arg(who, pt, arg, param.is_index_arg());
}

// The type of a whole buffer passed as an argument (a window, or a tensor read without
// indices); nullopt for any other expression.
static std::optional<Type> whole_buffer_type(const Expr& arg,
                                             const std::unordered_map<Sym, VarInfo, SymHash>& env) {
  if (arg.is<WindowExprNode>()) return arg.type();
  const ReadNode* r = arg.as<ReadNode>();
  if (!r || !r->idx.empty()) return std::nullopt;
  auto it = env.find(r->name);
  if (it == env.end() || !it->second.type.is_tensor_or_window()) return std::nullopt;
  return it->second.type;
}

void Checker::check_control_arg(const std::string& who, const Type& pt, const Expr& arg) {
  if (auto bt = whole_buffer_type(arg, env_))
    fail(arg.srcinfo(), who + " expects " + to_string(pt) + ", got the buffer " + to_string(*bt) +
                            ": control parameters take control values");
  check_value(arg);
  const Type& t = arg.type();
  bool ok = false;
  switch (pt.base) {
    case ScalarKind::Size:
    case ScalarKind::Index:
    case ScalarKind::Int:
      ok = t.is_scalar() && is_indexable(t.base);
      break;
    case ScalarKind::Bool:
      ok = t.is_scalar() && t.base == ScalarKind::Bool;
      break;
    case ScalarKind::Stride:
      ok = t.is_scalar() && (t.base == ScalarKind::Stride || t.base == ScalarKind::Int);
      break;
    case ScalarKind::R:
    case ScalarKind::F16:
    case ScalarKind::BF16:
    case ScalarKind::F32:
    case ScalarKind::F64:
    case ScalarKind::I8:
    case ScalarKind::UI8:
    case ScalarKind::UI16:
    case ScalarKind::I32:
    case ScalarKind::Error:
      break;  // not control types
  }
  if (!ok)
    fail(arg.srcinfo(),
         who + " expects " + to_string(pt) + ", got " + to_string(t) +
             (t.is_data() ? ": data values cannot be passed as control values" : ""));
  if (pt.base != ScalarKind::Size) return;
  // As in Exo, a size parameter takes any index expression, loop variables included (a
  // replaced tail loop passes `N - 8 * io`); the checker proves it positive at the call
  // (checker/frontend_checks.h, check_calls). A constant is decided here.
  auto c = fold_int_constant(arg);
  if (c && *c <= 0)
    fail(arg.srcinfo(), who + " is a size and must be positive, got " + std::to_string(*c));
}

void Checker::check_scalar_buffer_arg(const std::string& who, const Type& pt, const Expr& arg) {
  std::string expects = who + " expects a scalar buffer of type " + to_string(pt);
  if (auto bt = whole_buffer_type(arg, env_)) {
    if (const ReadNode* r = arg.as<ReadNode>())
      lookup(r->name, arg.srcinfo());
    else
      check_window(arg);
    bool point_only = arg.is<WindowExprNode>() && bt->rank() == 0;
    if (!point_only)
      fail(arg.srcinfo(), expects + ", got " + to_string(*bt) +
                              ": pass one element (A[i, j]) or declare the parameter as a tensor");
  } else if (const ReadNode* r = arg.as<ReadNode>()) {
    const VarInfo& v = lookup(r->name, arg.srcinfo());
    // A variable or one element is passed by address: nothing is read here, so a buffer in a
    // memory plain code may not touch is fine.
    check_read(arg, Access::Address);
    if (!v.type.is_data())
      fail(arg.srcinfo(), expects + ", got " + quoted(r->name) + ", " + describe(v) +
                              ": control values cannot be passed as data buffers");
  } else if (arg.is<ReadConfigNode>()) {
    check_value(arg);
    if (!arg.type().is_data())
      fail(arg.srcinfo(), expects + ", got a config field of type " + to_string(arg.type()));
  } else {
    check_value(arg);
    fail(arg.srcinfo(), expects +
                            ": pass a variable or a tensor element (the callee may write "
                            "it), not an expression of type " +
                            to_string(arg.type()));
  }
  if (!precisions_compatible(arg.type().base, pt.base))
    fail(arg.srcinfo(), expects + ", got " + to_string(arg.type().base) +
                            ": mixed precisions (R unifies with any precision)");
}

void Checker::check_tensor_arg(const std::string& who, const Type& pt, const Expr& arg,
                               bool index_param) {
  std::string expects = who + " expects " + to_string(pt);
  std::optional<Type> at = whole_buffer_type(arg, env_);
  if (!at) {
    if (const ReadNode* r = arg.as<ReadNode>()) {
      const VarInfo& v = lookup(r->name, arg.srcinfo());
      if (r->idx.empty())
        fail(arg.srcinfo(), expects + ", got " + quoted(r->name) + ", " + describe(v) +
                                ": pass a tensor or a window");
    }
    check_value(arg);
    fail(arg.srcinfo(), expects + ", got an expression of type " + to_string(arg.type()) +
                            ": pass a tensor or a window");
  }
  if (arg.is<WindowExprNode>())
    check_window(arg, /*of_index_arg=*/index_param);
  else
    check_read(arg, Access::WholeBuffer);
  std::string got = ", got " + to_string(*at);
  // A window may stand for a tensor parameter (as in Exo) when it is dense: the tensor is a
  // plain pointer. Density is a fact about values, decided by the checker's call checks
  // (checker/frontend_checks.h) and enforced by codegen and the interpreter.
  if (at->rank() != pt.rank())
    fail(arg.srcinfo(), expects + got + ": rank " + std::to_string(pt.rank()) + " expected, got " +
                            std::to_string(at->rank()));
  if (!precisions_compatible(at->base, pt.base))
    fail(arg.srcinfo(), expects + got + ": element types differ (R unifies with any precision)");
}

}  // namespace exocpp::typecheck_detail
