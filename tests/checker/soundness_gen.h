// Random small loop programs for the soundness test, with their own brute-force enumerator of
// every executed access. The enumerator shares nothing with the checker: it evaluates index
// arithmetic on concrete integers (floor division and modulo, as the language defines them).
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace exocpp::checker::soundness {

// Index arithmetic over loop variables (numbered across the whole program).
struct IExpr {
  enum Kind { Const, Var, Add, Sub, Scale, Prod, Div, Mod } kind = Const;
  long value = 0;  // Const; the factor of Scale; the divisor of Div / Mod
  int var = -1;    // Var
  std::shared_ptr<const IExpr> a, b;
};
using IExprP = std::shared_ptr<const IExpr>;

long floor_div(long a, long b);
long floor_mod(long a, long b);
long eval(const IExpr& e, const std::vector<long>& env);
std::string text(const IExpr& e, const std::vector<std::string>& names);

struct GAccess {
  int buf = 0;  // 0: x, 1: y
  std::vector<IExprP> idx;
};

// A guard `lhs < rhs` or `lhs % 2 == 0` (when `parity`).
struct GCond {
  IExprP lhs, rhs;
  bool parity = false;
};

struct GStmt {
  enum Kind { Assign, Reduce, Loop } kind = Assign;
  // Assign / Reduce
  GAccess lhs;
  std::vector<GAccess> reads;
  std::shared_ptr<GCond> guard;  // the statement sits under `if guard:`
  int constant = 1;              // with no reads: the constant stored (1.0 or 2.0)
  // Loop
  int var = -1;
  IExprP lo, hi;
  std::vector<GStmt> body;
};

struct GProgram {
  int ranks[2] = {1, 1};
  int nbufs = 1;
  std::vector<std::string> var_names;
  std::vector<GStmt> body;
  std::string source() const;  // in the surface language, proc named `p`
};

GProgram random_nest(std::mt19937_64& rng);      // one loop nest, 2-3 deep
GProgram random_siblings(std::mt19937_64& rng);  // two top-level loops (for fusion)

// One executed access.
struct Event {
  bool write = false, reduce = false;  // neither: a read
  int stored_constant = 0;             // an assignment of a constant: its value; else 0
  int buf = 0;
  std::vector<long> loc;
  std::vector<long> env;           // loop variable values (-999 when not bound)
  std::vector<const GStmt*> path;  // enclosing statements, outermost first, the access's own last
};

std::vector<Event> enumerate(const GProgram& p);

// Two events touch one location and one writes it (two reductions conflict only when
// !reduces_commute, and neither do two assignments of the same constant, which leave the same
// value in either order).
bool conflict(const Event& a, const Event& b, bool reduces_commute);
bool under(const Event& e, const GStmt* s);

}  // namespace exocpp::checker::soundness
