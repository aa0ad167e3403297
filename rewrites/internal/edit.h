// Building the new code of a rewrite: substitution of index variables, alpha-renaming of
// copied code, rewriting every access of a buffer, and rw::Edit, which changes a proc's body
// and records how locations move (with the forwarding builders of core/forward.h) in one call.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/cursor.h"
#include "core/forward.h"
#include "core/ir.h"

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
// Operations never write a forwarding function: each verb's rule below is the whole of its
// forwarding (the builders behind them are in core/forward.h).
//
//   return rw::Edit(p).replace(path, at, at + 1, {a, b}).done();
class Edit {
 public:
  explicit Edit(const Proc& p);

  // ---- statements of one list ----
  // Statements [lo, hi) of list `path` become `with`. Locations inside them become invalid; a
  // block cursor on exactly [lo, hi) covers the new statements; locations after them shift.
  Edit& replace(const BlockPath& path, int lo, int hi, Block with);
  // Statements [lo, hi) become `with`, one for one (the same count): each new statement is
  // the old one rewritten where it stands, so every location stays where it is.
  Edit& rewrite(const BlockPath& path, int lo, int hi, Block with);
  // Statements [lo, hi) become `with`, one for one, changed only in their expressions (the same
  // statement kinds and lists: simplified, a factor dropped). Statement, block and gap
  // locations stay; an expression location stays when the top-level expression of its
  // statement holding it is the same node as before, or is itself that top-level expression;
  // one strictly inside a changed top-level expression becomes invalid.
  Edit& rewrite_exprs(const BlockPath& path, int lo, int hi, Block with);
  // `with` inserted before statement `at` (at == size: at the end).
  Edit& insert(const BlockPath& path, int at, Block with);
  // Statements [lo, hi) removed; locations inside them become invalid.
  Edit& remove(const BlockPath& path, int lo, int hi);
  // Statements [lo, hi) rewritten one for one as `with`, with `before` placed before them and
  // `after` after them (stage_mem's allocation and load, and its store). Locations inside them
  // shift past `before`; a block cursor on exactly [lo, hi) covers all the new statements; the
  // gap before lo stays before `before`, the one after hi moves after `after`.
  Edit& surround(const BlockPath& path, int lo, int hi, Block before, Block with, Block after);
  // Statement `at` becomes the statements `with` (a call replaced by its callee's body): a
  // statement or block cursor on it covers them all; its expressions become invalid.
  Edit& expand(const BlockPath& path, int at, Block with);
  // Statement `at` becomes `first` and `second`, the first being the statement itself with
  // less to do (a loop's range cut in two): everything inside the statement stays in `first`;
  // a block cursor on exactly it covers both; locations after it shift by one.
  Edit& cut(const BlockPath& path, int at, Stmt first, Stmt second);
  // Statement `from_idx` of list `from` moved to position `to_idx` of list `to` (`to` and
  // `to_idx` in the coordinates after the removal); it keeps everything inside it.
  Edit& move(const BlockPath& from, int from_idx, const BlockPath& to, int to_idx);
  // Statements [lo, hi) swap places with [hi, hi2).
  Edit& swap(const BlockPath& path, int lo, int hi, int hi2);

  // ---- loops and ifs ----
  // Statements [lo, hi) become the `field` list of the statement `wrapper` builds from them
  // (a new loop or if around them; the list may be a rewritten copy of the same length):
  // everything inside moves one level down.
  Edit& wrap(const BlockPath& path, int lo, int hi,
             const std::function<Stmt(const Block&)>& wrapper, BlockField field = BlockField::Body);
  // The statement at `at` is replaced by its own `field` list, spliced in place.
  Edit& unwrap(const BlockPath& path, int at, BlockField field = BlockField::Body);
  // Statement `at`, a loop or if, is split at gap `k` of its `field` list into `first`, whose
  // `field` list holds the statements before the gap, and `second`, holding those after it
  // (fission). Locations before the gap stay in `first`; those after it move to `second` (k
  // fewer statements before them); the gap maps to the gap between the two, a block across it
  // becomes invalid. The statement and its expressions map to `first`; an if's other branch
  // stays with the copy that holds it: `second` for a split body, `first` for a split else
  // branch. Locations after the statement shift by one.
  Edit& split(const BlockPath& path, int at, BlockField field, int k, Stmt first, Stmt second);
  // What becomes of the second statement's lists when two statements merge.
  enum class Second : uint8_t {
    Appended,  // they follow the first's own (fuse)
    Dropped,   // they were the same as the first's (join_loops)
  };
  // Statements `at` and `at + 1` become the one statement `merged`, the first rewritten where
  // it stands (fuse, join_loops). Locations in the first stay. With Second::Appended the
  // merged statement's body (and else branch) is the first's followed by the second's, and a
  // location inside a list of the second moves into the same list of the merged statement,
  // after the first's own statements; with Second::Dropped it becomes invalid. The second
  // statement, its expressions, the gap between the two and blocks across both become
  // invalid; later locations shift up one.
  Edit& merge(const BlockPath& path, int at, Stmt merged, Second second = Second::Appended);
  // Statement `at` and its only child (the one statement of its `field` list) trade heads:
  // `with` has the child's head outside and the statement's head inside it, the branches
  // regrouped accordingly (reorder_loops, lift_scope). A cursor to either head (the statement
  // or its expressions) follows it: the old parent's goes to statement 0 of the new outer's
  // body, the old child's to `at`. A location inside branch g of the child, under branch
  // `field` of the parent, is afterwards inside branch `field` of the new inner under branch g
  // of the new outer (its two leading path steps trade fields); one in the parent's other
  // branch (an if's, which `with` copies into the new inner ifs) goes to its first copy, under
  // the new outer's body. Blocks and gaps of the child's list, and all else, stay.
  Edit& interchange(const BlockPath& path, int at, BlockField field, Stmt with);

  // ---- expressions ----
  // The expression at `at` (an Expr location in the body as it is now) becomes `with`. A
  // location strictly inside the old expression, given as its child steps below `at`, maps
  // through `inside` to its steps below `at` in `with` (nullopt: gone); by default all are gone.
  using ExprMoves = exocpp::ExprMoves;
  Edit& expr(const Loc& at, const Expr& with, ExprMoves inside = nullptr);
  // The expression at `at` becomes its own child `child` (`a + e` --> `e`): locations inside
  // that child move up one step; `at` itself and the rest of the old expression become invalid.
  Edit& keep_child(const Loc& at, int child);

  // ---- in place ----
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

  const Block& body() const { return node_.body; }
  // The header fields; do not assign `body` here (use the verbs).
  ProcNode& node() { return node_; }
  const ProcNode& node() const { return node_; }
  // The proc the edits made, on its own (no history): what checks run on before done().
  Proc candidate() const;
  // The new proc, derived from the input with the forwarding of every verb in order.
  Proc done() const;

 private:
  // Statements [lo, hi) of list `path` become `with`; `fwd` is the verb's forwarding.
  void apply(const BlockPath& path, int lo, int hi, const Block& with, ForwardFn fwd);
  Proc from_;
  ProcNode node_;
  ForwardFn fwd_;
};

// The path of statement cursor `c`'s own `field` list (for its body or else branch).
BlockPath child_path(const Cursor& c, BlockField field = BlockField::Body);

}  // namespace exocpp::rw
