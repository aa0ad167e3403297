// Exo's pattern language, for naming the targets of scheduling operations:
//
//   "for i in _: _"      a loop over i            "if _: _"        an if
//   "x = _", "x[_] = _"  an assignment to x       "x += _"         a reduction into x
//   "x: _", "x: f32[_]"  the allocation of x      "foo(_)"         a call to foo
//   "pass"               a pass                   "Cfg.f = _"      a config write
//   "a = _ ; b += _"     a block of consecutive statements matching in turn
//   "x[_] * y[_]", "_ + _", "i"   expression patterns (any expression position)
//   "... #n"             the (n+1)-th match instead of the first
//
// `_` matches any expression, statement or list (index lists, argument lists, bodies). Names
// match by their printed name. Matches are ordered by a pre-order walk of the proc's body
// (statements before the expressions inside them), as in Exo.
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"

namespace exocpp {

// All matches of `pattern` in `p` (or, for the Cursor overloads, inside the target of `scope`),
// in order; an empty list when nothing matches. A malformed pattern throws ParseError; a
// pattern ending in "#n" yields at most the one selected match.
std::vector<Cursor> find_all(const Proc& p, const std::string& pattern);
std::vector<Cursor> find_all(const Cursor& scope, const std::string& pattern);
// The first (or "#n"-selected) match; throws SchedulingError (operation "find") naming the
// pattern when there is none.
Cursor find(const Proc& p, const std::string& pattern);
Cursor find(const Cursor& scope, const std::string& pattern);
// A loop: "i" and "i #n" are shorthand for "for i in _: _" and "for i in _: _ #n"; a full
// pattern is used as is.
Cursor find_loop(const Proc& p, const std::string& pattern);
// The allocation or argument named `name` ("x: _"); an argument cursor when it is an argument.
Cursor find_alloc_or_arg(const Proc& p, const std::string& name);

}  // namespace exocpp
