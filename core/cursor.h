// Cursors: handles to a statement, block, gap, expression or argument of a particular proc,
// with Exo's navigation (next, prev, parent, body, before, after, expand, ...) and inspection.
// Also the tree-access helpers rewrites use to read and rebuild the IR at a location.
//
// A cursor is a (Proc, Loc) pair. Procs are immutable, so a cursor never goes stale within its
// proc; `new_proc.forward(c)` carries a cursor of an ancestor proc into a derived one through the
// forwarding functions the rewrites recorded (core/forward.h). A cursor whose target was deleted
// forwards to an invalid cursor, which throws InvalidCursorError when used.
#pragma once

#include <string>
#include <vector>

#include "core/forward.h"
#include "core/ir.h"
#include "core/loc.h"

namespace exocpp {

class InvalidCursorError : public Error {
 public:
  explicit InvalidCursorError(std::string reason, SrcInfo loc = {})
      : Error("cursor error", "", std::move(loc), std::move(reason)) {}
};

class Cursor {
 public:
  Cursor() = default;  // invalid
  Cursor(Proc p, Loc l) : proc_(std::move(p)), loc_(std::move(l)) {}

  CursorKind kind() const { return loc_.kind; }
  bool is_valid() const { return loc_.valid() && proc_.defined(); }
  bool is_stmt() const { return kind() == CursorKind::Stmt; }
  bool is_block() const { return kind() == CursorKind::Block; }
  bool is_gap() const { return kind() == CursorKind::Gap; }
  bool is_expr() const { return kind() == CursorKind::Expr; }
  bool is_arg() const { return kind() == CursorKind::Arg; }
  const Proc& proc() const { return proc_; }
  const Loc& loc() const { return loc_; }
  // Exo's `==` on cursors: the same place of the same proc (not of an ancestor or a copy).
  bool operator==(const Cursor& o) const { return proc_.same_as(o.proc_) && loc_ == o.loc_; }

  // ---- the target ----
  Stmt stmt() const;          // Stmt cursor
  Block stmts() const;        // Block or Stmt cursor: the statements
  const Block& list() const;  // the whole statement list holding the target
  Expr expr() const;          // Expr cursor
  const FnArg& arg() const;   // Arg cursor
  SrcInfo srcinfo() const;    // of the target (first statement of a block; next one of a gap)

  // ---- navigation (Exo's) ----
  Cursor parent() const;  // enclosing statement (Expr: enclosing expression, then statement)
  Cursor next(int dist = 1) const;  // Stmt: the statement `dist` after (invalid past the end)
  Cursor prev(int dist = 1) const;
  Cursor before() const;    // Stmt/Block: the gap before
  Cursor after() const;     // Stmt/Block: the gap after
  Cursor anchor() const;    // Gap: the statement after it (or before it, at the end)
  Cursor as_block() const;  // Stmt: a one-statement block
  // Block/Stmt: grow by delta_lo statements before and delta_hi after; -1 means "as far as
  // possible".
  Cursor expand(int delta_lo = -1, int delta_hi = -1) const;
  Cursor body() const;                 // For/If: its body as a Block cursor
  Cursor orelse() const;               // If: its else branch (invalid if none)
  int size() const;                    // Block: number of statements
  Cursor operator[](int i) const;      // Block: its i-th statement
  Cursor slice(int lo, int hi) const;  // Block: statements [lo, hi)

  // ---- inspection ----
  // The name a statement or argument introduces or targets: loop variable, allocated buffer,
  // assigned/reduced buffer, window, argument. Throws for other kinds.
  std::string name() const;
  Cursor lo() const;    // For: lower bound expression
  Cursor hi() const;    // For: upper bound expression
  Cursor cond() const;  // If: condition
  Cursor rhs() const;   // Assign/Reduce/WriteConfig/WindowStmt: right-hand side; BinOp: right
  Cursor lhs() const;   // BinOp: left operand
  // Arg or Alloc (Exo's ArgCursor / AllocCursor): the declared type, memory, shape, and whether
  // it is a tensor (has dimensions; a window argument is one).
  Type type() const;
  std::string mem() const;
  std::vector<Expr> shape() const;
  bool is_tensor() const;
  std::vector<Cursor> idx() const;   // Assign/Reduce/Read: index expressions
  std::vector<Cursor> args() const;  // Call: argument expressions; Extern: its arguments
  Cursor child(int i) const;         // Expr/Stmt: expression child i (see expr_children)
  int num_children() const;

  // The target printed in surface syntax (a statement's first line for compound statements).
  std::string to_string() const;
  // The first printed line of the target as the proc is now: a statement's first line
  // (`for yo in seq(0, H / 8):`), an expression's text; empty for gaps, arguments and invalid
  // cursors. Errors quote it when the code no longer reads as its source line.
  std::string current_line() const;

 private:
  void require(CursorKind k, const char* what) const;
  Proc proc_;
  Loc loc_;
};

std::ostream& operator<<(std::ostream& os, const Cursor& c);

// ---- Procs and cursors -----------------------------------------------------------------------

Cursor proc_body(const Proc& p);               // the whole body as a Block cursor
std::vector<Cursor> proc_args(const Proc& p);  // Arg cursors
// Carries `c` (a cursor of `p` or of one of its ancestors) into `p`. Throws InvalidCursorError
// when c's proc is not an ancestor of p.
Cursor forward(const Proc& p, const Cursor& c);
// A new proc derived from `parent` (history recorded for forwarding).
Proc derive_proc(const Proc& parent, std::shared_ptr<const ProcNode> node, ForwardFn fwd);
// The same, with a new body.
Proc derive_proc(const Proc& parent, Block new_body, ForwardFn fwd);
// While set (non-null), every proc derive_proc makes on this thread is appended to `log`:
// validation mode (rewrites/validate.h) uses it to find the input of an operation. Returns the
// previous log.
std::vector<Proc>* set_derive_log(std::vector<Proc>* log);

// ---- Tree access for rewrites ----------------------------------------------------------------

// The statement list at `path` (throws InternalError on a bad path).
const Block& block_at(const Block& body, const BlockPath& path);
Stmt stmt_at(const Block& body, const BlockPath& path, int index);
// A new body where statements [lo, hi) of list `path` are replaced by `with`; every list and
// statement off the path is shared.
Block replace_stmts(const Block& body, const BlockPath& path, int lo, int hi, const Block& with);
// The child expressions of a statement or expression, in a fixed order:
//   Assign/Reduce: idx..., rhs      WriteConfig: rhs      If: cond     For: lo, hi
//   Call: args...                   WindowStmt: rhs       Alloc, Pass: none
//   Read: idx...   USub: arg   BinOp: lhs, rhs   Extern: args...
//   WindowExpr: per access lo (and hi for intervals)   Const, StrideExpr, ReadConfig: none
std::vector<Expr> expr_children(const Stmt& s);
std::vector<Expr> expr_children(const Expr& e);
// The expression at child path `steps` below statement `s`.
Expr expr_at(const Stmt& s, const std::vector<int>& steps);
// `s` with the expression at `steps` replaced by `with` (types recomputed along the path).
Stmt replace_expr(const Stmt& s, const std::vector<int>& steps, const Expr& with);
// `e` with child i replaced.
Expr with_child(const Expr& e, int i, const Expr& child);
Stmt with_child(const Stmt& s, int i, const Expr& child);

}  // namespace exocpp
