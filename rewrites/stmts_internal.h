// Private helpers of the statement and expression operations (rewrites/stmts.h): the checker
// context of a location, the names in scope at a statement (for parsing user expressions),
// which buffers code reads and writes, and forwarding for an edit inside one expression.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "checker/context.h"
#include "core/cursor.h"
#include "core/ir.h"
#include "core/ir_visit.h"
#include "core/parser.h"

namespace exocpp::rw {

// The checker context of statement `index` of list `path`, built along the path (so that a
// statement node shared by two places gets the context of the place named).
checker::Context context_at(const Proc& p, const BlockPath& path, int index);

// The variables visible at statement `index` of list `path`: arguments, enclosing loop
// iterators, allocations and windows before it in enclosing lists (later entries shadow).

// The statement an expression cursor lies in.
Stmt stmt_of_expr(const Cursor& c);

// Buffers (by symbol) an expression or code reads; windows are resolved to the buffer they view
// through `aliases` (window symbol -> root buffer), see window_roots.
struct Access {
  std::set<Sym> reads;                  // buffers read (or passed to a call)
  std::set<Sym> writes;                 // buffers assigned, reduced into, or passed to a call
  std::set<std::string> config_reads;   // "Cfg.field"
  std::set<std::string> config_writes;  // "Cfg.field"; "*" when a call may write any
  bool has_call = false;
};
// Every window statement of `p`, mapped to the root buffer it views.
std::vector<std::pair<Sym, Sym>> window_roots(const Proc& p);
Sym root_of(const std::vector<std::pair<Sym, Sym>>& roots, const Sym& s);
Access accesses(const Expr& e, const std::vector<std::pair<Sym, Sym>>& roots);
Access accesses(const Block& b, const std::vector<std::pair<Sym, Sym>>& roots);

// Proves that two index lists name the same location in `ctx` (syntactically equal ones need
// no proof); throws SchedulingError(op) saying `what` does not hold otherwise.
void require_same_location(const std::string& op, const Cursor& where, const checker::Context& ctx,
                           const std::vector<Expr>& a, const std::vector<Expr>& b,
                           const std::string& what);

// Forwarding for an edit of the expression at `at` (an Expr location): locations strictly
// inside it become invalid, everything else stays.
ForwardFn fwd_expr_edit(const Loc& at);

// A new proc in which the expression at `at` is `with`.
Proc replace_expr_in_proc(const Proc& p, const Cursor& at, const Expr& with, ForwardFn fwd);

}  // namespace exocpp::rw
