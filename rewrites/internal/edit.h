// Building the new code of a rewrite: substitution of index variables, alpha-renaming of
// copied code, rewriting every access of a buffer, an edit inside one expression, and the
// forwarding functions of the moves operations make (with those of core/loc.h).
#pragma once

#include <functional>
#include <optional>
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
  // Element accesses left on `buf` as they are (stage_mem's accesses outside its window), by
  // node: the ReadNode of a read, the AssignNode or ReduceNode of a written element. None when
  // empty.
  std::function<bool(const void*)> leave;
};
Block map_accesses(const Block& b, const AccessMap& m);
Stmt map_accesses(const Stmt& s, const AccessMap& m);

// One rewrite of a proc, described once: each verb changes the body and records how locations
// move, so the new proc and its forwarding cannot disagree. Paths and indices of a verb are in
// the coordinates of the body as the verbs before it left it. The header (arguments, asserts,
// the equivalence records) is edited through node(); the body only through the verbs.
//
//   return rw::Edit(p).replace(path, at, at + 1, {a, b}, inside).done();
class Edit {
 public:
  explicit Edit(const Proc& p);

  // Statements [lo, hi) of list `path` become `with`. Locations inside them map through
  // `inside` (old location to new), by default to invalid; a block cursor on exactly [lo, hi)
  // covers the new statements; locations after them shift.
  Edit& replace(const BlockPath& path, int lo, int hi, Block with, ForwardFn inside = nullptr);
  // Statements [lo, hi) become `with`, one for one (the same count): each new statement is
  // the old one rewritten where it stands, so every location stays where it is.
  Edit& rewrite(const BlockPath& path, int lo, int hi, Block with);
  // `with` inserted before statement `at` (at == size: at the end).
  Edit& insert(const BlockPath& path, int at, Block with);
  // Statements [lo, hi) removed; locations inside them become invalid.
  Edit& remove(const BlockPath& path, int lo, int hi);
  // Statements [lo, hi) become the `field` list of the statement `wrapper` builds from them
  // (a new loop or if around them; the list may be a rewritten copy of the same length):
  // everything inside moves one level down.
  Edit& wrap(const BlockPath& path, int lo, int hi,
             const std::function<Stmt(const Block&)>& wrapper, BlockField field = BlockField::Body);
  // The statement at `at` is replaced by its own `field` list, spliced in place.
  Edit& unwrap(const BlockPath& path, int at, BlockField field = BlockField::Body);
  // Statement `from_idx` of list `from` moved to position `to_idx` of list `to` (`to` and
  // `to_idx` in the coordinates after the removal); it keeps everything inside it.
  Edit& move(const BlockPath& from, int from_idx, const BlockPath& to, int to_idx);
  // Statements [lo, hi) swap places with [hi, hi2).
  Edit& swap(const BlockPath& path, int lo, int hi, int hi2);
  // The expression at `at` (an Expr location in the body as it is now) becomes `with`. A
  // location strictly inside the old expression, given as its child steps below `at`, maps
  // through `inside` to its steps below `at` in `with` (nullopt: gone); by default all are gone.
  using ExprMoves = std::function<std::optional<std::vector<int>>(const std::vector<int>&)>;
  Edit& expr(const Loc& at, const Expr& with, ExprMoves inside = nullptr);
  // The whole body rewritten in place (types or accesses changed): every statement stays
  // where it is, so no location moves.
  Edit& rewrite_body(Block with);
  // The declaration `decl` (an allocation or argument cursor of the input) with its type and
  // memory changed by `change`; nothing else changes.
  Edit& declaration(const Cursor& decl, const std::function<void(Type&, std::string&)>& change);
  // The allocation at statement `at` of list `path` becomes `new_alloc` and every access of its
  // buffer in the statements after it is rewritten by `m` (a buffer's shape or layout changed):
  // all in place, so no location moves.
  Edit& redeclare(const BlockPath& path, int at, const Stmt& new_alloc, const AccessMap& m);
  // Statements [lo, hi) become `with` in an arrangement no verb above describes (loops trading
  // places, branches regrouped); `fwd` maps every location of the proc.
  Edit& remap(const BlockPath& path, int lo, int hi, Block with, ForwardFn fwd);

  const Block& body() const { return node_.body; }
  // The header fields; do not assign `body` here (use the verbs).
  ProcNode& node() { return node_; }
  const ProcNode& node() const { return node_; }
  // The proc the edits made, on its own (no history): what checks run on before done().
  Proc candidate() const;
  // The new proc, derived from the input with the forwarding of every verb in order.
  Proc done() const;

 private:
  Proc from_;
  ProcNode node_;
  ForwardFn fwd_;
};

// Forwarding of "statement `from_idx` of list `from` moved to position `to_idx` of list `to`"
// where `to` and `to_idx` are given in the coordinates after the removal.
ForwardFn fwd_move_stmt(BlockPath from, int from_idx, BlockPath to, int to_idx);

// The path of statement cursor `c`'s own `field` list (for its body or else branch).
BlockPath child_path(const Cursor& c, BlockField field = BlockField::Body);

}  // namespace exocpp::rw
