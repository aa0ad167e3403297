// The printer: the IR back in the surface language, in Exo's layout (LoopIR_pprint.py) with
// four-space indents, memory annotations always shown and minimal parentheses. Its output is
// what the parser reads, so parse(print(p)) prints identically.
#include "core/printer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/externs.h"

namespace exocpp {

namespace {

// Operator precedences, as in Exo: or < and < comparisons < + - < * / % < unary minus.
constexpr int kPrecOr = 10;
constexpr int kPrecAnd = 20;
constexpr int kPrecCmp = 30;
constexpr int kPrecAdd = 40;
constexpr int kPrecMul = 50;
constexpr int kPrecUnary = 60;

int precedence(BinOpKind op) {
  switch (op) {
    case BinOpKind::Or:
      return kPrecOr;
    case BinOpKind::And:
      return kPrecAnd;
    case BinOpKind::Lt:
    case BinOpKind::Le:
    case BinOpKind::Gt:
    case BinOpKind::Ge:
    case BinOpKind::Eq:
      return kPrecCmp;
    case BinOpKind::Add:
    case BinOpKind::Sub:
      return kPrecAdd;
    case BinOpKind::Mul:
    case BinOpKind::Div:
    case BinOpKind::Mod:
      return kPrecMul;
  }
  return kPrecOr;
}

std::string indent_str(int indent) { return std::string(static_cast<size_t>(indent) * 4, ' '); }

// A float literal as Python's repr() writes it: the shortest digits that read back as the same
// double, fixed notation for exponents in [-4, 16), scientific otherwise, and always a '.' or
// an 'e' so that it does not read back as an integer.
std::string float_literal(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (v == 0.0) return std::signbit(v) ? "-0.0" : "0.0";

  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // e.g. "-1.2345e-05", "5e+00"
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  size_t epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;

  std::string out;
  if (exp >= -4 && exp < 16) {
    int point = exp + 1;  // digits before the decimal point
    if (point <= 0) {
      out = "0." + std::string(static_cast<size_t>(-point), '0') + digits;
    } else if (point >= static_cast<int>(digits.size())) {
      out = digits + std::string(static_cast<size_t>(point) - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, static_cast<size_t>(point)) + "." +
            digits.substr(static_cast<size_t>(point));
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    out += ebuf;
  }
  return neg ? "-" + out : out;
}

// A string literal with the escapes the lexer reads back: \\ \" \n \t \r \0; every other
// byte stands for itself.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\0':
        out += "\\0";
        break;
      default:
        out += ch;  // other bytes stand for themselves inside a string literal
    }
  }
  return out + "\"";
}

std::string print_expr(const Expr& e, int prec);

std::string print_list(const std::vector<Expr>& es) {
  std::string out;
  for (size_t i = 0; i < es.size(); ++i) {
    if (i) out += ", ";
    out += print_expr(es[i], 0);
  }
  return out;
}

// A literal of type `base` and value `val`.
std::string print_literal(ScalarKind base, double val) {
  switch (base) {
    case ScalarKind::Bool:
      return val != 0.0 ? "True" : "False";
    case ScalarKind::Int:
    case ScalarKind::Index:
    case ScalarKind::Size:
    case ScalarKind::Stride:
      // (A value no int64 holds cannot come from make_int; print it rather than overflow.)
      if (!(std::fabs(val) < 9.2e18)) return float_literal(val);
      return std::to_string(static_cast<int64_t>(val));
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
      return float_literal(val);
  }
  return float_literal(val);
}

// The parser reads a minus in front of a literal as part of the literal (`-(-3)` is the literal
// 3). So that printing is stable under parse -> print, a chain of unary minuses over a numeric
// literal prints as the literal it folds to.
struct Literal {
  ScalarKind base;
  double val;
};
std::optional<Literal> folded_literal(const Expr& e) {
  if (const ConstNode* c = e.as<ConstNode>()) {
    if (c->type.base == ScalarKind::Bool) return std::nullopt;
    return Literal{c->type.base, c->val};
  }
  if (const USubNode* u = e.as<USubNode>()) {
    if (!u->arg.defined()) return std::nullopt;
    if (auto lit = folded_literal(u->arg)) return Literal{lit->base, -lit->val};
  }
  return std::nullopt;
}

std::string print_expr(const Expr& e, int prec) {
  if (!e.defined()) return "<undefined>";
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* n = e.as<ReadNode>();
      if (n->idx.empty()) return n->name.name();
      return n->name.name() + "[" + print_list(n->idx) + "]";
    }
    case ExprKind::Const: {
      const ConstNode* c = e.as<ConstNode>();
      return print_literal(c->type.base, c->val);
    }
    case ExprKind::USub: {
      if (auto lit = folded_literal(e)) return print_literal(lit->base, lit->val);
      const USubNode* n = e.as<USubNode>();
      // A nested minus prints as `--x`, not `-(-x)`: the parser counts every parenthesis as a
      // nesting level, so adding them could push a deep chain past its depth limit.
      std::string arg = print_expr(n->arg, kPrecUnary);
      std::string s = "-" + arg;
      return prec > kPrecUnary ? "(" + s + ")" : s;
    }
    case ExprKind::BinOp: {
      const BinOpNode* n = e.as<BinOpNode>();
      int p = precedence(n->op);
      // Left-associative: a right operand of equal precedence keeps its parentheses.
      // Comparisons do not chain: an operand that is itself a comparison keeps them too.
      int lhs_prec = is_comparison(n->op) ? p + 1 : p;
      std::string s =
          print_expr(n->lhs, lhs_prec) + " " + to_string(n->op) + " " + print_expr(n->rhs, p + 1);
      return p < prec ? "(" + s + ")" : s;
    }
    case ExprKind::Extern: {
      const ExternNode* n = e.as<ExternNode>();
      std::string name = n->fn ? n->fn->name() : "<extern>";
      return name + "(" + print_list(n->args) + ")";
    }
    case ExprKind::WindowExpr: {
      const WindowExprNode* n = e.as<WindowExprNode>();
      std::string out = n->name.name() + "[";
      for (size_t i = 0; i < n->idx.size(); ++i) {
        if (i) out += ", ";
        const WAccess& w = n->idx[i];
        out += print_expr(w.lo, 0);
        if (w.is_interval) out += ":" + print_expr(w.hi, 0);
      }
      return out + "]";
    }
    case ExprKind::StrideExpr: {
      const StrideExprNode* n = e.as<StrideExprNode>();
      return "stride(" + n->name.name() + ", " + std::to_string(n->dim) + ")";
    }
    case ExprKind::ReadConfig: {
      const ReadConfigNode* n = e.as<ReadConfigNode>();
      return (n->config ? n->config->name : "<config>") + "." + n->field;
    }
  }
  return "<?>";
}

void print_block(std::string& out, const Block& b, int indent);

void print_stmt(std::string& out, const Stmt& s, int indent) {
  std::string tab = indent_str(indent);
  if (!s.defined()) {
    out += tab + "<undefined>\n";
    return;
  }
  switch (s.kind()) {
    case StmtKind::Assign:
    case StmtKind::Reduce: {
      bool assign = s.kind() == StmtKind::Assign;
      const Sym& name = assign ? s.as<AssignNode>()->name : s.as<ReduceNode>()->name;
      const std::vector<Expr>& idx = assign ? s.as<AssignNode>()->idx : s.as<ReduceNode>()->idx;
      const Expr& rhs = assign ? s.as<AssignNode>()->rhs : s.as<ReduceNode>()->rhs;
      out += tab + name.name();
      if (!idx.empty()) out += "[" + print_list(idx) + "]";
      out += (assign ? " = " : " += ") + print_expr(rhs, 0) + "\n";
      return;
    }
    case StmtKind::WriteConfig: {
      const WriteConfigNode* n = s.as<WriteConfigNode>();
      out += tab + (n->config ? n->config->name : "<config>") + "." + n->field + " = " +
             print_expr(n->rhs, 0) + "\n";
      return;
    }
    case StmtKind::Pass:
      out += tab + "pass\n";
      return;
    case StmtKind::If: {
      const IfNode* n = s.as<IfNode>();
      out += tab + "if " + print_expr(n->cond, 0) + ":\n";
      print_block(out, n->body, indent + 1);
      if (!n->orelse.empty()) {
        out += tab + "else:\n";
        print_block(out, n->orelse, indent + 1);
      }
      return;
    }
    case StmtKind::For: {
      const ForNode* n = s.as<ForNode>();
      out += tab + "for " + n->iter.name() + " in " + to_string(n->mode) + "(" +
             print_expr(n->lo, 0) + ", " + print_expr(n->hi, 0) + "):\n";
      print_block(out, n->body, indent + 1);
      return;
    }
    case StmtKind::Alloc: {
      const AllocNode* n = s.as<AllocNode>();
      out += tab + n->name.name() + ": " + to_string(n->type) + " @ " +
             (n->mem.empty() ? std::string("DRAM") : n->mem) + "\n";
      return;
    }
    case StmtKind::Call: {
      const CallNode* n = s.as<CallNode>();
      out += tab + (n->proc ? n->proc->name : "<proc>") + "(" + print_list(n->args) + ")\n";
      return;
    }
    case StmtKind::WindowStmt: {
      const WindowStmtNode* n = s.as<WindowStmtNode>();
      out += tab + n->name.name() + " = " + print_expr(n->rhs, 0) + "\n";
      return;
    }
  }
}

void print_block(std::string& out, const Block& b, int indent) {
  if (b.empty()) {
    out += indent_str(indent) + "pass\n";  // an empty block is not valid syntax
    return;
  }
  for (const Stmt& s : b) print_stmt(out, s, indent);
}

}  // namespace

std::string to_string(const Type& t) {
  std::string base = to_string(t.base);
  if (t.window) base = "[" + base + "]";
  if (t.shape.empty() && !t.window) return base;
  return base + "[" + print_list(t.shape) + "]";
}

std::string to_string(const Expr& e) { return print_expr(e, 0); }

std::string to_string(const Stmt& s, int indent) {
  std::string out;
  print_stmt(out, s, indent);
  return out;
}

std::string to_string(const Block& b, int indent) {
  std::string out;
  for (const Stmt& s : b) print_stmt(out, s, indent);
  return out;
}

std::string to_string(const Proc& p) {
  if (!p.defined()) return "<undefined proc>\n";
  const ProcNode& n = *p.get();
  std::string out;
  if (n.instr) {
    out += "@instr(" + quoted(n.instr->c_instr);
    if (!n.instr->c_global.empty()) out += ", c_global=" + quoted(n.instr->c_global);
    if (!n.instr->sync.empty()) out += ", sync=" + quoted(n.instr->sync);
    if (!n.instr->collective.empty()) out += ", collective=" + quoted(n.instr->collective);
    if (!n.instr->async.empty()) out += ", async=" + quoted(n.instr->async);
    out += ")\n";
  }
  // The argument list fills lines of at most 79 columns, continuing under the first argument,
  // as Exo's printer (yapf) lays it out.
  const std::string head = "def " + n.name + "(";
  std::string line = head;
  for (size_t i = 0; i < n.args.size(); ++i) {
    const FnArg& a = n.args[i];
    std::string arg = a.name.name() + ": " + to_string(a.type);
    // Data arguments always show their memory (the parser's default is DRAM); control
    // arguments never have one.
    if (!a.type.is_control()) arg += " @ " + (a.mem.empty() ? std::string("DRAM") : a.mem);
    if (a.range)
      arg += " in range(" + print_expr(a.range->lo, 0) + ", " + print_expr(a.range->hi, 0) + ")";
    arg += i + 1 == n.args.size() ? "):" : ",";
    if (i == 0 || line.size() + 1 + arg.size() <= 79) {
      line += (i == 0 ? "" : " ") + arg;
    } else {
      out += line + "\n";
      line = std::string(head.size(), ' ') + arg;
    }
  }
  if (n.args.empty()) line += "):";
  out += line + "\n";
  for (const Expr& pred : n.preds) out += indent_str(1) + "assert " + print_expr(pred, 0) + "\n";
  if (n.body.empty())
    out += indent_str(1) + "pass\n";  // an empty body is not valid syntax
  else
    for (const Stmt& s : n.body) print_stmt(out, s, 1);
  return out;
}

std::string to_string(const Config& c) {
  if (!c) return "<undefined config>\n";
  std::string out = "config " + c->name + ":\n";
  if (c->fields.empty()) out += indent_str(1) + "pass\n";
  for (const ConfigField& f : c->fields)
    out += indent_str(1) + f.name + ": " + to_string(f.type) + "\n";
  return out;
}

std::string to_string(const Module& m) {
  std::string out;
  for (const Config& c : m.configs) {
    if (!out.empty()) out += "\n";
    out += to_string(c);
  }
  for (const Proc& p : m.procs) {
    if (!out.empty()) out += "\n";
    out += to_string(p);
  }
  return out;
}

std::ostream& operator<<(std::ostream& os, const Expr& e) { return os << to_string(e); }
std::ostream& operator<<(std::ostream& os, const Stmt& s) { return os << to_string(s); }
std::ostream& operator<<(std::ostream& os, const Proc& p) { return os << to_string(p); }
std::ostream& operator<<(std::ostream& os, const Module& m) { return os << to_string(m); }

}  // namespace exocpp
