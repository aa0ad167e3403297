// Locations inside a proc, independent of any particular proc value, and forwarding functions
// that map the locations of one proc to those of the proc a rewrite made from it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace exocpp {

enum class CursorKind : uint8_t { Invalid, Stmt, Block, Gap, Expr, Arg };
const char* to_string(CursorKind k);

// Which statement list of a statement: a loop's or if's body, or an if's else branch.
enum class BlockField : uint8_t { Body, Orelse };

// One step down: statement `index` of the current list, then its `field` list.
struct PathStep {
  int index = 0;
  BlockField field = BlockField::Body;
  bool operator==(const PathStep& o) const { return index == o.index && field == o.field; }
};
// The statement list holding a target: empty for the proc's body.
using BlockPath = std::vector<PathStep>;

// Where a cursor points:
//   Stmt   statement `lo` of list `block` (hi == lo + 1)
//   Block  statements [lo, hi) of list `block` (hi > lo)
//   Gap    the space before statement `lo` of list `block` (lo == hi; lo == size: at the end)
//   Expr   the expression reached from statement `lo` of `block` by the child steps `expr`
//          (child numbering: see expr_children() in core/cursor.h)
//   Arg    argument `lo` of the proc
struct Loc {
  CursorKind kind = CursorKind::Invalid;
  BlockPath block;
  int lo = 0, hi = 0;
  std::vector<int> expr;

  bool valid() const { return kind != CursorKind::Invalid; }
  bool operator==(const Loc& o) const {
    return kind == o.kind && block == o.block && lo == o.lo && hi == o.hi && expr == o.expr;
  }
  static Loc invalid() { return {}; }
  std::string to_string() const;  // for debugging and error messages
};

// Maps a location of the old proc to the corresponding location of the new one; Loc::invalid()
// when the target no longer exists.
using ForwardFn = std::function<Loc(const Loc&)>;

// ---- Forwarding builders: the edits rewrites are made of --------------------------------------

// Nothing moved (the rewrite changed nodes in place).
ForwardFn fwd_identity();
// f, then g.
ForwardFn fwd_compose(ForwardFn f, ForwardFn g);
// Statements [lo, hi) of list `path` were replaced by `n_new` statements. Locations after them
// shift; locations inside them are mapped by `inside` (which receives the old location and
// returns the new one, or invalid) — by default they become invalid. A Block cursor covering
// exactly [lo, hi) maps to the new statements (or invalid when n_new == 0).
ForwardFn fwd_replace(BlockPath path, int lo, int hi, int n_new, ForwardFn inside = nullptr);
// Statements [lo, hi) of list `path` became the body of a new statement placed at `lo` (a new
// loop or if around them): everything inside moves one level down.
ForwardFn fwd_wrap(BlockPath path, int lo, int hi, BlockField field = BlockField::Body);
// The statement at `lo` of list `path` was replaced by its own body (`field`), spliced in place
// (the inverse of fwd_wrap: remove_loop, lift of an if, ...). The statement itself becomes invalid.
ForwardFn fwd_unwrap(BlockPath path, int lo, int body_size, BlockField field = BlockField::Body);
// Statements [lo, hi) of list `path` swapped places with the statements [hi, hi2): a reorder.
ForwardFn fwd_swap(BlockPath path, int lo, int hi, int hi2);

// Helpers for custom forwarding functions.
// True when `l` is at or below statement `index` of list `path` (the statement itself, a
// location inside its bodies, or one of its expressions).
bool loc_within_stmt(const Loc& l, const BlockPath& path, int index);
// `l` re-rooted: its prefix `from` (a statement list path, or statement `from_index` when
// >= 0) replaced by `to` / `to_index`.
Loc loc_reroot(const Loc& l, const BlockPath& from, int from_index, const BlockPath& to,
               int to_index);

}  // namespace exocpp
