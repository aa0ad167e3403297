// The pattern-string parser: splits off a trailing "#n", tokenizes the rest with the procedure
// language's lexer (core/lexer.h), and builds the pattern AST of core/pattern_internal.h.
//
//   pattern  ::= item (';' item)* ('#' INT)?
//   item     ::= stmt | expr                       (an expr only when it is the only item)
//   stmt     ::= '_' | 'pass'
//              | 'for' NAME 'in' range ':' body     range ::= '_' | ('seq'|'par') '(' e ',' e ')'
//              | 'if' e ':' body
//              | NAME ':' type                      type  ::= '_' | (SCALAR|'_') ['[' e, ... ']']
//              ['@' NAME] | NAME '.' NAME '=' e | NAME ['[' idx ']'] ('=' | '+=') e | NAME '(' e,
//              ... ')'               (a proc call; an extern's name makes it an expr)
//   body     ::= stmt (';' stmt)*                  (as in Python, the rest of the line)
//   e        ::= the expression grammar, with '_' for any expression; 'lo:hi' in index lists
#include <cctype>

#include "core/errors.h"
#include "core/externs.h"
#include "core/lexer.h"
#include "core/pattern_internal.h"

namespace exocpp::pattern {

namespace {

constexpr int kMaxPatternDepth = 200;
constexpr int64_t kMaxMatchNo = 1000000000;

bool is_keyword(const std::string& s) {
  static const char* kws[] = {"def",  "config", "for",    "in",     "if",   "elif",
                              "else", "pass",   "assert", "and",    "or",   "not",
                              "True", "False",  "None",   "return", "while"};
  for (const char* k : kws)
    if (s == k) return true;
  return false;
}

EPatPtr hole() { return std::make_shared<EPat>(); }

class PatternParser {
 public:
  PatternParser(std::shared_ptr<const SourceFile> file, std::vector<Token> toks, std::string text)
      : file_(std::move(file)), toks_(std::move(toks)), text_(std::move(text)) {}

  Pattern run() {
    Pattern pat;
    pat.text = text_;
    std::vector<Item> items;
    items.push_back(parse_item());
    while (accept_op(";")) items.push_back(parse_item(/*in_sequence=*/true));
    if (peek().kind != TokKind::Eof) fail(peek(), "unexpected " + describe(peek()));
    if (items.size() == 1 && items[0].expr) {
      if (items[0].expr->kind == EPatKind::Hole)
        fail(items[0].at, "'_' alone matches anything; say what to look for, e.g. 'for i in _: _'");
      pat.is_expr = true;
      pat.expr = items[0].expr;
      return pat;
    }
    bool all_holes = true;
    for (Item& it : items) {
      if (it.expr) {
        if (it.expr->kind != EPatKind::Hole)
          fail(it.at, "expected a statement pattern in a ';' sequence, found an expression");
        it.stmt = SPat{};  // a statement hole
      }
      all_holes = all_holes && it.stmt.kind == SPatKind::Hole;
      pat.stmts.push_back(std::move(it.stmt));
    }
    if (all_holes)
      fail(items[0].at, "a sequence of '_' alone matches anything; say what to look for");
    return pat;
  }

 private:
  struct Item {
    Token at;
    SPat stmt;
    EPatPtr expr;  // set when the item is an expression
  };

  // ---- tokens ----
  const Token& peek(size_t k = 0) const {
    size_t i = pos_ + k;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool accept_op(const char* op) {
    if (!peek().is_op(op)) return false;
    next();
    return true;
  }
  bool accept_name(const char* kw) {
    if (!peek().is_name(kw)) return false;
    next();
    return true;
  }
  void expect_op(const char* op, const std::string& context) {
    if (!accept_op(op))
      fail(peek(), std::string("expected '") + op + "' " + context + ", found " + describe(peek()));
  }
  std::string expect_name(const std::string& context) {
    const Token& t = peek();
    if (t.kind != TokKind::Name || is_keyword(t.text))
      fail(t, "expected a name " + context + ", found " + describe(t));
    return next().text;
  }
  [[noreturn]] void fail(const Token& at, const std::string& msg) const {
    throw ParseError(SrcInfo{file_, 1, at.col > 0 ? at.col : 1},
                     "in pattern '" + text_ + "': " + msg);
  }
  struct DepthGuard {
    PatternParser& p;
    DepthGuard(PatternParser& pp, const Token& at) : p(pp) {
      if (++p.depth_ > kMaxPatternDepth) p.fail(at, "pattern nested too deeply");
    }
    ~DepthGuard() { --p.depth_; }
  };

  // ---- items and statements ----
  Item parse_item(bool in_sequence = false) {
    Item it;
    it.at = peek();
    if (starts_stmt(in_sequence)) {
      it.stmt = parse_stmt();
    } else {
      it.expr = parse_expr();
    }
    return it;
  }

  // Whether the tokens at the cursor begin a statement pattern (rather than an expression).
  bool starts_stmt(bool in_sequence) const {
    const Token& t = peek();
    if (t.is_name("for") || t.is_name("if") || t.is_name("pass")) return true;
    if (t.kind != TokKind::Name || is_keyword(t.text)) return false;
    const Token& t1 = peek(1);
    if (t1.is_op(":")) return true;
    if (t1.is_op(".") && peek(2).kind == TokKind::Name && peek(3).is_op("=")) return true;
    if (t1.is_op("(")) return in_sequence || (t.text != "stride" && find_extern(t.text) == nullptr);
    size_t k = 1;
    if (t1.is_op("[")) {  // skip a balanced index list
      int depth = 0;
      for (;; ++k) {
        const Token& u = peek(k);
        if (u.kind == TokKind::Eof) return false;
        if (u.is_op("[") || u.is_op("(")) ++depth;
        if ((u.is_op("]") || u.is_op(")")) && --depth == 0) break;
      }
      ++k;
    }
    return peek(k).is_op("=") || peek(k).is_op("+=");
  }

  // One statement, or '_' (a statement hole).
  SPat parse_stmt() {
    DepthGuard g(*this, peek());
    SPat s;
    const Token& t = peek();
    if (accept_name("pass")) {
      s.kind = SPatKind::Pass;
      return s;
    }
    if (accept_name("for")) return parse_for();
    if (accept_name("if")) return parse_if();
    if (t.is_name("_") && !peek(1).is_op("=") && !peek(1).is_op("+=") && !peek(1).is_op("[") &&
        !peek(1).is_op(":") && !peek(1).is_op("(")) {
      next();
      return s;  // hole
    }
    std::string name = expect_name("at the start of a statement pattern");
    if (accept_op(":")) return parse_alloc(std::move(name));
    if (accept_op(".")) {
      s.kind = SPatKind::WriteConfig;
      s.name = std::move(name);
      s.field = expect_name("(a config field) after '.'");
      expect_op("=", "after the config field");
      s.rhs = parse_expr();
      return s;
    }
    if (accept_op("(")) {
      s.kind = SPatKind::Call;
      s.name = std::move(name);
      s.idx = parse_list(")", "in the call's arguments");
      return s;
    }
    s.name = std::move(name);
    if (accept_op("[")) {
      s.bracketed = true;
      s.idx = parse_list("]", "in the index list");
    }
    if (accept_op("=")) {
      s.kind = SPatKind::Assign;
    } else if (accept_op("+=")) {
      s.kind = SPatKind::Reduce;
    } else {
      fail(peek(), "expected '=' or '+=' after '" + s.name + "', found " + describe(peek()));
    }
    s.rhs = parse_expr();
    return s;
  }

  SPat parse_for() {
    SPat s;
    s.kind = SPatKind::For;
    s.name = expect_name("(the loop variable) after 'for'");
    if (!accept_name("in"))
      fail(peek(), "expected 'in' after the loop variable, found " + describe(peek()));
    if (std::optional<LoopMode> m =
            peek().kind == TokKind::Name ? loop_mode_named(peek().text) : std::nullopt) {
      next();
      s.loop_mode = m;
      expect_op("(", "after the loop mode");
      s.lo = parse_expr();
      expect_op(",", "between the loop bounds");
      s.hi = parse_expr();
      expect_op(")", "after the loop bounds");
    } else if (accept_name("_")) {
      s.lo = hole();
      s.hi = hole();
    } else {
      fail(peek(), "expected '_' or seq(lo, hi) after 'in', found " + describe(peek()));
    }
    expect_op(":", "after the loop header");
    s.body = parse_body();
    return s;
  }

  SPat parse_if() {
    SPat s;
    s.kind = SPatKind::If;
    s.rhs = parse_expr();
    expect_op(":", "after the condition");
    s.body = parse_body();
    return s;
  }

  // After ':' the rest of the pattern is the body, as in Python's one-line compound statements.
  std::vector<SPat> parse_body() {
    std::vector<SPat> body;
    body.push_back(parse_stmt());
    while (accept_op(";")) body.push_back(parse_stmt());
    return body;
  }

  SPat parse_alloc(std::string name) {
    SPat s;
    s.kind = SPatKind::Alloc;
    s.name = std::move(name);
    const Token& t = peek();
    if (t.kind != TokKind::Name) fail(t, "expected a type or '_' after ':', found " + describe(t));
    next();
    if (t.text != "_") {
      s.alloc_type = scalar_kind_from_string(t.text);
      if (!s.alloc_type) fail(t, "unknown type '" + t.text + "' (expected f32, R, i8, ... or '_')");
    }
    if (accept_op("[")) {
      s.bracketed = true;
      s.idx = parse_list("]", "in the shape");
    }
    if (accept_op("@")) s.alloc_mem = expect_name("(a memory) after '@'");
    return s;
  }

  // Comma-separated expression patterns up to `close` (which is consumed); index lists may hold
  // slices lo:hi.
  std::vector<EPatPtr> parse_list(const char* close, const std::string& context) {
    std::vector<EPatPtr> out;
    if (accept_op(close)) return out;
    while (true) {
      EPatPtr e = parse_expr();
      if (std::string(close) == "]" && accept_op(":")) {
        auto sl = std::make_shared<EPat>();
        sl->kind = EPatKind::Slice;
        sl->args = {e, parse_expr()};
        e = sl;
      }
      out.push_back(e);
      if (accept_op(close)) return out;
      expect_op(",", context);
    }
  }

  // ---- expressions ----
  EPatPtr binop(BinOpKind op, EPatPtr l, EPatPtr r) {
    auto e = std::make_shared<EPat>();
    e->kind = EPatKind::BinOp;
    e->op = op;
    e->args = {std::move(l), std::move(r)};
    return e;
  }

  EPatPtr parse_expr() {
    DepthGuard g(*this, peek());
    EPatPtr e = parse_and();
    while (accept_name("or")) e = binop(BinOpKind::Or, e, parse_and());
    return e;
  }
  EPatPtr parse_and() {
    EPatPtr e = parse_cmp();
    while (accept_name("and")) e = binop(BinOpKind::And, e, parse_cmp());
    return e;
  }
  EPatPtr parse_cmp() {
    EPatPtr e = parse_add();
    static const std::pair<const char*, BinOpKind> ops[] = {{"<", BinOpKind::Lt},
                                                            {"<=", BinOpKind::Le},
                                                            {">", BinOpKind::Gt},
                                                            {">=", BinOpKind::Ge},
                                                            {"==", BinOpKind::Eq}};
    for (auto& [s, k] : ops)
      if (accept_op(s)) return binop(k, e, parse_add());
    if (peek().is_op("!=")) fail(peek(), "'!=' is not an operator of the language");
    return e;
  }
  EPatPtr parse_add() {
    EPatPtr e = parse_mul();
    while (true) {
      if (accept_op("+"))
        e = binop(BinOpKind::Add, e, parse_mul());
      else if (accept_op("-"))
        e = binop(BinOpKind::Sub, e, parse_mul());
      else
        return e;
    }
  }
  EPatPtr parse_mul() {
    EPatPtr e = parse_unary();
    while (true) {
      if (accept_op("*"))
        e = binop(BinOpKind::Mul, e, parse_unary());
      else if (accept_op("/"))
        e = binop(BinOpKind::Div, e, parse_unary());
      else if (accept_op("%"))
        e = binop(BinOpKind::Mod, e, parse_unary());
      else
        return e;
    }
  }
  EPatPtr parse_unary() {
    DepthGuard g(*this, peek());
    if (accept_op("-")) {
      auto e = std::make_shared<EPat>();
      e->kind = EPatKind::USub;
      e->args = {parse_unary()};
      return e;
    }
    return parse_atom();
  }
  EPatPtr parse_atom() {
    const Token& t = peek();
    auto e = std::make_shared<EPat>();
    if (accept_op("(")) {
      EPatPtr inner = parse_expr();
      expect_op(")", "to close the parenthesis");
      return inner;
    }
    if (t.kind == TokKind::Int || t.kind == TokKind::Float) {
      next();
      e->kind = EPatKind::Const;
      e->val = t.kind == TokKind::Int ? static_cast<double>(t.int_val) : t.float_val;
      return e;
    }
    if (t.is_name("True") || t.is_name("False")) {
      next();
      e->kind = EPatKind::Const;
      e->val = t.text == "True" ? 1 : 0;
      return e;
    }
    if (t.kind != TokKind::Name || is_keyword(t.text))
      fail(t, "expected an expression pattern, found " + describe(t));
    next();
    if (t.text == "_" && !peek().is_op("[") && !peek().is_op("(")) return e;  // hole
    e->name = t.text;
    if (accept_op("[")) {
      e->kind = EPatKind::Read;
      e->bracketed = true;
      e->args = parse_list("]", "in the index list");
    } else if (accept_op("(")) {
      if (t.text == "stride") return parse_stride(t);
      e->kind = EPatKind::Extern;
      e->args = parse_list(")", "in the arguments");
    } else if (accept_op(".")) {
      e->kind = EPatKind::ReadConfig;
      e->field = expect_name("(a config field) after '.'");
    } else {
      e->kind = EPatKind::Read;
    }
    return e;
  }
  EPatPtr parse_stride(const Token& at) {
    auto e = std::make_shared<EPat>();
    e->kind = EPatKind::Stride;
    e->name = expect_name("(a buffer) as stride's first argument");
    expect_op(",", "after stride's buffer");
    const Token& d = peek();
    if (d.kind == TokKind::Int && d.int_val < 1000000) {
      e->dim = static_cast<int>(d.int_val);
    } else if (!d.is_name("_")) {
      fail(d,
           "expected a dimension number or '_' as stride's second argument, found " + describe(d));
    }
    next();
    expect_op(")", "after stride's arguments");
    (void)at;
    return e;
  }

  std::shared_ptr<const SourceFile> file_;
  std::vector<Token> toks_;
  std::string text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Pattern parse_pattern(const std::string& raw) {
  // One line: newlines and tabs are spaces; surrounding blanks are dropped.
  std::string text = raw;
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  size_t b = text.find_first_not_of(' ');
  size_t e = text.find_last_not_of(' ');
  text = b == std::string::npos ? "" : text.substr(b, e - b + 1);
  auto shown = std::make_shared<SourceFile>();
  shown->name = "<pattern>";
  shown->text = text;
  auto fail_at = [&](size_t pos, const std::string& msg) -> ParseError {
    return ParseError(SrcInfo{shown, 1, static_cast<int>(pos) + 1},
                      "in pattern '" + text + "': " + msg);
  };
  if (text.empty()) throw fail_at(0, "the pattern is empty");

  // "#n": the match number.
  std::optional<int> match_no;
  std::string body = text;
  if (size_t h = text.find('#'); h != std::string::npos) {
    std::string num = text.substr(h + 1);
    size_t nb = num.find_first_not_of(' ');
    int64_t v = 0;
    bool ok = nb != std::string::npos;
    for (size_t i = nb; ok && i < num.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(num[i])))
        ok = false;
      else if ((v = v * 10 + (num[i] - '0')) > kMaxMatchNo)
        ok = false;
    }
    if (!ok) throw fail_at(h, "expected a match number after '#' (as in 'for i in _: _ #1')");
    match_no = static_cast<int>(v);
    body = text.substr(0, h);
  }

  // ';' is not a token of the language: blank it out for the lexer and put it back by column.
  std::vector<int> semis;
  std::string lexed = body;
  for (size_t i = 0; i < lexed.size(); ++i) {
    if (lexed[i] == ';') {
      semis.push_back(static_cast<int>(i) + 1);
      lexed[i] = ' ';
    }
  }
  auto lex_file = std::make_shared<SourceFile>();
  lex_file->name = "<pattern>";
  lex_file->text = lexed;
  std::vector<Token> raw_toks;
  try {
    raw_toks = tokenize(lex_file);
  } catch (const ParseError& err) {
    throw ParseError(SrcInfo{shown, 1, err.loc().col > 0 ? err.loc().col : 1},
                     "in pattern '" + text + "': " + err.reason());
  }
  std::vector<Token> toks;
  size_t si = 0;
  auto push_semi = [&](int col) {
    Token t;
    t.kind = TokKind::Op;
    t.text = ";";
    t.line = 1;
    t.col = col;
    toks.push_back(t);
  };
  for (const Token& t : raw_toks) {
    if (t.kind == TokKind::Newline || t.kind == TokKind::Indent || t.kind == TokKind::Dedent ||
        t.kind == TokKind::Eof)
      continue;
    while (si < semis.size() && semis[si] < t.col) push_semi(semis[si++]);
    toks.push_back(t);
  }
  while (si < semis.size()) push_semi(semis[si++]);
  Token eof;
  eof.kind = TokKind::Eof;
  eof.line = 1;
  eof.col = static_cast<int>(body.size()) + 1;
  toks.push_back(eof);
  if (toks.size() == 1) throw fail_at(0, "nothing to match before '#'");

  std::string shown_text = body;
  size_t last = shown_text.find_last_not_of(' ');
  shown_text = last == std::string::npos ? "" : shown_text.substr(0, last + 1);
  Pattern pat = PatternParser(shown, std::move(toks), text).run();
  pat.text = shown_text;
  pat.match_no = match_no;
  return pat;
}

}  // namespace exocpp::pattern
