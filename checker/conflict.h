// Internal: the search for a pair of conflicting accesses that most dependence queries share,
// and the wrapper that turns an encoding failure into Answer::Unknown.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "checker/encode.h"

namespace exocpp::checker {

// One side of a conflict search: the effects of some code, with the loop iterators the query
// splits (e.g. the loop under analysis as iteration i1 on one side and i2 on the other) bound
// to the side's own variables.
struct Side {
  const Effects* eff = nullptr;
  std::string tag;                                     // distinguishes the two sides' variables
  std::vector<std::pair<Sym, z3::expr>> binds;         // iterator -> this side's variable
  std::function<std::string(const z3::model&)> label;  // "iteration i = 0", "the first block"
};

struct ConflictSpec {
  Side first, second;  // `first` runs before `second` in the original program
  // Constraint on the sides' variables (ranges, i1 < i2); true when absent.
  std::optional<z3::expr> extra;
  // Which access pairs matter; default: the standard conflict (see queries.h) with reductions
  // commuting when `reduces_commute`.
  std::function<bool(const Access&, const Access&)> relevant;
  bool reduces_commute = true;
  // Accesses to buffers the analysed code allocates are private and skipped, unless this is
  // false (lift_alloc studies exactly those).
  bool skip_private = true;
  // Optional further condition on the second access of a pair (its encoding given).
  std::function<z3::expr(Encoder&, const Access&, const Encoder::Enc&)> second_extra;
  // Optional further condition on a pair (both accesses and encodings, first side first).
  std::function<z3::expr(const Access&, const Encoder::Enc&, const Access&, const Encoder::Enc&)>
      pair_extra;
  std::string reason;  // Answer::reason when refuted
};

// Proved when no relevant pair can conflict under the facts of `ctx`; Refuted with the first
// conflicting pair of the model, in words; Unknown on time-out. Throws Unsupported.
Answer find_conflict(Encoder& enc, const Context& ctx, const ConflictSpec& spec);

// The standard conflict between two accesses.
bool conflicting(const Access& x, const Access& y, bool reduces_commute);

// " at line 5", or "" when the location is unknown.
std::string at_line(const SrcInfo& s);

// Runs `f`, turning Unsupported into Answer::Unknown.
template <class F>
Answer guarded(F&& f) {
  QueryBudget budget;  // every formula of the query shares its time budget
  try {
    return f();
  } catch (const Unsupported& u) {
    return Answer::unknown_because(u.reason, u.loc);
  } catch (const z3::exception& e) {
    return Answer::unknown_because(std::string("Z3 failed: ") + e.msg());
  }
}

// The verdict for a formula whose satisfiability means "refuted": Proved when unsat, Unknown
// when Z3 gave up, else nullopt and the model in `model`.
std::optional<Answer> decide(Encoder& enc, const z3::expr& f, std::optional<z3::model>& model);

}  // namespace exocpp::checker
