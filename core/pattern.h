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
// find_target(p, pattern, TargetKind::Loop): "i" and "i #n" are shorthand for "for i in _: _"
// and "for i in _: _ #n"; a full pattern must match a loop.
Cursor find_loop(const Proc& p, const std::string& pattern);
// find_target(p, name, TargetKind::Alloc): the argument or allocation named `name` ("x: _").
Cursor find_alloc_or_arg(const Proc& p, const std::string& name);

// ---- Targets of scheduling operations -------------------------------------------------------
//
// What an operation expects its target to be. Every operation resolves its target through
// find_target (a pattern) or as_target (a cursor), so the grammar, the pre-order and the
// errors are the same everywhere:
//
//   kind       shorthand                        matched as
//   Loop       "i", "i #n"                      "for i in _: _ #n"
//   LoopNest   "i j", "i j #n"                  the (n+1)-th loop over i whose body is exactly
//                                               one loop over j (pre-order, as Exo's
//                                               "for i in _: for j in _: _ #n")
//   Stmt       "i", "i #n"                      the loop over i (a statement is never a bare name)
//   Block      "i", "i #n"                      the loop over i, as a one-statement block
//   Gap        "i", "i #n"                      the gap after the loop over i
//   Alloc      "x"                              argument x, else the first allocation of x
//              "x #n"                           the (n+1)-th allocation of x
//   Expr, Any  -                                the pattern as written
//
// Any other pattern is matched as written (find), and "#n" counts the matches of the whole
// pattern. The match must then be of the kind, with these conversions: a one-statement block
// is a statement; a statement is a one-statement block (Block) or the gap after it (Gap); a
// LoopNest is a loop whose body is exactly one loop; an Alloc is an allocation statement or an
// argument. A match of another kind is refused with a SchedulingError naming `op`, the kind
// expected and what was found.
enum class TargetKind { Any, Stmt, Loop, LoopNest, Block, Gap, Alloc, Expr };
// "a loop", "a nest of two loops", "a block of statements", ...
const char* describe(TargetKind k);
Cursor find_target(const Proc& p, const std::string& pattern, TargetKind kind,
                   const std::string& op = "find");
// The conversions and the kind check of find_target, for a cursor given directly; `described`
// names the target in a refusal (its pattern or printed form).
Cursor as_target(const Cursor& c, TargetKind kind, const std::string& described,
                 const std::string& op = "find");

}  // namespace exocpp
