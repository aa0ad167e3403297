// Internal: encoding of control expressions, contexts and accesses into Z3 formulas over the
// integers, and the cached, time-limited solver. Only checker/*.cpp include this header.
//
// The fragment: integer constants, size/index/int variables, stride(A, d), + - *, / and % by
// positive constants (floor semantics; each becomes a quotient and a remainder variable tied
// to its numerator by a defining constraint), comparisons, and/or, bool variables; elements of
// index arguments (one uninterpreted function per argument, each value in its declared range);
// comparisons of data values (a fresh unknown truth value at each evaluation). Anything else
// throws Unsupported, which a query turns into Answer::Unknown with the reason.
#pragma once

#include <z3++.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/answer.h"
#include "checker/context.h"
#include "checker/effects.h"

namespace exocpp::checker {

struct Unsupported {
  std::string reason;
  SrcInfo loc;
};

// The calling thread's Z3 context (one per thread, created on first use).
z3::context& z3ctx();

// Text of a control expression in surface syntax (for messages; the checker does not depend
// on the printer).
std::string expr_text(const Expr& e);

// The value config field `read` names holds when the proc is entered (set by its caller): a
// control variable "Cfg.field", the same one for every query, so that a proc's asserts about a
// field (`assert stride(src, 0) == Cfg.src_stride`) and a fact at a point where the field still
// holds its entry value (no write before it) speak of one value. Config values are otherwise
// not modelled: a read elsewhere stays outside the fragment.
Expr config_entry_value(const ReadConfigNode& read);
// `e` with every config read taken as its entry value (sound for the proc's own asserts).
Expr with_entry_config_values(const Expr& e);
std::string location_text(const Access& a, const std::vector<std::string>& idx_values);

class Encoder {
 public:
  // Encodes expressions of code in `ctx` (whose buffer types give the strides of dense tensors).
  explicit Encoder(const Context& ctx) : c_(z3ctx()), scope_(ctx) {}
  z3::context& ctx() { return c_; }

  z3::expr num(const Expr& e);   // an integer-valued expression
  z3::expr cond(const Expr& e);  // a bool-valued expression
  z3::expr guard(const Guard& g) { return g.negated ? !cond(g.cond) : cond(g.cond); }

  // The plain variable of a symbol (a size, an index, an enclosing loop's iterator).
  z3::expr var(const Sym& s);
  // A tagged copy of a symbol ("i" of iteration 1 vs iteration 2), used from now on wherever
  // the symbol occurs, until unbind(s).
  z3::expr bind_copy(const Sym& s, const std::string& tag);
  void bind(const Sym& s, const z3::expr& v);
  void unbind(const Sym& s);

  // The facts of a context: positive sizes, asserts, enclosing loop ranges and conditions.
  z3::expr facts(const Context& ctx);

  // An access under `tag`: its loops' iterators become tagged copies. `when` is the condition
  // under which it happens (loop ranges and guards), `idx` its index in the root buffer.
  struct Enc {
    z3::expr when;
    std::vector<z3::expr> idx;
    std::vector<z3::expr> iters;  // the tagged copies of its loops' iterators
  };
  Enc access(const Access& a, const std::string& tag);

  // Conjunction of the defining constraints of every quotient/remainder introduced so far.
  z3::expr definitions();

  // Plain (untagged) variables met so far, with their display names: arguments in order, then
  // enclosing loop iterators outermost first, then the rest.
  struct PlainVar {
    z3::expr e;
    std::string name;
    int rank;
    bool data = false;  // the outcome of a data comparison (named in counterexamples)
    // Placeholders in `name` ("$0$") standing for index values, shown as the model's numbers:
    // `dst[$0$]` prints as dst[3].
    std::vector<std::pair<std::string, z3::expr>> holes = {};
  };
  const std::vector<PlainVar>& plain_vars() const { return plain_; }

 private:
  z3::context& c_;
  const Context& scope_;
  std::map<uint64_t, z3::expr> bound_;
  std::map<uint64_t, std::pair<z3::expr, std::string>> plain_by_id_;
  std::vector<PlainVar> plain_;
  std::map<std::pair<unsigned, int64_t>, std::pair<z3::expr, z3::expr>> divmod_;
  std::vector<z3::expr> defs_;

  std::map<uint64_t, z3::func_decl> index_fns_;  // per index argument
  std::set<unsigned> index_apps_;                // applications whose range is stated
  int data_conds_ = 0;

  std::pair<z3::expr, z3::expr> divmod(const z3::expr& a, int64_t c);
  const FnArg* index_arg_of(const Sym& name) const;
  z3::expr index_value(const FnArg& a, const Expr& read);
  z3::expr data_condition(const Expr& e);
  // The text of `e` with each index of each buffer read it makes replaced by a placeholder for
  // its value (PlainVar::holes), for counterexamples that name the elements they assumed.
  std::pair<std::string, std::vector<std::pair<std::string, z3::expr>>> shown(const Expr& e);
};

// The value of an integer term in a model, as text.
std::string model_value(const z3::model& m, const z3::expr& e);
// "N = 4, j = 2": the plain variables of `enc` that occur in the model.
std::string context_values(const Encoder& enc, const z3::model& m);

// Checks satisfiability of `f` (with the encoder's definitions) under the current settings,
// caching the result per structurally identical formula.
struct SatResult {
  z3::check_result result;
  std::optional<z3::model> model;
  std::string why_unknown;
};
SatResult check_sat(Encoder& enc, const z3::expr& f);

// The time budget of one query (Settings::timeout_ms) as a deadline shared by every solver
// call made while it is alive on this thread: check_sat opens one for its own solvers, and a
// query asking several formulas (guarded) opens one around them all. Nested budgets join the
// outermost. When the deadline has passed, check_sat answers unknown ("Z3 timed out").
class QueryBudget {
 public:
  QueryBudget();
  ~QueryBudget();
  QueryBudget(const QueryBudget&) = delete;
  QueryBudget& operator=(const QueryBudget&) = delete;

 private:
  bool owner_ = false;
};

// Constant value of an integer expression built only from literals, if it is one.
std::optional<int64_t> const_int(const Expr& e);

}  // namespace exocpp::checker
