// The parser, part 1: token access, scopes, the module level (configs, decorators, procs) and
// statements. Expressions and types are in core/parser_expr.cpp.
#include "core/parser.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/externs.h"
#include "core/memory.h"
#include "core/parser_internal.h"
#include "core/typecheck.h"

namespace exocpp {

Parser::Parser(std::shared_ptr<const SourceFile> file, const ParseOptions& opts)
    : file_(std::move(file)), opts_(opts) {
  toks_ = tokenize(file_);
}

// ---- token access ----------------------------------------------------------------------------

const Token& Parser::peek(int k) const {
  size_t i = pos_ + static_cast<size_t>(k);
  return i < toks_.size() ? toks_[i] : toks_.back();  // the last token is always Eof
}

const Token& Parser::next() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;
  return t;
}

bool Parser::accept_op(const char* op) {
  if (!peek().is_op(op)) return false;
  next();
  return true;
}

bool Parser::accept_name(const char* kw) {
  if (!peek().is_name(kw)) return false;
  next();
  return true;
}

void Parser::fail(const Token& at, const std::string& msg) const { throw ParseError(loc(at), msg); }

void Parser::fail_expected(const std::string& what, const std::string& context) const {
  fail(peek(), "expected " + what + " " + context + ", found " + describe(peek()));
}

const Token& Parser::expect_op(const char* op, const std::string& context) {
  if (!peek().is_op(op)) fail_expected(std::string("'") + op + "'", context);
  return next();
}

const Token& Parser::expect_name_tok(const std::string& what) {
  const Token& t = peek();
  if (t.kind != TokKind::Name) fail(t, "expected " + what + ", found " + describe(t));
  if (is_keyword(t.text)) fail(t, "expected " + what + ", found the keyword '" + t.text + "'");
  return next();
}

void Parser::expect_newline(const std::string& context) {
  if (peek().kind != TokKind::Newline) fail_expected("end of line", context);
  next();
}

bool Parser::is_keyword(const std::string& s) { return exocpp::is_keyword(s); }

bool is_keyword(const std::string& s) {
  static const char* kws[] = {"def",  "config", "for",    "in",     "if",       "elif",    "else",
                              "pass", "assert", "and",    "or",     "not",      "True",    "False",
                              "None", "return", "while",  "break",  "continue", "class",   "import",
                              "from", "as",     "is",     "lambda", "with",     "yield",   "global",
                              "del",  "try",    "except", "raise",  "finally",  "nonlocal"};
  for (const char* k : kws)
    if (s == k) return true;
  return false;
}

// ---- scopes ----------------------------------------------------------------------------------

const VarInfo* Parser::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

const VarInfo& Parser::declare(const Token& name_tok, Type type, VarKind kind, bool index_arg) {
  VarInfo v{Sym(name_tok.text), std::move(type), kind, index_arg};
  auto& scope = scopes_.back();
  scope.insert_or_assign(name_tok.text, std::move(v));
  return scope.at(name_tok.text);
}

Config Parser::find_config(const std::string& name) const {
  for (const Config& c : module_.configs)
    if (c->name == name) return c;
  for (const Config& c : opts_.configs)
    if (c && c->name == name) return c;
  return nullptr;
}

std::shared_ptr<const ProcNode> Parser::find_proc(const std::string& name) const {
  for (const Proc& p : module_.procs)
    if (p.name() == name) return p.ptr();
  for (const Proc& p : opts_.procs)
    if (p.defined() && p.name() == name) return p.ptr();
  return nullptr;
}

// ---- module level ----------------------------------------------------------------------------

Module Parser::parse_module() {
  while (true) {
    const Token& t = peek();
    switch (t.kind) {
      case TokKind::Newline:
        next();
        continue;
      case TokKind::Eof:
        return std::move(module_);
      case TokKind::Indent:
        fail(t, "unexpected indentation at the top level");
      case TokKind::Name:
        if (t.text == "config") {
          parse_config();
          continue;
        }
        if (t.text == "def") {
          parse_proc(std::nullopt);
          continue;
        }
        break;
      case TokKind::Op:
        if (t.text == "@") {
          auto instr = parse_decorators();
          parse_proc(std::move(instr));
          continue;
        }
        break;
      case TokKind::Int:
      case TokKind::Float:
      case TokKind::String:
      case TokKind::Dedent:
        break;
    }
    fail(t, "expected 'def', 'config' or a decorator at the top level, found " + describe(t));
  }
}

void Parser::parse_config() {
  const Token& kw = next();  // 'config'
  const Token& name = expect_name_tok("a config name after 'config'");
  for (const Config& c : module_.configs)
    if (c->name == name.text)
      fail(name, "config '" + name.text + "' is already defined at line " +
                     std::to_string(c->srcinfo.line));
  auto cfg = std::make_shared<ConfigNode>();
  cfg->name = name.text;
  cfg->srcinfo = loc(kw);
  expect_op(":", "after 'config " + name.text + "'");
  expect_newline("after 'config " + name.text + ":' (list the fields on the following lines)");
  if (peek().kind != TokKind::Indent)
    fail_expected("an indented list of fields", "after 'config " + name.text + ":'");
  next();
  while (peek().kind != TokKind::Dedent && peek().kind != TokKind::Eof) {
    if (peek().is_name("pass")) {  // an empty config
      next();
      expect_newline("after 'pass'");
      continue;
    }
    const Token& f = expect_name_tok("a config field (write 'field: type')");
    if (cfg->field(f.text))
      fail(f, "config '" + name.text + "' already has a field '" + f.text + "'");
    expect_op(":", "after the field name '" + f.text + "'");
    const Token& tt = peek();
    Type t = parse_type("for the config field");
    if (!t.is_scalar())
      fail(tt, "config field '" + f.text + "' must have a scalar type, not a tensor or window");
    cfg->fields.push_back({f.text, t.base});
    expect_newline("after the config field '" + f.text + "'");
  }
  next();  // Dedent
  module_.configs.push_back(std::move(cfg));
}

// Reads `@instr("...")` / `@instr("...", c_global=, sync=, collective=, async=)` / `@proc` lines up
// to the `def`. Returns the instruction info, if any.
std::optional<InstrInfo> Parser::parse_decorators() {
  std::optional<InstrInfo> instr;
  auto read_string = [&](const std::string& context) {
    if (peek().kind != TokKind::String) fail_expected("a string", context);
    std::string s = next().text;
    while (peek().kind == TokKind::String) s += next().text;  // adjacent literals concatenate
    return s;
  };
  while (peek().is_op("@")) {
    next();
    const Token& d = peek();
    if (d.kind != TokKind::Name) fail_expected("a decorator name ('instr' or 'proc')", "after '@'");
    next();
    if (d.text == "proc") {
      // accepted for compatibility with Exo sources; procs need no decorator
    } else if (d.text == "instr") {
      if (instr) fail(d, "a proc can have only one @instr decorator");
      expect_op("(", "after '@instr'");
      InstrInfo info;
      instr_tok_ = static_cast<int>(pos_);
      info.c_instr = read_string("(the C template) in @instr(...)");
      while (accept_op(",")) {
        if (peek().is_op(")")) break;
        const Token& kw = expect_name_tok("a keyword argument of @instr");
        if (kw.text == "c_global") {
          expect_op("=", "after 'c_global'");
          info.c_global = read_string("after 'c_global='");
        } else if (kw.text == "sync") {
          expect_op("=", "after 'sync'");
          const Token& at = peek();
          info.sync = read_string("after 'sync='");
          if (info.sync != "cuda_block" && info.sync != "cuda_warp" &&
              info.sync != "cuda_block_async")
            fail(at, "sync= must be \"cuda_block\", \"cuda_warp\" or \"cuda_block_async\", got \"" +
                         info.sync + "\"");
        } else if (kw.text == "async") {
          expect_op("=", "after 'async'");
          const Token& at = peek();
          info.async = read_string("after 'async='");
          if (info.async != "cuda") fail(at, "async= must be \"cuda\", got \"" + info.async + "\"");
        } else if (kw.text == "collective") {
          expect_op("=", "after 'collective'");
          const Token& at = peek();
          info.collective = read_string("after 'collective='");
          if (info.collective != "cuda_warp")
            fail(at, "collective= must be \"cuda_warp\", got \"" + info.collective + "\"");
        } else {
          fail(kw, "unknown keyword argument '" + kw.text +
                       "' of @instr (expected 'c_global', 'sync', 'collective' or 'async')");
        }
      }
      expect_op(")", "to close @instr(...)");
      instr = std::move(info);
    } else {
      fail(d, "unknown decorator '@" + d.text + "' (expected @instr(\"...\") or @proc)");
    }
    expect_newline("after the decorator");
    while (peek().kind == TokKind::Newline) next();
  }
  if (!peek().is_name("def")) fail_expected("'def'", "after the decorator");
  return instr;
}

void Parser::parse_proc(std::optional<InstrInfo> instr) {
  const Token& kw = next();  // 'def'
  const Token& name = expect_name_tok("a proc name after 'def'");
  for (const Proc& p : module_.procs)
    if (p.name() == name.text)
      fail(name, "proc '" + name.text + "' is already defined at line " +
                     std::to_string(p->srcinfo.line));
  auto proc = std::make_shared<ProcNode>();
  proc->name = name.text;
  proc->srcinfo = loc(kw);
  proc->instr = std::move(instr);
  scopes_.clear();
  depth_.clear();
  keep_.clear();
  push_scope();
  expect_op("(", "after the proc name '" + name.text + "'");
  proc->args = parse_args();
  if (accept_op("->")) {
    const Token& r = peek();
    if (!r.is_name("None")) fail(r, "procs return nothing: only '-> None' is allowed");
    next();
  }
  proc->body = parse_block("after the proc header 'def " + name.text + "(...)'", kw, &proc->preds);
  pop_scope();
  if (proc->instr)
    if (std::string why = instr_template_problem(*proc, proc->instr->c_instr); !why.empty())
      fail(toks_[static_cast<size_t>(instr_tok_)],
           "@instr template of '" + proc->name + "': " + why);
  Proc p(ProcNode::make(std::move(*proc)));
  if (opts_.typecheck) typecheck(p);
  module_.procs.push_back(std::move(p));
}

std::vector<FnArg> Parser::parse_args() {
  std::vector<FnArg> args;
  while (!accept_op(")")) {
    const Token& n = expect_name_tok("an argument name");
    for (const FnArg& a : args)
      if (a.name.name() == n.text) fail(n, "duplicate argument '" + n.text + "'");
    expect_op(":", "after the argument name '" + n.text + "' (write 'name: type')");
    Type t = parse_type(("for the argument '" + n.text + "'").c_str());
    std::string mem;
    if (peek().is_op("@")) {
      const Token& at = next();
      if (t.is_control())
        fail(at, "the control argument '" + n.text + "' (" + to_string(t.base) +
                     ") cannot have a memory annotation");
      mem = parse_mem();
    } else if (!t.is_control()) {
      mem = "DRAM";
    }
    std::optional<ValueRange> range;
    if (accept_name("in")) {
      if (!is_int_precision(t.base))
        fail(n, "only integer data (i8, ui8, ui16, i32) can declare a value range, but '" + n.text +
                    "' is " + to_string(t));
      range = parse_value_range(n);
    }
    const VarInfo& v = declare(n, t, VarKind::Arg, range.has_value());
    args.push_back(FnArg{v.sym, t, mem, loc(n), range});
    if (peek().is_op(")")) continue;
    expect_op(",", "between arguments");
  }
  return args;
}

// ---- statements ------------------------------------------------------------------------------

// `: NEWLINE INDENT stmt+ DEDENT`. With `preds`, leading `assert` lines go there.
Block Parser::parse_block(const std::string& context, const Token& header,
                          std::vector<Expr>* preds) {
  expect_op(":", context);
  expect_newline("after ':' (the body goes on the following lines, indented)");
  if (peek().kind != TokKind::Indent)
    fail_expected("an indented block", "after line " + std::to_string(header.line));
  next();
  if (++block_depth_ > kMaxBlockDepth)
    fail(header,
         "blocks nested too deeply (more than " + std::to_string(kMaxBlockDepth) + " levels)");
  push_scope();
  if (preds) {
    while (peek().is_name("assert")) {
      next();
      preds->push_back(parse_expr());
      expect_newline("after the assert condition");
    }
  }
  Block body;
  while (peek().kind != TokKind::Dedent && peek().kind != TokKind::Eof)
    body.push_back(parse_stmt());
  if (body.empty()) {
    if (preds && !preds->empty())
      fail(peek(), "the proc body has only asserts; add at least one statement (e.g. 'pass')");
    fail(peek(), "empty block");  // unreachable: an Indent is always followed by a token
  }
  next();  // Dedent
  pop_scope();
  --block_depth_;
  return body;
}

Stmt Parser::parse_stmt() {
  const Token& t = peek();
  if (t.kind == TokKind::Indent) fail(t, "unexpected indentation");
  if (t.kind != TokKind::Name) fail(t, "expected a statement, found " + describe(t));
  if (t.text == "pass") {
    next();
    expect_newline("after 'pass'");
    return PassNode::make(loc(t));
  }
  if (t.text == "if") return parse_if(next());
  if (t.text == "for") return parse_for(next());
  if (t.text == "assert")
    fail(t, "'assert' must come first in a proc body, before every other statement");
  if (t.text == "else" || t.text == "elif") fail(t, "'" + t.text + "' without a matching 'if'");
  if (t.text == "def" || t.text == "config")
    fail(t, "'" + t.text + "' is allowed only at the top level, not inside a proc");
  if (is_keyword(t.text)) fail(t, "expected a statement, found the keyword '" + t.text + "'");
  next();
  const Token& after = peek();
  if (after.is_op(":")) return parse_alloc(t);
  if (after.is_op("(")) {
    if (auto callee = find_proc(t.text)) return parse_call_stmt(t, callee);
    if (find_extern(t.text))
      fail(t, "'" + t.text + "' is an extern function; its result must be used in an expression");
    fail(t, "unknown proc '" + t.text + "' (procs must be defined before they are called)");
  }
  if (after.is_op(".")) return parse_config_write(t);
  if (after.is_op("[") || after.is_op("=") || after.is_op("+=")) return parse_assign(t);
  if (after.is_op("-=") || after.is_op("*=") || after.is_op("/="))
    fail(after, "the operator '" + after.text + "' is not supported; only '=' and '+=' are");
  fail(after, "expected '=', '+=', ':' or '(' after '" + t.text + "', found " + describe(after));
}

Stmt Parser::parse_if(const Token& kw) {
  Expr cond = parse_expr();
  Block body = parse_block("after the 'if' condition", kw);
  Block orelse;
  if (peek().is_name("elif")) {
    const Token& e = next();
    if (block_depth_ + 1 > kMaxBlockDepth)
      fail(e, "blocks nested too deeply (more than " + std::to_string(kMaxBlockDepth) + " levels)");
    ++block_depth_;
    orelse.push_back(parse_if(e));
    --block_depth_;
  } else if (peek().is_name("else")) {
    const Token& e = next();
    orelse = parse_block("after 'else'", e);
  }
  return IfNode::make(cond, std::move(body), std::move(orelse), loc(kw));
}

Stmt Parser::parse_for(const Token& kw) {
  const Token& it = expect_name_tok("a loop variable name after 'for'");
  if (!accept_name("in")) fail_expected("'in'", "after the loop variable '" + it.text + "'");
  const Token& mode_tok = peek();
  std::optional<LoopMode> named =
      mode_tok.kind == TokKind::Name ? loop_mode_named(mode_tok.text) : std::nullopt;
  if (!named)
    fail_expected("a loop mode ('seq', 'par', 'cuda_blocks', 'cuda_threads' or 'cuda_warps')",
                  "after 'in'");
  next();
  LoopMode mode = *named;
  expect_op("(", "after '" + mode_tok.text + "'");
  Expr lo = parse_expr();
  expect_op(",", "between the loop bounds (write " + mode_tok.text + "(lo, hi))");
  Expr hi = parse_expr();
  expect_op(")", "after the loop bounds");
  push_scope();
  Sym iter = declare(it, Type(ScalarKind::Index), VarKind::LoopIter).sym;
  Block body = parse_block("after the loop header", kw);
  pop_scope();
  return ForNode::make(iter, lo, hi, std::move(body), mode, loc(kw));
}

Stmt Parser::parse_alloc(const Token& name) {
  if (is_keyword(name.text))
    fail(name, "'" + name.text + "' is a keyword and cannot be a variable name");
  next();  // ':'
  const Token& tt = peek();
  Type t = parse_type(("for '" + name.text + "'").c_str());
  if (t.window) fail(tt, "cannot allocate a window type; allocate a tensor such as f32[16]");
  if (!t.is_data())
    fail(tt, "cannot allocate '" + name.text + "' of control type '" + to_string(t.base) +
                 "'; only data types (R, f32, ...) can be allocated");
  std::string mem = "DRAM";
  if (accept_op("@")) mem = parse_mem();
  expect_newline("after the allocation of '" + name.text + "'");
  Sym s = declare(name, t, VarKind::Alloc).sym;
  return AllocNode::make(s, std::move(t), std::move(mem), loc(name));
}

Stmt Parser::parse_call_stmt(const Token& name, std::shared_ptr<const ProcNode> callee) {
  std::vector<Expr> args = parse_call_args("proc");
  expect_newline("after the call to '" + name.text + "'");
  return CallNode::make(std::move(callee), std::move(args), loc(name));
}

Stmt Parser::parse_config_write(const Token& name) {
  if (lookup(name.text))
    fail(name, "'" + name.text +
                   "' is a variable, not a config; only config fields are written with '.'");
  Config cfg = find_config(name.text);
  if (!cfg) fail(name, "unknown config '" + name.text + "'");
  next();  // '.'
  const Token& f = expect_name_tok("a field name after '" + name.text + ".'");
  if (!cfg->field(f.text)) {
    std::string names;
    for (const ConfigField& cf : cfg->fields) names += (names.empty() ? "" : ", ") + cf.name;
    fail(f, "config '" + cfg->name + "' has no field '" + f.text + "' (its fields: " + names + ")");
  }
  if (peek().is_op("+="))
    fail(peek(), "a config field can only be assigned with '=', not reduced with '+='");
  expect_op("=", "after '" + name.text + "." + f.text + "'");
  Expr rhs = parse_expr();
  expect_newline("after the config write");
  return WriteConfigNode::make(cfg, f.text, rhs, loc(name));
}

Stmt Parser::parse_assign(const Token& name) {
  const VarInfo* v = lookup(name.text);
  std::vector<Expr> idx;
  if (accept_op("[")) {
    if (!v) fail(name, "undefined variable '" + name.text + "'");
    do {
      Expr e = parse_expr();
      if (peek().is_op(":"))
        fail(peek(),
             "cannot assign to a slice; assign element by element or call a proc with the window");
      idx.push_back(e);
    } while (accept_op(","));
    expect_op("]", "to close the index list");
  }
  const Token& op = peek();
  if (op.is_op("[") && !idx.empty())
    fail(op, "index a tensor with one pair of brackets, 'A[i, j]', not 'A[i][j]'");
  if (op.is_op("-=") || op.is_op("*=") || op.is_op("/="))
    fail(op, "the operator '" + op.text + "' is not supported; only '=' and '+=' are");
  if (!op.is_op("=") && !op.is_op("+="))
    fail_expected("'=' or '+='", "after '" + name.text + (idx.empty() ? "'" : "[...]'"));
  next();
  bool reduce = op.text == "+=";
  Expr rhs = parse_expr(/*allow_window=*/!reduce && idx.empty());
  if (rhs.is<WindowExprNode>()) {  // window statement: a new name for the window
    expect_newline("after the window statement");
    Sym s = declare(name, rhs.type(), VarKind::Window).sym;
    return WindowStmtNode::make(s, rhs, loc(name));
  }
  if (!v)
    fail(name,
         "undefined variable '" + name.text + "' (declare it first, e.g. '" + name.text + ": R')");
  if (v->kind == VarKind::LoopIter)
    fail(name, "cannot assign to the loop variable '" + name.text + "'");
  if (v->kind == VarKind::Arg && v->type.is_control())
    fail(name, "cannot assign to '" + name.text + "': it is a " + to_string(v->type.base) +
                   " argument, and control arguments are read-only");
  expect_newline(reduce ? "after the reduction" : "after the assignment");
  if (reduce) return ReduceNode::make(v->sym, v->type.base, std::move(idx), rhs, loc(name));
  return AssignNode::make(v->sym, v->type.base, std::move(idx), rhs, loc(name));
}

Expr Parser::parse_lone_expr(const std::vector<ScopeVar>& scope, bool allow_window) {
  scopes_.clear();
  push_scope();
  for (const ScopeVar& v : scope) {
    if (!v.sym.valid()) continue;
    scopes_.back().insert_or_assign(v.sym.name(),
                                    VarInfo{v.sym, v.type, VarKind::Alloc, v.index_arg});
  }
  if (peek().kind == TokKind::Indent) fail(peek(), "unexpected indentation before the expression");
  Expr e = parse_expr(allow_window);
  if (peek().kind == TokKind::Newline) next();
  if (peek().kind != TokKind::Eof)
    fail(peek(), "unexpected " + describe(peek()) + " after the expression");
  return e;
}

// ---- entry points ----------------------------------------------------------------------------

Module parse_module(const std::string& source, const ParseOptions& opts,
                    const std::string& filename) {
  auto file = std::make_shared<SourceFile>();
  file->name = filename;
  file->text = source;
  Parser p(std::move(file), opts);
  return p.parse_module();
}

Expr parse_expr(const std::string& text, const std::vector<ScopeVar>& scope,
                const ParseOptions& opts, bool allow_window, const std::string& filename) {
  auto file = std::make_shared<SourceFile>();
  file->name = filename;
  file->text = text;
  Parser p(std::move(file), opts);
  return p.parse_lone_expr(scope, allow_window);
}

namespace {

// Reads at most kMaxSourceBytes of `path`; more is an error, so an endless input (/dev/zero, a
// device or pipe that never ends) stops with a message instead of filling memory. Works the
// same for regular files, devices and pipes.
std::string read_source_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ParseError(SrcInfo{}, "cannot parse '" + path + "': it is a directory, not a .exo file");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int err = errno;
    throw ParseError(SrcInfo{}, "cannot open '" + path + "': " + std::strerror(err));
  }
  std::string text;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    std::streamsize n = in.gcount();
    if (n <= 0) break;
    if (text.size() + static_cast<size_t>(n) > kMaxSourceBytes)
      throw ParseError(SrcInfo{}, "cannot parse '" + path + "': it is larger than the limit of " +
                                      std::to_string(kMaxSourceBytes) + " bytes (" +
                                      std::to_string(kMaxSourceBytes >> 20) +
                                      " MiB) for a source file, or an endless input");
    text.append(buf.data(), static_cast<size_t>(n));
  }
  if (in.bad()) throw ParseError(SrcInfo{}, "cannot read '" + path + "'");
  return text;
}

// A NUL byte means binary input (the lexer would skip one inside a comment): refused at its
// line and column.
void reject_binary(const std::shared_ptr<const SourceFile>& file) {
  size_t at = file->text.find('\0');
  if (at == std::string::npos) return;
  size_t line_start = file->text.rfind('\n', at);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  int line =
      1 + static_cast<int>(std::count(file->text.begin(),
                                      file->text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  int col = 1 + static_cast<int>(at - line_start);
  throw ParseError(SrcInfo{file, line, col},
                   "unexpected byte 0x00 (NUL): '" + file->name +
                       "' looks like a binary file, not procedure source text");
}

}  // namespace

Module parse_file(const std::string& path, const ParseOptions& opts) {
  auto file = std::make_shared<SourceFile>();
  file->name = path;
  file->text = read_source_file(path);
  reject_binary(file);
  Parser p(std::move(file), opts);
  return p.parse_module();
}

}  // namespace exocpp
