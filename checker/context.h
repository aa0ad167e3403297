// The context of the code a legality query is about: the proc's asserts and argument facts,
// and what encloses the target statements (loops, if-conditions, windows and allocations in
// scope). Every query takes a Context plus the statements or blocks it concerns.
#pragma once

#include <vector>

#include "core/cursor.h"
#include "core/ir.h"

namespace exocpp::checker {

// One thing that holds around the target code, outermost first.
struct Scope {
  enum Kind { Loop, Cond, Window, Alloc };
  explicit Scope(Kind k = Loop) : kind(k) {}
  Kind kind;
  const ForNode* loop = nullptr;  // Loop: the enclosing loop (iter, lo, hi)
  Expr lo, hi;           // Loop: its bounds when known more precisely than loop's (config values)
  Expr cond;             // Cond: an enclosing if-condition ...
  bool negated = false;  // ... true inside its else branch
  Sym name;              // Window / Alloc: the name bound before the target
  Expr window;           // Window: the WindowExpr it names
  Type type;             // Alloc: the allocated type
};

class Context {
 public:
  // Only the proc's facts: its asserts and positive size arguments.
  static Context top(const Proc& proc);
  // The context of `target`, a statement of `proc` found by identity (same node): every loop
  // and if-branch around it, and every window statement and allocation before it in an
  // enclosing block. Throws InternalError when `target` is not in `proc` (a caller's bug).
  // A statement node a rewrite copied may sit at several places of a proc (a mutator shares
  // unchanged subtrees); when `target` occurs more than once this throws an exocpp::Error
  // asking for its location, rather than guessing which context is meant.
  static Context at(const Proc& proc, const Stmt& target);
  // The context of statement `index` of the statement list at `path` (core/loc.h): exact even
  // when the same node occurs at several places. Rewrites holding a cursor use this one.
  static Context at(const Proc& proc, const BlockPath& path, int index);
  // The context a block's statements run in (that of its first statement).
  static Context at(const Proc& proc, const Block& target);
  // The context of the place a cursor names in its proc: a statement, the start of a block,
  // a gap, or the statement an expression lies in (an argument cursor: the proc's top).
  static Context at(const Cursor& c);

  const Proc& proc() const { return proc_; }
  const std::vector<Scope>& scopes() const { return scopes_; }

  // The declared type of a buffer or window name in scope (proc argument, allocation or
  // window statement before the target); nullptr when unknown.
  const Type* type_of(const Sym& name) const;

  // For walkers that build contexts incrementally (the front-end checks).
  void push(Scope s) { scopes_.push_back(std::move(s)); }
  void pop() { scopes_.pop_back(); }

 private:
  Proc proc_;
  std::vector<Scope> scopes_;
};

}  // namespace exocpp::checker
