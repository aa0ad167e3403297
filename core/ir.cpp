// Node construction (the one checked way to build IR), names of kinds, and type rules.
#include "core/ir.h"

#include <atomic>
#include <bit>
#include <cmath>
#include <sstream>

#include "core/externs.h"

namespace exocpp {

const char* to_string(ExprKind k) {
  switch (k) {
#define X(N)        \
  case ExprKind::N: \
    return #N;
    EXOCPP_FOR_EACH_EXPR(X)
#undef X
  }
  return "?";
}

const char* to_string(StmtKind k) {
  switch (k) {
#define X(N)        \
  case StmtKind::N: \
    return #N;
    EXOCPP_FOR_EACH_STMT(X)
#undef X
  }
  return "?";
}

static std::atomic<uint64_t> next_sym_id{1};
Sym::Sym(std::string name) : name_(std::move(name)), id_(next_sym_id.fetch_add(1)) {}

static std::atomic<uint64_t> next_eqv_class{1};
uint64_t fresh_eqv_class() { return next_eqv_class.fetch_add(1); }

// ---- types -----------------------------------------------------------------------------------

const char* to_string(ScalarKind k) {
  switch (k) {
    case ScalarKind::R:
      return "R";
    case ScalarKind::F16:
      return "f16";
    case ScalarKind::BF16:
      return "bf16";
    case ScalarKind::F32:
      return "f32";
    case ScalarKind::F64:
      return "f64";
    case ScalarKind::I8:
      return "i8";
    case ScalarKind::UI8:
      return "ui8";
    case ScalarKind::UI16:
      return "ui16";
    case ScalarKind::I32:
      return "i32";
    case ScalarKind::Bool:
      return "bool";
    case ScalarKind::Int:
      return "int";
    case ScalarKind::Index:
      return "index";
    case ScalarKind::Size:
      return "size";
    case ScalarKind::Stride:
      return "stride";
    case ScalarKind::Error:
      return "<error>";
  }
  return "?";
}

// Every type with a surface spelling: the control types, then the data types.
static const ScalarKind kSpelledTypes[] = {
    ScalarKind::Size, ScalarKind::Index, ScalarKind::Int,  ScalarKind::Bool, ScalarKind::Stride,
    ScalarKind::R,    ScalarKind::F16,   ScalarKind::BF16, ScalarKind::F32,  ScalarKind::F64,
    ScalarKind::I8,   ScalarKind::UI8,   ScalarKind::UI16, ScalarKind::I32};

std::optional<ScalarKind> scalar_kind_from_string(const std::string& s) {
  for (ScalarKind k : kSpelledTypes)
    if (s == to_string(k)) return k;
  return std::nullopt;
}

std::string type_names(bool data_only) {
  std::vector<std::string> names;
  for (ScalarKind k : kSpelledTypes)
    if (!data_only || is_data(k)) names.push_back(to_string(k));
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

bool is_int_precision(ScalarKind k) {
  return k == ScalarKind::I8 || k == ScalarKind::UI8 || k == ScalarKind::UI16 ||
         k == ScalarKind::I32;
}

std::pair<int64_t, int64_t> int_precision_limits(ScalarKind k) {
  switch (k) {
    case ScalarKind::I8:
      return {-128, 127};
    case ScalarKind::UI8:
      return {0, 255};
    case ScalarKind::UI16:
      return {0, 65535};
    default:
      return {INT32_MIN, INT32_MAX};
  }
}

bool is_data(ScalarKind k) {
  switch (k) {
    case ScalarKind::R:
    case ScalarKind::F16:
    case ScalarKind::BF16:
    case ScalarKind::F32:
    case ScalarKind::F64:
    case ScalarKind::I8:
    case ScalarKind::UI8:
    case ScalarKind::UI16:
    case ScalarKind::I32:
      return true;
    case ScalarKind::Bool:
    case ScalarKind::Int:
    case ScalarKind::Index:
    case ScalarKind::Size:
    case ScalarKind::Stride:
    case ScalarKind::Error:
      return false;
  }
  return false;
}
bool is_control(ScalarKind k) {
  return k == ScalarKind::Bool || k == ScalarKind::Int || k == ScalarKind::Index ||
         k == ScalarKind::Size || k == ScalarKind::Stride;
}
bool is_indexable(ScalarKind k) {
  return k == ScalarKind::Int || k == ScalarKind::Index || k == ScalarKind::Size;
}
bool is_float(ScalarKind k) {
  return k == ScalarKind::R || k == ScalarKind::F16 || k == ScalarKind::BF16 ||
         k == ScalarKind::F32 || k == ScalarKind::F64;
}

size_t scalar_bytes(ScalarKind k) {
  switch (k) {
    case ScalarKind::F64:
      return 8;
    case ScalarKind::R:
    case ScalarKind::F32:
    case ScalarKind::I32:
      return 4;
    case ScalarKind::F16:
    case ScalarKind::BF16:
    case ScalarKind::UI16:
      return 2;
    default:
      return 1;
  }
}

Type::Type(ScalarKind b, std::vector<Expr> sh, bool win)
    : base(b), shape(std::move(sh)), window(win) {}

std::string to_string(const Type& t);  // defined in printer.cpp (needs expression printing)

// ---- expressions -----------------------------------------------------------------------------

ExprKind Expr::kind() const {
  EXOCPP_ASSERT(node_, "kind() of undefined Expr");
  return node_->kind;
}
const Type& Expr::type() const {
  EXOCPP_ASSERT(node_, "type() of undefined Expr");
  return node_->type;
}
const SrcInfo& Expr::srcinfo() const {
  EXOCPP_ASSERT(node_, "srcinfo() of undefined Expr");
  return node_->srcinfo;
}
StmtKind Stmt::kind() const {
  EXOCPP_ASSERT(node_, "kind() of undefined Stmt");
  return node_->kind;
}
const SrcInfo& Stmt::srcinfo() const {
  EXOCPP_ASSERT(node_, "srcinfo() of undefined Stmt");
  return node_->srcinfo;
}

const char* to_string(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add:
      return "+";
    case BinOpKind::Sub:
      return "-";
    case BinOpKind::Mul:
      return "*";
    case BinOpKind::Div:
      return "/";
    case BinOpKind::Mod:
      return "%";
    case BinOpKind::Lt:
      return "<";
    case BinOpKind::Le:
      return "<=";
    case BinOpKind::Gt:
      return ">";
    case BinOpKind::Ge:
      return ">=";
    case BinOpKind::Eq:
      return "==";
    case BinOpKind::And:
      return "and";
    case BinOpKind::Or:
      return "or";
  }
  return "?";
}
bool is_comparison(BinOpKind op) {
  return op == BinOpKind::Lt || op == BinOpKind::Le || op == BinOpKind::Gt || op == BinOpKind::Ge ||
         op == BinOpKind::Eq;
}
bool is_logical(BinOpKind op) { return op == BinOpKind::And || op == BinOpKind::Or; }
bool is_arithmetic(BinOpKind op) { return !is_comparison(op) && !is_logical(op); }

static bool is_int_literal(const Expr& e) {
  const ConstNode* c = e.as<ConstNode>();
  return c && c->is_int();
}

ScalarKind binop_result_type(BinOpKind op, const Expr& lhs, const Expr& rhs) {
  const Type& lt = lhs.type();
  const Type& rt = rhs.type();
  if (!lt.is_scalar() || !rt.is_scalar()) return ScalarKind::Error;
  ScalarKind l = lt.base, r = rt.base;
  if (l == ScalarKind::Error || r == ScalarKind::Error) return ScalarKind::Error;

  if (is_logical(op))
    return (l == ScalarKind::Bool && r == ScalarKind::Bool) ? ScalarKind::Bool : ScalarKind::Error;

  bool l_ctl = is_indexable(l) || l == ScalarKind::Stride;
  bool r_ctl = is_indexable(r) || r == ScalarKind::Stride;

  if (is_comparison(op)) {
    if (l_ctl && r_ctl) return ScalarKind::Bool;
    if (op == BinOpKind::Eq && l == ScalarKind::Bool && r == ScalarKind::Bool)
      return ScalarKind::Bool;
    // Data values compare in the precision their arithmetic would have (an if condition's
    // `x[i] > m`; the type checker allows it nowhere else).
    return data_operand_type(lhs, rhs) == ScalarKind::Error ? ScalarKind::Error : ScalarKind::Bool;
  }

  // Arithmetic on control values: index arithmetic.
  if (l_ctl && r_ctl) {
    if (l == ScalarKind::Stride || r == ScalarKind::Stride) return ScalarKind::Stride;
    if (l == ScalarKind::Size && r == ScalarKind::Size &&
        (op == BinOpKind::Add || op == BinOpKind::Mul))
      return ScalarKind::Size;
    if (l == ScalarKind::Int && r == ScalarKind::Int) return ScalarKind::Int;
    // size op int-literal keeps size for + * / when the literal is positive
    if (l == ScalarKind::Size && is_int_literal(rhs) && rhs.as<ConstNode>()->val > 0 &&
        (op == BinOpKind::Add || op == BinOpKind::Mul || op == BinOpKind::Div))
      return ScalarKind::Size;
    if (r == ScalarKind::Size && is_int_literal(lhs) && lhs.as<ConstNode>()->val > 0 &&
        (op == BinOpKind::Add || op == BinOpKind::Mul))
      return ScalarKind::Size;
    return ScalarKind::Index;
  }

  if (op == BinOpKind::Mod) return ScalarKind::Error;
  return data_operand_type(lhs, rhs);
}

ScalarKind data_operand_type(const Expr& lhs, const Expr& rhs) {
  // An integer literal takes the other side's data type; R unifies with any precision.
  ScalarKind l = lhs.type().base, r = rhs.type().base;
  if (!lhs.type().is_scalar() || !rhs.type().is_scalar()) return ScalarKind::Error;
  bool l_data = is_data(l) || (is_int_literal(lhs) && is_data(r));
  bool r_data = is_data(r) || (is_int_literal(rhs) && is_data(l));
  if (!l_data || !r_data) return ScalarKind::Error;
  if (!is_data(l)) return r;
  if (!is_data(r)) return l;
  if (l == r) return l;
  if (l == ScalarKind::R) return r;
  if (r == ScalarKind::R) return l;
  // Two integer precisions (a ui8 times an i8, as in u8 x s8 dot products): integer data
  // arithmetic is computed in 32-bit int whatever the operands' widths (C's promotion, which
  // the interpreter follows), so the result is an i32 value.
  if (is_int_precision(l) && is_int_precision(r)) return ScalarKind::I32;
  return ScalarKind::Error;
}

Expr ReadNode::make(Sym name, std::vector<Expr> idx, Type type, SrcInfo s) {
  EXOCPP_ASSERT(name.valid(), "Read of an invalid symbol");
  return Expr(
      std::make_shared<ReadNode>(std::move(name), std::move(idx), std::move(type), std::move(s)));
}
Expr ConstNode::make_int(int64_t v, SrcInfo s) {
  return Expr(std::make_shared<ConstNode>(static_cast<double>(v), ScalarKind::Int, std::move(s)));
}
Expr ConstNode::make_float(double v, ScalarKind t, SrcInfo s) {
  EXOCPP_ASSERT(is_data(t), "float literal of a control type");
  return Expr(std::make_shared<ConstNode>(v, t, std::move(s)));
}
Expr ConstNode::make_bool(bool v, SrcInfo s) {
  return Expr(std::make_shared<ConstNode>(v ? 1.0 : 0.0, ScalarKind::Bool, std::move(s)));
}
bool same_constant(double a, double b) {
  return !std::isnan(a) && std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}
bool same_constant(const ConstNode& a, const ConstNode& b) {
  return a.type.base == b.type.base && same_constant(a.val, b.val);
}
Expr USubNode::make(Expr arg, SrcInfo s) {
  EXOCPP_ASSERT(arg.defined(), "USub of undefined expr");
  Type t = arg.type().is_scalar() && arg.type().base != ScalarKind::Bool ? Type(arg.type().base)
                                                                         : Type(ScalarKind::Error);
  if (t.base == ScalarKind::Size) t = Type(ScalarKind::Index);  // -n is not positive
  return Expr(std::make_shared<USubNode>(std::move(arg), std::move(t), std::move(s)));
}
Expr BinOpNode::make(BinOpKind op, Expr lhs, Expr rhs, SrcInfo s) {
  EXOCPP_ASSERT(lhs.defined() && rhs.defined(), "BinOp of undefined expr");
  ScalarKind t = binop_result_type(op, lhs, rhs);
  return Expr(std::make_shared<BinOpNode>(op, std::move(lhs), std::move(rhs), t, std::move(s)));
}
Expr ExternNode::make(std::shared_ptr<const ExternFn> fn, std::vector<Expr> args, SrcInfo s) {
  EXOCPP_ASSERT(fn != nullptr, "Extern without a function");
  ScalarKind t = fn->result_type(args);
  return Expr(std::make_shared<ExternNode>(std::move(fn), std::move(args), t, std::move(s)));
}
Expr WindowExprNode::make(Sym name, ScalarKind elem, std::vector<WAccess> idx, SrcInfo s) {
  std::vector<Expr> shape;
  for (const WAccess& w : idx) {
    EXOCPP_ASSERT(w.lo.defined(), "window access without an index");
    if (!w.is_interval) continue;
    EXOCPP_ASSERT(w.hi.defined(), "window interval without an upper bound");
    // The extent hi - lo, folded when both ends are literals or lo is literal 0.
    const ConstNode* lo = w.lo.as<ConstNode>();
    const ConstNode* hi = w.hi.as<ConstNode>();
    if (lo && hi && lo->is_int() && hi->is_int())
      shape.push_back(ConstNode::make_int(hi->int_val() - lo->int_val(), w.lo.srcinfo()));
    else if (lo && lo->is_int() && lo->int_val() == 0)
      shape.push_back(w.hi);
    else
      shape.push_back(BinOpNode::make(BinOpKind::Sub, w.hi, w.lo, w.lo.srcinfo()));
  }
  Type t(elem, std::move(shape), /*win=*/true);
  return Expr(std::make_shared<WindowExprNode>(std::move(name), std::move(idx), std::move(t),
                                               std::move(s)));
}
Expr StrideExprNode::make(Sym name, int dim, SrcInfo s) {
  return Expr(std::make_shared<StrideExprNode>(std::move(name), dim, std::move(s)));
}
Expr ReadConfigNode::make(std::shared_ptr<const ConfigNode> cfg, std::string field, SrcInfo s) {
  EXOCPP_ASSERT(cfg != nullptr, "ReadConfig without a config");
  const ConfigField* f = cfg->field(field);
  Type t = f ? Type(f->type) : Type(ScalarKind::Error);
  return Expr(std::make_shared<ReadConfigNode>(std::move(cfg), std::move(field), std::move(t),
                                               std::move(s)));
}

// ---- statements ------------------------------------------------------------------------------

Stmt AssignNode::make(Sym name, ScalarKind type, std::vector<Expr> idx, Expr rhs, SrcInfo s) {
  EXOCPP_ASSERT(rhs.defined(), "Assign without a right-hand side");
  return Stmt(std::make_shared<AssignNode>(std::move(name), type, std::move(idx), std::move(rhs),
                                           std::move(s)));
}
Stmt ReduceNode::make(Sym name, ScalarKind type, std::vector<Expr> idx, Expr rhs, SrcInfo s) {
  EXOCPP_ASSERT(rhs.defined(), "Reduce without a right-hand side");
  return Stmt(std::make_shared<ReduceNode>(std::move(name), type, std::move(idx), std::move(rhs),
                                           std::move(s)));
}
Stmt WriteConfigNode::make(std::shared_ptr<const ConfigNode> cfg, std::string field, Expr rhs,
                           SrcInfo s) {
  EXOCPP_ASSERT(cfg && rhs.defined(), "WriteConfig without config or value");
  return Stmt(std::make_shared<WriteConfigNode>(std::move(cfg), std::move(field), std::move(rhs),
                                                std::move(s)));
}
Stmt PassNode::make(SrcInfo s) { return Stmt(std::make_shared<PassNode>(std::move(s))); }
Stmt IfNode::make(Expr cond, Block body, Block orelse, SrcInfo s) {
  EXOCPP_ASSERT(cond.defined(), "If without a condition");
  EXOCPP_ASSERT(!body.empty(), "If with an empty body (use pass)");
  return Stmt(
      std::make_shared<IfNode>(std::move(cond), std::move(body), std::move(orelse), std::move(s)));
}
Stmt ForNode::make(Sym iter, Expr lo, Expr hi, Block body, LoopMode mode, SrcInfo s) {
  EXOCPP_ASSERT(lo.defined() && hi.defined(), "For without bounds");
  EXOCPP_ASSERT(!body.empty(), "For with an empty body (use pass)");
  return Stmt(std::make_shared<ForNode>(std::move(iter), std::move(lo), std::move(hi),
                                        std::move(body), mode, std::move(s)));
}
Stmt AllocNode::make(Sym name, Type type, std::string mem, SrcInfo s) {
  return Stmt(
      std::make_shared<AllocNode>(std::move(name), std::move(type), std::move(mem), std::move(s)));
}
Stmt CallNode::make(std::shared_ptr<const ProcNode> proc, std::vector<Expr> args, SrcInfo s) {
  EXOCPP_ASSERT(proc != nullptr, "Call without a callee");
  return Stmt(std::make_shared<CallNode>(std::move(proc), std::move(args), std::move(s)));
}
Stmt WindowStmtNode::make(Sym name, Expr rhs, SrcInfo s) {
  EXOCPP_ASSERT(rhs.is<WindowExprNode>(), "WindowStmt right-hand side must be a window expression");
  return Stmt(std::make_shared<WindowStmtNode>(std::move(name), std::move(rhs), std::move(s)));
}

const char* to_string(LoopMode m) {
  switch (m) {
    case LoopMode::Seq:
      return "seq";
    case LoopMode::Par:
      return "par";
    case LoopMode::CudaBlocks:
      return "cuda_blocks";
    case LoopMode::CudaThreads:
      return "cuda_threads";
    case LoopMode::CudaWarps:
      return "cuda_warps";
  }
  return "seq";
}

std::optional<LoopMode> loop_mode_named(std::string_view word) {
  for (LoopMode m : {LoopMode::Seq, LoopMode::Par, LoopMode::CudaBlocks, LoopMode::CudaThreads,
                     LoopMode::CudaWarps})
    if (word == to_string(m)) return m;
  return std::nullopt;
}

// ---- procs -------------------------------------------------------------------------------------

std::shared_ptr<const ProcNode> ProcNode::make(std::string name, std::vector<FnArg> args,
                                               std::vector<Expr> preds, Block body,
                                               std::optional<InstrInfo> instr, SrcInfo s) {
  ProcNode n;
  n.name = std::move(name);
  n.args = std::move(args);
  n.preds = std::move(preds);
  n.body = std::move(body);
  n.instr = std::move(instr);
  n.srcinfo = std::move(s);
  return make(std::move(n));
}

std::shared_ptr<const ProcNode> ProcNode::make(ProcNode fields) {
  EXOCPP_ASSERT(!fields.name.empty(), "a proc without a name");
  for (size_t i = 0; i < fields.args.size(); ++i) {
    const FnArg& a = fields.args[i];
    EXOCPP_ASSERT(a.name.valid(), "proc '" + fields.name + "': an argument without a name");
    EXOCPP_ASSERT(a.type.base != ScalarKind::Error,
                  "proc '" + fields.name + "': argument '" + a.name.name() + "' without a type");
    EXOCPP_ASSERT(a.type.is_data() != a.mem.empty(),
                  "proc '" + fields.name + "': argument '" + a.name.name() +
                      "' has a memory exactly when it holds data");
    EXOCPP_ASSERT(!a.range || (a.range->lo.defined() && a.range->hi.defined()),
                  "proc '" + fields.name + "': argument '" + a.name.name() +
                      "' has a value range without both bounds");
    for (size_t j = 0; j < i; ++j)
      EXOCPP_ASSERT(fields.args[j].name != a.name,
                    "proc '" + fields.name + "': argument '" + a.name.name() + "' bound twice");
  }
  for (const Expr& e : fields.preds)
    EXOCPP_ASSERT(e.defined(), "proc '" + fields.name + "': an undefined assert condition");
  for (const Stmt& st : fields.body)
    EXOCPP_ASSERT(st.defined(), "proc '" + fields.name + "': an undefined statement");
  return std::make_shared<const ProcNode>(std::move(fields));
}

bool has_index_args(const ProcNode& p) {
  for (const FnArg& a : p.args)
    if (a.is_index_arg()) return true;
  return false;
}

Proc::Proc(std::shared_ptr<const ProcNode> n, const Proc& parent, ForwardFn fwd)
    : node_(std::move(n)),
      history_(std::make_shared<History>(History{parent.node_, parent.history_, std::move(fwd)})) {
  EXOCPP_ASSERT(parent.defined(), "a derived proc needs a parent");
}

void Proc::throw_undefined() { throw UndefinedProcError(); }

Proc Proc::parent() const {
  Proc p;
  if (!history_) return p;
  p.node_ = history_->parent_node;
  p.history_ = history_->parent_history;
  return p;
}

// ---- configs and modules ---------------------------------------------------------------------

const ConfigField* ConfigNode::field(const std::string& f) const {
  for (const ConfigField& cf : fields)
    if (cf.name == f) return &cf;
  return nullptr;
}

Proc Module::proc(const std::string& name) const {
  for (const Proc& p : procs)
    if (p.name() == name) return p;
  std::string have;
  for (const Proc& p : procs) have += (have.empty() ? "" : ", ") + p.name();
  throw Error("error", "", {},
              "no proc named '" + name +
                  "' in this module (it has: " + (have.empty() ? "none" : have) + ")");
}

bool Module::has_proc(const std::string& name) const {
  for (const Proc& p : procs)
    if (p.name() == name) return true;
  return false;
}

Config Module::config(const std::string& name) const {
  for (const Config& c : configs)
    if (c->name == name) return c;
  throw Error("error", "", {}, "no config named '" + name + "' in this module");
}

}  // namespace exocpp
