// The tokenizer for the procedure language (see core/lexer.h).
#include "core/lexer.h"

#include <charconv>
#include <cmath>

#include "core/errors.h"

namespace exocpp {

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokKind::Newline:
      return "end of line";
    case TokKind::Indent:
      return "an indented block";
    case TokKind::Dedent:
      return "end of the indented block";
    case TokKind::Eof:
      return "end of file";
    case TokKind::String: {
      std::string s = t.text.size() > 20 ? t.text.substr(0, 20) + "..." : t.text;
      for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
      return "string \"" + s + "\"";
    }
    case TokKind::Name:
    case TokKind::Int:
    case TokKind::Float:
    case TokKind::Op:
      return "'" + t.text + "'";
  }
  return "?";
}

namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

std::string show_char(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static const char* hex = "0123456789abcdef";
  return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

class Lexer {
 public:
  explicit Lexer(const std::shared_ptr<const SourceFile>& file) : file_(file), src_(file->text) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    at_line_start_ = true;
    while (true) {
      if (at_line_start_) {  // inside brackets, a line's indentation means nothing
        if (brackets_.empty() && !handle_indentation()) break;  // end of file
        at_line_start_ = false;
      }
      if (pos_ >= src_.size()) break;
      char c = src_[pos_];
      if (c == '\n') {
        newline();
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
        continue;
      }
      if (c == '#') {
        skip_comment();
        continue;
      }
      if (c == '\\') {
        size_t q = pos_ + 1;
        if (q < src_.size() && src_[q] == '\r') ++q;
        if (q < src_.size() && src_[q] == '\n') {  // explicit line continuation
          pos_ = q + 1;
          ++line_;
          line_start_ = pos_;
          continue;
        }
        error(col(), "unexpected character '\\' (a line continuation must end its line)");
      }
      if (is_name_start(c)) {
        lex_name();
      } else if (is_digit(c) || (c == '.' && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))) {
        lex_number();
      } else if (c == '"' || c == '\'') {
        lex_string();
      } else {
        lex_op();
      }
    }
    finish();
    return std::move(toks_);
  }

 private:
  [[noreturn]] void error(int column, const std::string& msg) { error_at(line_, column, msg); }
  [[noreturn]] void error_at(int line, int column, const std::string& msg) {
    throw ParseError(SrcInfo{file_, line, column}, msg);
  }
  int col() const { return static_cast<int>(pos_ - line_start_) + 1; }

  void push(TokKind k, std::string text, int line, int column) {
    Token t;
    t.kind = k;
    t.text = std::move(text);
    t.line = line;
    t.col = column;
    toks_.push_back(std::move(t));
    if (k != TokKind::Newline && k != TokKind::Indent && k != TokKind::Dedent) {
      line_has_tokens_ = true;
      end_line_ = line_;
      end_col_ = col();  // just after the token (pos_ has moved past it)
    }
  }

  void skip_comment() {
    while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
  }

  void newline() {
    if (brackets_.empty() && line_has_tokens_) {
      push(TokKind::Newline, "", end_line_, end_col_);
      line_has_tokens_ = false;
    }
    ++pos_;
    ++line_;
    line_start_ = pos_;
    at_line_start_ = true;
  }

  // At the start of a physical line outside brackets: measure its indentation and emit
  // Indent/Dedent tokens. Blank and comment-only lines are skipped. Returns false at EOF.
  bool handle_indentation() {
    while (true) {
      int width = 0;
      while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t')) {
        if (src_[pos_] == '\t') {
          // A tab at the start of a blank or comment line is harmless; elsewhere reject it.
          size_t q = pos_;
          while (q < src_.size() && (src_[q] == ' ' || src_[q] == '\t' || src_[q] == '\r')) ++q;
          if (q < src_.size() && src_[q] != '\n' && src_[q] != '#')
            error(col(), "tab character in indentation; indent with spaces only");
        }
        ++width;
        ++pos_;
      }
      while (pos_ < src_.size() && src_[pos_] == '\r') ++pos_;
      if (pos_ >= src_.size()) return false;
      char c = src_[pos_];
      if (c == '#') skip_comment();
      if (pos_ < src_.size() && src_[pos_] == '\n') {  // blank or comment-only line
        ++pos_;
        ++line_;
        line_start_ = pos_;
        continue;
      }
      if (pos_ >= src_.size()) return false;
      int column = col();
      if (width > indents_.back()) {
        if (toks_.empty() || toks_.back().kind != TokKind::Newline)
          error(column, "unexpected indentation at the start of the file");
        indents_.push_back(width);
        push(TokKind::Indent, "", line_, column);
      } else {
        while (width < indents_.back()) {
          indents_.pop_back();
          push(TokKind::Dedent, "", line_, column);
        }
        if (width != indents_.back())
          error(column, "unindent to column " + std::to_string(column) +
                            " does not match any outer indentation level");
      }
      return true;
    }
  }

  void lex_name() {
    int column = col();
    size_t b = pos_;
    while (pos_ < src_.size() && is_name_char(src_[pos_])) ++pos_;
    push(TokKind::Name, src_.substr(b, pos_ - b), line_, column);
  }

  void lex_number() {
    int column = col();
    size_t b = pos_;
    bool is_float = false;
    while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
    if (pos_ < src_.size() && src_[pos_] == '.') {
      is_float = true;
      ++pos_;
      while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
    }
    if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
      size_t q = pos_ + 1;
      if (q < src_.size() && (src_[q] == '+' || src_[q] == '-')) ++q;
      if (q < src_.size() && is_digit(src_[q])) {
        is_float = true;
        pos_ = q;
        while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
      }
    }
    if (pos_ < src_.size() && (is_name_char(src_[pos_]) || src_[pos_] == '.')) {
      while (pos_ < src_.size() && (is_name_char(src_[pos_]) || src_[pos_] == '.')) ++pos_;
      error(column, "invalid number literal '" + src_.substr(b, pos_ - b) + "'");
    }
    std::string text = src_.substr(b, pos_ - b);
    Token t;
    if (is_float) {
      double v = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
        error(column, "float literal '" + text + "' is out of range");
      push(TokKind::Float, text, line_, column);
      toks_.back().float_val = v;
    } else {
      int64_t v = 0;
      for (char d : text) {
        v = v * 10 + (d - '0');
        if (v > kMaxIntLiteral)
          error(column, "integer literal '" + text + "' is too large (the largest is " +
                            std::to_string(kMaxIntLiteral) + ")");
      }
      push(TokKind::Int, text, line_, column);
      toks_.back().int_val = v;
    }
  }

  void lex_string() {
    int line = line_, column = col();
    char q = src_[pos_];
    bool triple = pos_ + 2 < src_.size() && src_[pos_ + 1] == q && src_[pos_ + 2] == q;
    pos_ += triple ? 3 : 1;
    std::string val;
    while (true) {
      if (pos_ >= src_.size())
        error_at(line, column,
                 triple ? "unterminated triple-quoted string (it reaches the end of file)"
                        : "unterminated string literal (missing closing quote)");
      char c = src_[pos_];
      if (c == q) {
        if (!triple) {
          ++pos_;
          break;
        }
        if (pos_ + 2 < src_.size() && src_[pos_ + 1] == q && src_[pos_ + 2] == q) {
          pos_ += 3;
          break;
        }
      }
      if (c == '\n') {
        if (!triple) error_at(line, column, "unterminated string literal (missing closing quote)");
        val += c;
        ++pos_;
        ++line_;
        line_start_ = pos_;
        continue;
      }
      if (c == '\\') {
        if (pos_ + 1 >= src_.size())
          error_at(line, column,
                   triple ? "unterminated triple-quoted string (it reaches the end of file)"
                          : "unterminated string literal (missing closing quote)");
        char e = src_[pos_ + 1];
        switch (e) {
          case 'n':
            val += '\n';
            break;
          case 't':
            val += '\t';
            break;
          case 'r':
            val += '\r';
            break;
          case '0':
            val += '\0';
            break;
          case '\\':
            val += '\\';
            break;
          case '"':
            val += '"';
            break;
          case '\'':
            val += '\'';
            break;
          case '\n':  // escaped newline: a continuation inside the string
            ++line_;
            line_start_ = pos_ + 2;
            break;
          default:
            error(col(), "unknown escape sequence '\\" + std::string(1, e) +
                             "' in string (use \\n, \\t, \\\", \\\\)");
        }
        pos_ += 2;
        continue;
      }
      val += c;
      ++pos_;
    }
    push(TokKind::String, std::move(val), line, column);
  }

  void lex_op() {
    static const char* two[] = {"+=", "-=", "*=", "/=", "<=", ">=", "==", "!=", "->", "**", "//"};
    static const char single[] = "()[]{},:.@=+-*/%<>";
    int column = col();
    char c = src_[pos_];
    if (pos_ + 1 < src_.size()) {
      for (const char* t : two) {
        if (src_[pos_] == t[0] && src_[pos_ + 1] == t[1]) {
          pos_ += 2;
          push(TokKind::Op, t, line_, column);
          return;
        }
      }
    }
    bool known = false;
    for (const char* s = single; *s; ++s) known = known || *s == c;
    if (!known) error(column, "unexpected character " + show_char(c));
    ++pos_;
    if (c == '(' || c == '[' || c == '{') {
      if (static_cast<int>(brackets_.size()) >= kMaxBracketDepth)
        error(column, "brackets nested too deeply (more than " + std::to_string(kMaxBracketDepth) +
                          " levels)");
      brackets_.push_back({c, line_, column});
    } else if (c == ')' || c == ']' || c == '}') {
      char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (brackets_.empty()) error(column, std::string("unmatched '") + c + "'");
      const Open& o = brackets_.back();
      if (o.c != want)
        error(column, std::string("closing '") + c + "' does not match '" + o.c +
                          "' opened at line " + std::to_string(o.line) + ", column " +
                          std::to_string(o.col));
      brackets_.pop_back();
    }
    push(TokKind::Op, std::string(1, c), line_, column);
  }

  void finish() {
    if (!brackets_.empty()) {
      const Open& o = brackets_.back();
      error_at(o.line, o.col, std::string("'") + o.c + "' was never closed");
    }
    if (line_has_tokens_) push(TokKind::Newline, "", end_line_, end_col_);
    int l = end_line_ > 0 ? end_line_ : 1, c = end_line_ > 0 ? end_col_ : 1;
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokKind::Dedent, "", l, c);
    }
    push(TokKind::Eof, "", l, c);
  }

  struct Open {
    char c;
    int line, col;
  };

  std::shared_ptr<const SourceFile> file_;
  const std::string& src_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;
  int end_line_ = 0, end_col_ = 0;  // just after the last real token
  std::vector<int> indents_;
  std::vector<Open> brackets_;
  std::vector<Token> toks_;
};

}  // namespace

std::vector<Token> tokenize(const std::shared_ptr<const SourceFile>& file) {
  return Lexer(file).run();
}

}  // namespace exocpp
