// Private to the parser: the recursive-descent Parser class shared by core/parser.cpp
// (module, procs, statements) and core/parser_expr.cpp (types and expressions).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir.h"
#include "core/lexer.h"
#include "core/parser.h"

namespace exocpp {

// How a name was introduced; decides what may be written to it.
enum class VarKind : uint8_t { Arg, LoopIter, Alloc, Window };

struct VarInfo {
  Sym sym;
  Type type;
  VarKind kind;
  bool index_arg = false;  // an argument with a value range: its elements read as int
  // The type a read of it has: the element type, int for an index argument's element.
  Type element_type() const { return index_arg ? Type(ScalarKind::Int) : Type(type.base); }
};

// The deepest nesting of blocks, and of expression trees, the parser builds. Deeper input is a
// ParseError, so no later pass can overflow its stack on parsed IR.
inline constexpr int kMaxBlockDepth = 100;
inline constexpr int kMaxExprDepth = 200;

class Parser {
 public:
  Parser(std::shared_ptr<const SourceFile> file, const ParseOptions& opts);

  Module parse_module();
  // Parses one expression (to end of input) in the given scope.
  Expr parse_lone_expr(const std::vector<ScopeVar>& scope, bool allow_window);

  // ---- token access ----
  const Token& peek(int k = 0) const;
  const Token& next();
  bool accept_op(const char* op);
  bool accept_name(const char* kw);
  const Token& expect_op(const char* op, const std::string& context);
  const Token& expect_name_tok(const std::string& what);  // an identifier, not a keyword
  void expect_newline(const std::string& context);
  [[noreturn]] void fail(const Token& at, const std::string& msg) const;
  [[noreturn]] void fail_expected(const std::string& what, const std::string& context) const;
  SrcInfo loc(const Token& t) const { return SrcInfo{file_, t.line, t.col}; }

  // ---- scopes ----
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  const VarInfo* lookup(const std::string& name) const;
  const VarInfo& declare(const Token& name_tok, Type type, VarKind kind, bool index_arg = false);
  Config find_config(const std::string& name) const;
  std::shared_ptr<const ProcNode> find_proc(const std::string& name) const;

  // ---- types and expressions (parser_expr.cpp) ----
  // A scalar, tensor or window type; `context` completes "expected a type ...".
  Type parse_type(const char* context);
  std::string parse_mem();                         // the memory name after '@'
  ValueRange parse_value_range(const Token& arg);  // `range(lo, hi)` after `in`
  Expr parse_expr(bool allow_window = false);
  Expr parse_or();
  Expr parse_and();
  Expr parse_cmp();
  Expr parse_add();
  Expr parse_mul();
  Expr parse_unary();
  Expr parse_atom();
  Expr parse_name_expr(const Token& name);
  Expr parse_indexed(const Token& name, const VarInfo& v);
  Expr parse_config_read(const Token& name);
  Expr parse_extern_call(const Token& name);
  Expr parse_stride(const Token& name);
  std::vector<Expr> parse_call_args(const char* what);  // after '('
  void check_not_window(const Expr& e) const;
  int depth_of(const Expr& e) const;
  Expr track(Expr e, std::initializer_list<Expr> children);  // records depth, checks limit

  // ---- module, procs, statements (parser.cpp) ----
  void parse_config();
  void parse_proc(std::optional<InstrInfo> instr);
  std::optional<InstrInfo> parse_decorators();
  std::vector<FnArg> parse_args();
  Block parse_block(const std::string& context, const Token& header,
                    std::vector<Expr>* preds = nullptr);
  Stmt parse_stmt();
  Stmt parse_if(const Token& kw);
  Stmt parse_for(const Token& kw);
  Stmt parse_alloc(const Token& name);
  Stmt parse_call_stmt(const Token& name, std::shared_ptr<const ProcNode> callee);
  Stmt parse_config_write(const Token& name);
  Stmt parse_assign(const Token& name);

  static bool is_keyword(const std::string& s);

 private:
  std::shared_ptr<const SourceFile> file_;
  const ParseOptions& opts_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::vector<std::unordered_map<std::string, VarInfo>> scopes_;
  std::unordered_map<const ExprNode*, int> depth_;  // tree depth of each node built
  std::vector<Expr> keep_;  // every node built, so no address in depth_ is reused
  int expr_depth_ = 0;      // recursion depth of parse_expr / parse_unary
  int block_depth_ = 0;
  Module module_;
  int instr_tok_ = -1;  // the token of the last @instr template string (its errors point there)
};

}  // namespace exocpp
