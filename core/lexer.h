// The tokenizer for the procedure language: turns source text into names, numbers, strings,
// operators and Python-style NEWLINE / INDENT / DEDENT tokens. Newlines inside (), [] are
// ignored; `#` starts a comment; indentation must use spaces.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/srcinfo.h"

namespace exocpp {

enum class TokKind : uint8_t {
  Name,     // identifiers and keywords (def, for, and, True, ...)
  Int,      // 42
  Float,    // 1.0, 1e-3, .5
  String,   // "..." or """...""" (text holds the decoded value)
  Op,       // punctuation and operators: ( ) [ ] , : . @ = += + - * / % < <= > >= == !=
  Newline,  // end of a logical line
  Indent,   // the next line is indented deeper
  Dedent,   // the next line is indented less
  Eof,
};

struct Token {
  TokKind kind = TokKind::Eof;
  std::string text;      // the spelling (decoded contents for strings)
  int64_t int_val = 0;   // for Int
  double float_val = 0;  // for Float
  int line = 0, col = 0;

  bool is_op(const char* s) const { return kind == TokKind::Op && text == s; }
  bool is_name(const char* s) const { return kind == TokKind::Name && text == s; }
};

// How a token is quoted in messages: "'for'", "end of line", "end of file", ...
std::string describe(const Token& t);

// The largest integer literal accepted: every integer up to it is exact in a double.
inline constexpr int64_t kMaxIntLiteral = int64_t(1) << 53;
// The deepest bracket nesting the lexer accepts.
inline constexpr int kMaxBracketDepth = 200;

// Splits `file->text` into tokens, ending with Newline (if needed), Dedents and Eof.
// Throws ParseError on a malformed token, bad indentation or unbalanced brackets.
std::vector<Token> tokenize(const std::shared_ptr<const SourceFile>& file);

}  // namespace exocpp
