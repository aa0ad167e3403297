// Cursor inspection and navigation, as Exo's standard library offers it (exo.stdlib.inspection
// and Cursor.is_ancestor_of): questions about where a cursor stands, answered from its
// location alone. Nothing here changes a proc. A navigation that finds nothing throws
// InvalidCursorError saying what was looked for.
#pragma once

#include <string>

#include "core/cursor.h"

namespace exocpp {

// Whether `a` (a statement or expression cursor) is `b` or contains it: a statement contains
// the statements of its bodies and its expressions; an expression its sub-expressions. Cursors
// of different procs are never related.
bool is_ancestor_of(const Cursor& a, const Cursor& b);

// The innermost cursor that is an ancestor of both (is_ancestor_of): `a` itself or one of the
// statements or expressions around it. Throws when there is none (two top-level statements).
Cursor get_lca(const Cursor& a, const Cursor& b);

// The number of statements and expressions from the top level to `c`: 1 for a top-level
// statement, one more per enclosing statement or expression.
int get_depth(const Cursor& c);

// The top-level statement holding `c` (c itself when it is one).
Cursor get_top_level_stmt(const Cursor& c);

// The n-th loop (or if) strictly around `c`, counting outwards from 1.
Cursor get_enclosing_loop(const Cursor& c, int n = 1);
Cursor get_enclosing_if(const Cursor& c, int n = 1);
// The innermost loop over `iter` that is `c` or encloses it.
Cursor get_enclosing_loop_by_name(const Cursor& c, const std::string& iter);

// A statement's position in its list: 0 for the first, or (from_top false) -1 for the last.
int get_index_in_body(const Cursor& stmt, bool from_top = true);
bool is_start_of_body(const Cursor& stmt);
bool is_end_of_body(const Cursor& stmt);

// The n-th loop (from 0) among the statements of `loop`'s body.
Cursor get_nth_inner_loop(const Cursor& loop, int n);
Cursor get_inner_loop(const Cursor& loop);

}  // namespace exocpp
