// The answer every legality query returns (proved / refuted with a counterexample / unknown),
// and the checker's settings (per-query timeout, query cache).
#pragma once

#include <cstdint>
#include <string>

#include "core/srcinfo.h"

namespace exocpp::checker {

// What a query decided.
//   Proved  - the property holds for every value of the sizes and indices allowed by the
//             preconditions (asserts, loop ranges, if-conditions).
//   Refuted - it does not: `counterexample` says, in words a user reads, which values break it
//             ("iteration i=1 writes C[0, 3] (line 6), iteration i=0 reads it afterwards");
//             `reason` says which property failed; `loc` is the access at fault when known.
//   Unknown - the checker could not decide: the question is outside the quasi-affine fragment
//             (`reason` names the expression) or Z3 timed out. A rewrite treats Unknown as a
//             refusal and reports the reason.
struct Answer {
  enum Verdict { Proved, Refuted, Unknown };
  Verdict verdict = Unknown;
  std::string reason;
  std::string counterexample;
  SrcInfo loc;

  bool proved() const { return verdict == Proved; }
  bool refuted() const { return verdict == Refuted; }
  bool unknown() const { return verdict == Unknown; }

  static Answer proof() { return {Proved, "", "", {}}; }
  static Answer refutation(std::string reason, std::string cex = "", SrcInfo loc = {}) {
    return {Refuted, std::move(reason), std::move(cex), std::move(loc)};
  }
  static Answer unknown_because(std::string reason, SrcInfo loc = {}) {
    return {Unknown, std::move(reason), "", std::move(loc)};
  }
};
const char* to_string(Answer::Verdict v);  // "proved", "refuted", "unknown"
// "proved", "refuted: <reason>; counterexample: <cex>", "unknown: <reason>".
std::string to_string(const Answer& a);

// Settings shared by every thread. Changing them is thread-safe; a query reads them once.
struct Settings {
  // The time budget of one query: a deadline shared by every Z3 call it makes (both
  // arithmetic solvers, every formula; checker/encode.h QueryBudget). Running out answers
  // Unknown, "Z3 timed out after N ms".
  unsigned timeout_ms = 2000;
  bool cache = true;  // reuse the answer of a structurally identical formula
};
Settings settings();
void set_settings(const Settings& s);

// Counters of the calling thread's solver (for benchmarks and tests).
struct SolverStats {
  uint64_t queries = 0;           // formulas asked
  uint64_t cache_hits = 0;        // of which answered from the cache
  double solver_cpu_seconds = 0;  // thread CPU time spent inside Z3
};
SolverStats solver_stats();
void clear_query_cache();  // of the calling thread

}  // namespace exocpp::checker
