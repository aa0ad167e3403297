// Private to replace: the unifier that matches a block of a caller against a subproc's body
// and solves for the call's arguments. Two stages, one file each:
//   unify_match.cpp  walks both trees in step and collects the problem: index equations
//                    (callee expression == caller expression) and buffer-argument accesses
//                    (callee `src[j]` seen as caller `A[i, 16*jo + j']`);
//   unify_solve.cpp  solves the control arguments from the equations, the tensor/window and
//                    scalar arguments from the accesses, and verifies every equation.
// Both throw Mismatch, which replace.cpp turns into a SchedulingError at the statement named.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "checker/context.h"
#include "core/ir.h"

namespace exocpp::rw::unify {

// Why unification failed, and at which caller statement or expression.
struct Mismatch {
  SrcInfo where;
  std::string reason;
};

// Where an equation or access came from, for messages: the caller text and the callee text.
struct Site {
  SrcInfo where;
  std::string caller;
  std::string callee;
};

// callee == caller as integers (or booleans for `bool` arguments). `callee` is written over the
// subproc's arguments and the caller's variables (the subproc's loop variables are already
// replaced by caller expressions).
struct IndexEq {
  Expr callee;
  Expr caller;
  Site site;
};

// The callee reads or writes `callee_arg[callee_idx]` where the caller reads or writes
// `caller_buf[caller_idx]` (empty indices: a scalar).
struct BufAccess {
  Sym callee_arg;
  std::vector<Expr> callee_idx;
  Sym caller_buf;
  std::vector<Expr> caller_idx;
  bool write = false;
  Site site;
};

struct Problem {
  std::vector<IndexEq> eqs;
  std::vector<BufAccess> accesses;
  std::vector<const ForNode*> inner_loops;  // the caller's loops inside the block
  // A callee allocation and the caller allocation it matched.
  std::unordered_map<Sym, Sym, SymHash> locals;
};

// Matches `caller` (the block) against `callee.body()`; throws Mismatch.
Problem match(const Proc& callee, const Block& caller);

// The solved call: arguments in the callee's order (control arguments as simplified index
// expressions, scalar data arguments as a caller variable or element, tensor arguments as
// windows or whole buffers), and what each argument became, for instantiating asserts.
struct Solution {
  std::vector<Expr> args;
  std::unordered_map<Sym, Expr, SymHash> control;  // callee control argument -> caller expression
  struct View {
    Sym buf;                // the caller buffer passed
    std::vector<int> dims;  // the caller dimension of each callee dimension
    bool written = false;   // the callee writes it
  };
  std::unordered_map<Sym, View, SymHash> views;  // callee data argument -> caller buffer
};

// Solves `pb` for the arguments of `callee`. `caller` is the proc, `ctx` the block's context
// with the block's inner loops pushed (for types and the checker), `block_loc` where the block
// starts. Throws Mismatch.
Solution solve(const Proc& caller, const checker::Context& ctx, const Proc& callee,
               const Problem& pb, const SrcInfo& block_loc);

// Is `a == b` for every value of the variables in `ctx` (simplified normal form first, then
// the checker)? `ctx` should include the block's inner loops.
bool provably_equal(const checker::Context& ctx, const Expr& a, const Expr& b);

// Does `e` read any of `vars`?
bool mentions_any(const Expr& e, const std::vector<Sym>& vars);

}  // namespace exocpp::rw::unify
