// Building the new code of a rewrite: substitution of index variables, alpha-renaming of
// copied code, rewriting every access of a buffer, an edit inside one expression, and the
// forwarding functions of the moves operations make (with those of core/loc.h).
#pragma once

#include <functional>
#include <unordered_map>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "core/loc.h"

namespace exocpp::rw {

using SymMap = std::unordered_map<Sym, Expr, SymHash>;

// `b` (or `e`) with every read of a variable of `env` replaced by its expression; every index
// expression that changed is simplified.
Block substitute(const Block& b, const SymMap& env);
Expr substitute(const Expr& e, const SymMap& env);
// A copy of `b` in which every name `b` binds (loop variables, allocations, windows) is a fresh
// symbol of the same name, so a duplicated block never shares a binding with its original.
Block alpha_rename(const Block& b);

// Rewrites every access of `buf` (reads, writes, reductions, windows); a hook left empty keeps
// that kind of access as it is (renamed to `new_name` when set). Indices are simplified.
struct AccessMap {
  Sym buf;
  Sym new_name;  // invalid: keep the name
  std::function<std::vector<Expr>(const std::vector<Expr>&)> idx;
  std::function<std::vector<WAccess>(const std::vector<WAccess>&)> window;
  std::function<Expr(const StrideExprNode*)> stride;
};
Block map_accesses(const Block& b, const AccessMap& m);
Stmt map_accesses(const Stmt& s, const AccessMap& m);

// Forwarding of "statement `from_idx` of list `from` moved to position `to_idx` of list `to`"
// where `to` and `to_idx` are given in the coordinates after the removal.
ForwardFn fwd_move_stmt(BlockPath from, int from_idx, BlockPath to, int to_idx);

// Forwarding for an edit of the expression at `at` (an Expr location): locations strictly
// inside it become invalid, everything else stays.
ForwardFn fwd_expr_edit(const Loc& at);

// A new proc in which the expression at `at` is `with`.
Proc replace_expr_in_proc(const Proc& p, const Cursor& at, const Expr& with, ForwardFn fwd);

// The path of statement cursor `c`'s own `field` list (for its body or else branch).
BlockPath child_path(const Cursor& c, BlockField field = BlockField::Body);

}  // namespace exocpp::rw
