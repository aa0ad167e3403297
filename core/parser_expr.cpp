// The parser, part 2: types, memory annotations and expressions (precedence climbing from
// `or` down to atoms), with every name resolved to its symbol.
#include <algorithm>

#include "core/errors.h"
#include "core/externs.h"
#include "core/memory.h"
#include "core/parser_internal.h"

namespace exocpp {

namespace {

// Counts recursion through parse_expr/parse_unary so deeply nested input is an error, not a
// stack overflow.
class DepthGuard {
 public:
  DepthGuard(Parser& p, int& depth, const Token& at) : depth_(depth) {
    if (++depth_ > kMaxExprDepth)
      p.fail(at, "expression nested too deeply (more than " + std::to_string(kMaxExprDepth) +
                     " levels)");
  }
  ~DepthGuard() { --depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  int& depth_;
};

std::string join(const std::vector<std::string>& xs) {
  std::string s;
  for (const std::string& x : xs) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

// ---- types -----------------------------------------------------------------------------------

Type Parser::parse_type(const char* context) {
  const Token& first = peek();
  if (accept_op("[")) {  // window: [f32][N, K]
    const Token& et = peek();
    if (et.kind != TokKind::Name)
      fail_expected("an element type such as 'f32'", "after '[' in a window type");
    next();
    auto k = scalar_kind_from_string(et.text);
    if (!k) fail(et, "unknown type '" + et.text + "' (expected " + type_names(true) + ")");
    if (!is_data(*k))
      fail(et,
           "a window's element type must be a data type (R, f32, ...), found '" + et.text + "'");
    expect_op("]", "after the window's element type");
    if (!peek().is_op("["))
      fail_expected("'[' and the window's shape",
                    "after the window's element type, as in [f32][N, 16]");
    next();
    std::vector<Expr> shape;
    do {
      shape.push_back(parse_expr());
    } while (accept_op(",") && !peek().is_op("]"));  // a trailing comma, as Python allows
    expect_op("]", "after the window's shape");
    return Type(*k, std::move(shape), /*win=*/true);
  }
  if (first.kind != TokKind::Name) {
    std::string msg = std::string("expected a type ") + context + ", found " + describe(first);
    fail(first, msg);
  }
  next();
  auto k = scalar_kind_from_string(first.text);
  if (!k) fail(first, "unknown type '" + first.text + "' (expected " + type_names(false) + ")");
  if (!peek().is_op("[")) return Type(*k);
  const Token& br = next();
  if (!is_data(*k))
    fail(br,
         "a tensor's element type must be a data type (R, f32, ...), found '" + first.text + "'");
  std::vector<Expr> shape;
  do {
    shape.push_back(parse_expr());
  } while (accept_op(",") && !peek().is_op("]"));  // a trailing comma, as Python allows
  expect_op("]", "after the tensor's shape");
  return Type(*k, std::move(shape));
}

std::string Parser::parse_mem() {
  const Token& m = peek();
  if (m.kind != TokKind::Name) fail_expected("a memory name such as 'DRAM'", "after '@'");
  next();
  if (!find_memory(m.text))
    fail(m, "unknown memory '" + m.text + "' (known memories: " + join(memory_names()) + ")");
  return m.text;
}

// `range(lo, hi)` after `name: type @ MEM in`: the values an index argument may hold.
ValueRange Parser::parse_value_range(const Token& arg) {
  const std::string ctx = "in the value range of '" + arg.text + "' (write 'in range(lo, hi)')";
  if (!accept_name("range")) fail_expected("'range'", "after 'in' " + ctx);
  expect_op("(", ctx);
  ValueRange r;
  r.lo = parse_expr();
  expect_op(",", ctx);
  r.hi = parse_expr();
  expect_op(")", ctx);
  return r;
}

// ---- expression helpers ----------------------------------------------------------------------

int Parser::depth_of(const Expr& e) const {
  auto it = depth_.find(e.get());
  return it == depth_.end() ? 1 : it->second;
}

Expr Parser::track(Expr e, std::initializer_list<Expr> children) {
  int d = 0;
  for (const Expr& c : children) d = std::max(d, depth_of(c));
  ++d;
  if (d > kMaxExprDepth)
    throw ParseError(e.srcinfo(), "expression too large (nested more than " +
                                      std::to_string(kMaxExprDepth) + " operators deep)");
  depth_[e.get()] = d;
  keep_.push_back(e);  // keeps the node alive so its address is not reused while parsing
  return e;
}

void Parser::check_not_window(const Expr& e) const {
  if (e.is<WindowExprNode>())
    throw ParseError(e.srcinfo(),
                     "a window expression (with a ':' slice) is allowed only as a proc call "
                     "argument or on the right of a window statement 'w = A[i, 0:16]'");
}

// ---- expressions -----------------------------------------------------------------------------

Expr Parser::parse_expr(bool allow_window) {
  DepthGuard g(*this, expr_depth_, peek());
  Expr e = parse_or();
  if (!allow_window) check_not_window(e);
  return e;
}

Expr Parser::parse_or() {
  Expr lhs = parse_and();
  while (peek().is_name("or")) {
    next();
    Expr rhs = parse_and();
    check_not_window(lhs);
    check_not_window(rhs);
    lhs = track(BinOpNode::make(BinOpKind::Or, lhs, rhs, lhs.srcinfo()), {lhs, rhs});
  }
  return lhs;
}

Expr Parser::parse_and() {
  Expr lhs = parse_cmp();
  while (peek().is_name("and")) {
    next();
    Expr rhs = parse_cmp();
    check_not_window(lhs);
    check_not_window(rhs);
    lhs = track(BinOpNode::make(BinOpKind::And, lhs, rhs, lhs.srcinfo()), {lhs, rhs});
  }
  return lhs;
}

static std::optional<BinOpKind> cmp_op(const Token& t) {
  if (t.kind != TokKind::Op) return std::nullopt;
  if (t.text == "<") return BinOpKind::Lt;
  if (t.text == "<=") return BinOpKind::Le;
  if (t.text == ">") return BinOpKind::Gt;
  if (t.text == ">=") return BinOpKind::Ge;
  if (t.text == "==") return BinOpKind::Eq;
  return std::nullopt;
}

Expr Parser::parse_cmp() {
  Expr lhs = parse_add();
  if (peek().is_op("!="))
    fail(peek(), "the operator '!=' is not supported; compare with '<', '<=', '>', '>=' or '=='");
  auto op = cmp_op(peek());
  if (!op) return lhs;
  next();
  Expr rhs = parse_add();
  check_not_window(lhs);
  check_not_window(rhs);
  if (cmp_op(peek()) || peek().is_op("!="))
    fail(peek(),
         "chained comparisons such as 'a < b < c' are not supported; write 'a < b and b < c'");
  return track(BinOpNode::make(*op, lhs, rhs, lhs.srcinfo()), {lhs, rhs});
}

Expr Parser::parse_add() {
  Expr lhs = parse_mul();
  while (peek().is_op("+") || peek().is_op("-")) {
    BinOpKind op = next().text == "+" ? BinOpKind::Add : BinOpKind::Sub;
    Expr rhs = parse_mul();
    check_not_window(lhs);
    check_not_window(rhs);
    lhs = track(BinOpNode::make(op, lhs, rhs, lhs.srcinfo()), {lhs, rhs});
  }
  return lhs;
}

Expr Parser::parse_mul() {
  Expr lhs = parse_unary();
  while (true) {
    const Token& t = peek();
    if (t.is_op("//"))
      fail(t, "the operator '//' is not supported; '/' on integers already rounds down");
    if (t.is_op("**")) fail(t, "the power operator '**' is not supported; multiply instead");
    BinOpKind op;
    if (t.is_op("*"))
      op = BinOpKind::Mul;
    else if (t.is_op("/"))
      op = BinOpKind::Div;
    else if (t.is_op("%"))
      op = BinOpKind::Mod;
    else
      break;
    next();
    Expr rhs = parse_unary();
    check_not_window(lhs);
    check_not_window(rhs);
    lhs = track(BinOpNode::make(op, lhs, rhs, lhs.srcinfo()), {lhs, rhs});
  }
  return lhs;
}

Expr Parser::parse_unary() {
  const Token& t = peek();
  if (t.is_name("not"))
    fail(t,
         "'not' is not supported; negate the comparison instead (e.g. 'a >= b' for 'not a < b')");
  if (!t.is_op("-")) return parse_atom();
  DepthGuard g(*this, expr_depth_, t);
  next();
  Expr arg = parse_unary();
  check_not_window(arg);
  // A negated literal is a literal, as in Exo: `-1` is Const(-1).
  if (const ConstNode* c = arg.as<ConstNode>()) {
    if (c->is_int()) return track(ConstNode::make_int(-c->int_val(), loc(t)), {});
    if (is_data(c->type.base))
      return track(ConstNode::make_float(-c->val, c->type.base, loc(t)), {});
  }
  return track(USubNode::make(arg, loc(t)), {arg});
}

Expr Parser::parse_atom() {
  const Token& t = peek();
  switch (t.kind) {
    case TokKind::Int:
      next();
      return track(ConstNode::make_int(t.int_val, loc(t)), {});
    case TokKind::Float:
      next();
      return track(ConstNode::make_float(t.float_val, ScalarKind::R, loc(t)), {});
    case TokKind::Op:
      if (t.is_op("(")) {
        next();
        Expr e = parse_expr();
        expect_op(")", "to close '('");
        return e;
      }
      break;
    case TokKind::Name:
      if (t.text == "True" || t.text == "False") {
        next();
        return track(ConstNode::make_bool(t.text == "True", loc(t)), {});
      }
      if (is_keyword(t.text)) break;
      next();
      return parse_name_expr(t);
    case TokKind::String:
    case TokKind::Newline:
    case TokKind::Indent:
    case TokKind::Dedent:
    case TokKind::Eof:
      break;
  }
  fail(t, "expected an expression, found " + describe(t));
}

Expr Parser::parse_name_expr(const Token& name) {
  const VarInfo* v = lookup(name.text);
  if (peek().is_op("(")) {
    if (name.text == "stride" && !v) return parse_stride(name);
    if (find_proc(name.text))
      fail(name, "'" + name.text + "' is a proc; a proc call is a statement, not an expression");
    return parse_extern_call(name);
  }
  if (peek().is_op(".") && !v) return parse_config_read(name);
  if (!v) {
    if (find_config(name.text))
      fail(name, "'" + name.text + "' is a config; read one of its fields with '" + name.text +
                     ".field'");
    fail(name, "undefined variable '" + name.text + "'");
  }
  if (peek().is_op("[")) return parse_indexed(name, *v);
  Type t = v->index_arg && v->type.is_scalar() ? v->element_type() : v->type;
  return track(ReadNode::make(v->sym, {}, std::move(t), loc(name)), {});
}

Expr Parser::parse_indexed(const Token& name, const VarInfo& v) {
  next();  // '['
  std::vector<WAccess> acc;
  bool any_interval = false;
  int max_child = 0;
  do {
    int dim = static_cast<int>(acc.size());
    Expr lo, hi;
    const Token& start = peek();
    if (!start.is_op(":")) {
      lo = parse_expr();
      max_child = std::max(max_child, depth_of(lo));
    }
    if (accept_op(":")) {
      any_interval = true;
      if (!lo.defined()) lo = track(ConstNode::make_int(0, loc(start)), {});
      if (peek().is_op(",") || peek().is_op("]")) {
        if (dim >= v.type.rank())
          fail(peek(), "cannot leave out the end of slice " + std::to_string(dim + 1) + ": '" +
                           name.text + "' has only " + std::to_string(v.type.rank()) +
                           " dimension" + (v.type.rank() == 1 ? "" : "s"));
        hi = v.type.shape[dim];
      } else {
        hi = parse_expr();
      }
      max_child = std::max(max_child, depth_of(hi));
      acc.push_back(WAccess::interval(lo, hi));
    } else {
      acc.push_back(WAccess::point(lo));
    }
  } while (accept_op(","));
  expect_op("]", "to close the index list");
  if (peek().is_op("["))
    fail(peek(), "index a tensor with one pair of brackets, 'A[i, j]', not 'A[i][j]'");
  Expr e;
  if (any_interval) {
    e = WindowExprNode::make(v.sym, v.type.base, std::move(acc), loc(name));
  } else {
    std::vector<Expr> idx;
    for (WAccess& a : acc) idx.push_back(a.lo);
    Type t =
        static_cast<int>(idx.size()) == v.type.rank() ? v.element_type() : Type(ScalarKind::Error);
    e = ReadNode::make(v.sym, std::move(idx), std::move(t), loc(name));
  }
  if (max_child + 1 > kMaxExprDepth)
    fail(name, "expression too large (nested more than " + std::to_string(kMaxExprDepth) +
                   " operators deep)");
  depth_[e.get()] = max_child + 1;
  keep_.push_back(e);
  return e;
}

Expr Parser::parse_config_read(const Token& name) {
  next();  // '.'
  Config cfg = find_config(name.text);
  if (!cfg) fail(name, "undefined name '" + name.text + "' (no variable or config of that name)");
  const Token& f = expect_name_tok("a field name after '" + name.text + ".'");
  if (!cfg->field(f.text)) {
    std::vector<std::string> names;
    for (const ConfigField& cf : cfg->fields) names.push_back(cf.name);
    fail(f, "config '" + cfg->name + "' has no field '" + f.text + "' (its fields: " + join(names) +
                ")");
  }
  return track(ReadConfigNode::make(cfg, f.text, loc(name)), {});
}

std::vector<Expr> Parser::parse_call_args(const char* what) {
  next();  // '('
  std::vector<Expr> args;
  if (accept_op(")")) return args;
  bool windows = std::string(what) == "proc";
  while (true) {
    args.push_back(parse_expr(windows));
    if (accept_op(",")) {
      if (accept_op(")")) break;
      continue;
    }
    expect_op(")", windows ? "after the call's arguments" : "after the function's arguments");
    break;
  }
  return args;
}

Expr Parser::parse_extern_call(const Token& name) {
  auto fn = find_extern(name.text);
  if (!fn)
    fail(name,
         "unknown function '" + name.text + "' (known functions: " + join(extern_names()) + ")");
  std::vector<Expr> args = parse_call_args("extern");
  int d = 0;
  for (const Expr& a : args) d = std::max(d, depth_of(a));
  Expr e = ExternNode::make(fn, args, loc(name));
  if (d + 1 > kMaxExprDepth)
    fail(name, "expression too large (nested more than " + std::to_string(kMaxExprDepth) +
                   " operators deep)");
  depth_[e.get()] = d + 1;
  keep_.push_back(e);
  return e;
}

Expr Parser::parse_stride(const Token& name) {
  next();  // '('
  const Token& buf = expect_name_tok("a buffer name as the first argument of stride()");
  const VarInfo* v = lookup(buf.text);
  if (!v) fail(buf, "undefined variable '" + buf.text + "'");
  if (v->type.is_scalar())
    fail(buf, "stride() needs a tensor or window, but '" + buf.text + "' is a scalar");
  expect_op(",", "after the buffer in stride(buffer, dimension)");
  const Token& d = peek();
  if (d.kind != TokKind::Int)
    fail_expected("an integer literal dimension", "as the second argument of stride()");
  next();
  if (d.int_val >= v->type.rank())
    fail(d, "dimension " + d.text + " is out of range: '" + buf.text + "' has " +
                std::to_string(v->type.rank()) + " dimension" + (v->type.rank() == 1 ? "" : "s"));
  expect_op(")", "after stride(buffer, dimension");
  return track(StrideExprNode::make(v->sym, static_cast<int>(d.int_val), loc(name)), {});
}

}  // namespace exocpp
