// Forwarding functions: how the locations (core/loc.h) of one proc map to those of the proc a
// rewrite made from it, one builder per kind of edit. The whole family lives here; rewrites
// reach it through rw::Edit (rewrites/internal/edit.h), whose verbs pair each body change with
// its builder, and never write a forwarding function by hand.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "core/loc.h"

namespace exocpp {

// Maps a location of the old proc to the corresponding location of the new one; Loc::invalid()
// when the target no longer exists.
using ForwardFn = std::function<Loc(const Loc&)>;

// ---- Composition ----------------------------------------------------------------------------

// Nothing moved (the rewrite changed nodes in place).
ForwardFn fwd_identity();
// f, then g.
ForwardFn fwd_compose(ForwardFn f, ForwardFn g);
// Nothing moved, but the locations `keep` rejects become invalid (a rewrite in place that
// changed some expressions).
ForwardFn fwd_filter(std::function<bool(const Loc&)> keep);

// ---- Statement lists ------------------------------------------------------------------------

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
// Statement `from_idx` of list `from` moved to position `to_idx` of list `to` (`to` and `to_idx`
// in the coordinates after the removal); it keeps everything inside it.
ForwardFn fwd_move_stmt(BlockPath from, int from_idx, BlockPath to, int to_idx);
// Statements [lo, hi) of list `path` kept in place (rewritten one for one) with `n_before` new
// statements before them and `n_after` after: locations inside them shift by n_before; a Block
// cursor on exactly [lo, hi) covers all the new statements; the gaps at lo and hi stay outside.
ForwardFn fwd_surround(BlockPath path, int lo, int hi, int n_before, int n_after);
// Statement `at` of list `path` became `n_new` statements (a call inlined): a Stmt or Block
// cursor on it covers them all; everything inside it (its expressions) becomes invalid.
ForwardFn fwd_expand(BlockPath path, int at, int n_new);
// Statement `at` of list `path` became two statements, the first of them the statement itself
// (a loop cut in two): everything inside it stays in the first; a Block cursor on exactly it
// covers both; locations after it shift by one.
ForwardFn fwd_cut(BlockPath path, int at);

// ---- Compound statements --------------------------------------------------------------------

// Statement `at` of list `path` was split at gap `k` of its `field` list into two copies at
// `at` and `at + 1` (fission): locations of the list before the gap stay in the first copy,
// those after it move to the second (k fewer statements before them); the gap itself maps to
// the gap between the copies, a block across it becomes invalid. The statement and its
// expressions map to the first copy; its other branch (an if's) stays with the copy that keeps
// it: the second for a split body, the first for a split else branch. Locations after the
// statement shift by one.
ForwardFn fwd_split(BlockPath path, int at, BlockField field, int k);
// Statements `at` and `at + 1` of list `path` became one (fuse, join_loops). Locations in the
// first stay. With `append`, those inside a list of the second move into the same list of the
// merged statement after the first's own statements (`body_offset` of its body, `orelse_offset`
// of its else branch); without, they become invalid. The second statement, its expressions, the
// gap between the two and blocks across both become invalid. Later locations shift up one.
ForwardFn fwd_merge(BlockPath path, int at, bool append, int body_offset, int orelse_offset);
// Statement `at` of list `path` and its only child (the one statement of its `field` list)
// traded heads (reorder_loops, lift_scope): a location of the parent's head (the statement or
// its expressions) goes to the new inner statement (statement 0 of the new outer's body), one of
// the child's head to `at`. A location inside branch g of the child, under branch `field` of the
// parent, is afterwards inside branch `field` of the new inner under branch g of the new outer
// (the two leading path steps swap their fields). A location in the parent's other branch (an
// if's) goes to the new inner's copy of it under the new outer's body. Blocks and gaps of the
// child's list, and everything else, stay.
ForwardFn fwd_interchange(BlockPath path, int at, BlockField field);

// ---- Expressions ----------------------------------------------------------------------------

// Child steps below an expression location, mapped to the new steps below it (nullopt: gone).
using ExprMoves = std::function<std::optional<std::vector<int>>(const std::vector<int>&)>;
// The expression at `at` was replaced: it keeps its location; a location strictly inside it,
// given as its child steps below `at`, maps through `inside` (by default: all are gone).
ForwardFn fwd_expr(Loc at, ExprMoves inside = nullptr);
// The expression at `at` was replaced by its own child `child` (`a + e` --> `e`): locations
// inside that child move up one step; `at` itself and the rest of it become invalid.
ForwardFn fwd_keep_child(Loc at, int child);

// ---- Helpers for the builders above ---------------------------------------------------------

// True when `l` is at or below statement `index` of list `path` (the statement itself, a
// location inside its bodies, or one of its expressions).
bool loc_within_stmt(const Loc& l, const BlockPath& path, int index);
// `l` re-rooted: its prefix `from` (a statement list path, or statement `from_index` when
// >= 0) replaced by `to` / `to_index`.
Loc loc_reroot(const Loc& l, const BlockPath& from, int from_index, const BlockPath& to,
               int to_index);

}  // namespace exocpp
