// See cursor_inspection.h. Every answer is read off locations: a statement at (block, lo)
// contains whatever lies at a longer block path through its step, or in its expressions.
#include "core/cursor_inspection.h"

#include <optional>

namespace exocpp {

namespace {

std::optional<Cursor> parent_of(const Cursor& c) {
  if (!c.is_valid() || c.is_arg() || (c.is_stmt() && c.loc().block.empty())) return std::nullopt;
  return c.parent();
}

bool is_kind(const Cursor& c, StmtKind k) { return c.is_stmt() && c.stmt().kind() == k; }

Cursor enclosing(const Cursor& c, int n, StmtKind k, const char* what) {
  if (n < 1)
    throw InvalidCursorError(std::string("the count of enclosing ") + what +
                             "s must be at least 1");
  std::optional<Cursor> at = c;
  for (int found = 0; found < n;) {
    at = parent_of(*at);
    if (!at) throw InvalidCursorError(std::string("no enclosing ") + what + " found", c.srcinfo());
    if (is_kind(*at, k)) ++found;
  }
  return *at;
}

}  // namespace

bool is_ancestor_of(const Cursor& a, const Cursor& b) {
  if (!a.is_valid() || !b.is_valid() || !a.proc().same_as(b.proc())) return false;
  if (!(a.is_stmt() || a.is_expr()) || b.is_arg()) return false;
  const Loc& la = a.loc();
  const Loc& lb = b.loc();
  if (lb.block.size() < la.block.size()) return false;
  for (size_t k = 0; k < la.block.size(); ++k)
    if (!(lb.block[k] == la.block[k])) return false;
  if (lb.block.size() > la.block.size())  // b lies in a body of the statement at la.block's end
    return a.is_stmt() && lb.block[la.block.size()].index == la.lo;
  if (lb.lo != la.lo || b.is_block() || b.is_gap()) return false;
  if (a.is_stmt()) return true;
  if (!b.is_expr() || lb.expr.size() < la.expr.size()) return false;
  for (size_t k = 0; k < la.expr.size(); ++k)
    if (lb.expr[k] != la.expr[k]) return false;
  return true;
}

Cursor get_lca(const Cursor& a, const Cursor& b) {
  std::optional<Cursor> c = a;
  while (c && !is_ancestor_of(*c, b)) c = parent_of(*c);
  if (!c) throw InvalidCursorError("these cursors have no common ancestor", a.srcinfo());
  return *c;
}

int get_depth(const Cursor& c) {
  int depth = 0;
  for (std::optional<Cursor> at = c; at; at = parent_of(*at)) ++depth;
  return depth;
}

Cursor get_top_level_stmt(const Cursor& c) {
  Cursor at = c;
  while (std::optional<Cursor> up = parent_of(at)) at = *up;
  if (!at.is_stmt()) throw InvalidCursorError("the cursor is not inside a statement");
  return at;
}

Cursor get_enclosing_loop(const Cursor& c, int n) { return enclosing(c, n, StmtKind::For, "loop"); }
Cursor get_enclosing_if(const Cursor& c, int n) { return enclosing(c, n, StmtKind::If, "if"); }

Cursor get_enclosing_loop_by_name(const Cursor& c, const std::string& iter) {
  for (std::optional<Cursor> at = c; at; at = parent_of(*at))
    if (is_kind(*at, StmtKind::For) && at->name() == iter) return *at;
  throw InvalidCursorError("no enclosing loop over '" + iter + "' found", c.srcinfo());
}

int get_index_in_body(const Cursor& stmt, bool from_top) {
  if (!stmt.is_stmt()) throw InvalidCursorError("get_index_in_body needs a statement cursor");
  const int i = stmt.loc().lo;
  return from_top ? i : i - static_cast<int>(stmt.list().size());
}

bool is_start_of_body(const Cursor& stmt) { return get_index_in_body(stmt) == 0; }
bool is_end_of_body(const Cursor& stmt) { return get_index_in_body(stmt, false) == -1; }

Cursor get_nth_inner_loop(const Cursor& loop, int n) {
  if (!is_kind(loop, StmtKind::For)) throw InvalidCursorError("get_nth_inner_loop needs a loop");
  const Cursor body = loop.body();
  int found = 0;
  for (int i = 0; i < body.size(); ++i)
    if (is_kind(body[i], StmtKind::For) && found++ == n) return body[i];
  throw InvalidCursorError("expected at least " + std::to_string(n + 1) + " loops in the body of " +
                               loop.name() + ", found " + std::to_string(found),
                           loop.srcinfo());
}

Cursor get_inner_loop(const Cursor& loop) { return get_nth_inner_loop(loop, 0); }

}  // namespace exocpp
