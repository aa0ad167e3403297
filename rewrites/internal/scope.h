// What is in scope at a place of a proc, and parsing a user's expression string there.
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "core/parser.h"

namespace exocpp::rw {

// The variables visible at statement `index` of the list at `path` (or at a cursor): the
// proc's arguments, the enclosing loop variables, and the allocations and windows before it
// in enclosing lists: the scope in which a user's expression string is parsed (parse_expr).
std::vector<ScopeVar> scope_at(const Proc& p, const BlockPath& path, int index);
std::vector<ScopeVar> scope_at(const Cursor& c);
// Parses an expression string a user passed to an operation (a bound, a window, a new value)
// in `scope`. A syntax, name or type error in it is reported at `where` (the statement the
// expression is for, so the user sees which part of the proc), quoting the string and the
// column at fault; the operation's run_op names the operation.
Expr parse_user_expr(const Cursor& where, const std::string& text,
                     const std::vector<ScopeVar>& scope, const ParseOptions& opts = {},
                     bool allow_window = false);
// The same in the scope at `where` (scope_at(where)).
Expr parse_user_expr(const Cursor& where, const std::string& text, bool allow_window = false);
// A user's expression that must be an integer (index) expression (a bound, an offset, a size)
// or a condition, parsed at `where`; anything else is refused with a SchedulingError naming `op`
// and `what` the expression is ("the cut point").
Expr parse_index_expr(const Cursor& where, const std::string& text, const std::string& what);
Expr parse_condition(const Cursor& where, const std::string& text, const std::string& what);

// The statement an expression cursor lies in.
Stmt stmt_of_expr(const Cursor& c);

}  // namespace exocpp::rw
