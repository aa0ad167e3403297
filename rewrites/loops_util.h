// Private helpers shared by the loop and scope operations (rewrites/loops.h): substitution of
// index variables, alpha-renaming of copied code, index-expression builders that fold
// constants, the names in scope at a statement, and parsing a user's expression there.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "checker/context.h"
#include "core/cursor.h"
#include "core/ir.h"
#include "core/ir_visit.h"
#include "core/parser.h"
#include "core/uses.h"
#include "rewrites/common.h"

namespace exocpp::rw::loops {

using SymMap = std::unordered_map<Sym, Expr, SymHash>;

// `b` (or `e`) with every read of a variable of `env` replaced by its expression; every index
// expression that changed is simplified.
Block substitute(const Block& b, const SymMap& env);
Expr substitute(const Expr& e, const SymMap& env);
// A copy of `b` in which every name `b` binds (loop variables, allocations, windows) is a fresh
// symbol of the same name, so a duplicated block never shares a binding with its original.
Block alpha_rename(const Block& b);

// Index-expression builders; integer constants are folded, x + 0, 1 * x, ... collapse.
Expr index_var(const Sym& s, const SrcInfo& si = {});
Expr int_const(int64_t v, const SrcInfo& si = {});
Expr mk_add(const Expr& a, const Expr& b);
Expr mk_sub(const Expr& a, const Expr& b);
Expr mk_mul(const Expr& a, const Expr& b);
Expr mk_div(const Expr& a, const Expr& b);  // floor division
Expr mk_mod(const Expr& a, const Expr& b);
Expr mk_cmp(BinOpKind op, const Expr& a, const Expr& b);
// The value of an integer constant, if `e` is one.
std::optional<int64_t> const_int(const Expr& e);

// The path of statement cursor `c`'s own `field` list (for its body or else branch).
BlockPath child_path(const Cursor& c, BlockField field = BlockField::Body);
// The legality context of the statement `c` points at.
checker::Context context_of(const Cursor& c);
// The variables visible just before statement (or gap/block start) `c`: the proc's arguments,
// enclosing loop variables, and allocations and windows made before it in enclosing lists.
using rw::scope_at;
// Parses `text` in scope_at(c). `want` is "index" (an integer expression: bound, offset) or
// "bool" (a condition); anything else is refused with a SchedulingError naming `op`.
Expr parse_in_scope(const std::string& op, const Cursor& c, const std::string& text,
                    const std::string& want);

// Names bound at the top level of `b` (allocations, windows) that `rest` mentions.
std::vector<std::string> bindings_used_after(const Block& b, const Block& rest);

// reorder_loops on a resolved outer-loop cursor (shared with lift_scope, which reports as `op`).
Proc reorder_at(const std::string& op, const Proc& p, const Cursor& outer);

}  // namespace exocpp::rw::loops
