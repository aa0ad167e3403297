// Locations inside a proc, independent of any particular proc value. How a rewrite maps the
// locations of one proc to those of the proc it made: core/forward.h.
#pragma once

#include <cstdint>
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

}  // namespace exocpp
