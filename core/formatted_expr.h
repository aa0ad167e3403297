// Exo's FormattedExprStr: an expression string whose `_` holes are filled, in order, by
// expressions of a proc that cursors point at. `FormattedExprStr("_ - 1", loop.hi())` passed
// where an operation takes an expression string (cut_loop's point, expand_dim's size, ...)
// means "the loop's upper bound, minus one": the hole stands for that very expression, with
// its variables (not whichever variables of the same name are in scope where it is parsed),
// and an operation refuses it when one of those variables is not in scope there.
//
// It converts to the string operations take; the holes travel in the string as reserved
// names (`_fexpr_hole_<n>`) that parse_expr_with_holes resolves.
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "core/parser.h"

namespace exocpp {

class FormattedExprStr {
 public:
  // Throws ParseError when the string has more or fewer holes than expressions given, and
  // TypeError when a cursor is not a valid expression cursor.
  FormattedExprStr(const std::string& fmt, const std::vector<Cursor>& holes);
  template <class... Cursors>
  explicit FormattedExprStr(const std::string& fmt, const Cursors&... holes)
      : FormattedExprStr(fmt, std::vector<Cursor>{holes...}) {}

  operator std::string() const { return text_; }  // NOLINT: converts where a string is taken
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Parses `text` as parse_expr does, each hole name of a FormattedExprStr standing for its
// expression. Throws ParseError when a hole's expression reads a variable that is not in
// `scope` (the same symbol, not just the same name).
Expr parse_expr_with_holes(const std::string& text, const std::vector<ScopeVar>& scope,
                           const ParseOptions& opts = {}, bool allow_window = false);

// `text` with each hole name shown as its expression in parentheses, for messages.
std::string show_holes(const std::string& text);

}  // namespace exocpp
