// Schedule spaces as schedule code with choice points (MetaSchedule's idea). A space is a C++
// function that schedules a proc and, wherever a schedule has a free parameter (a tile size, a
// loop order, whether to unroll), asks a Choices object for it. Every answer is recorded in a
// Trace; replaying the trace through the same function gives the same proc, so a trace is the
// whole description of a candidate: it can be printed, stored, mutated and replayed.
//
//   Proc tiled(const Proc& p, search::Choices& c) {
//     int64_t ti = c.factor("tile_i", 256, 4, 64);           // a divisor of 256 in [4, 64]
//     Proc q = divide_loop(p, "i", ti, {"io", "ii"}, {.perfect = true});
//     if (c.flip("unroll")) q = unroll_loop(q, "ii");
//     return q;
//   }
//   search::Choices c = search::Choices::random(seed);   // draws every decision
//   Proc q = tiled(p, c);
//   search::Trace t = c.trace();                          // "tile_i=16 unroll=1"
//   Proc again = tiled(p, search::Choices::replay(t).ref());  // the same proc
//
// A decision is named; names are unique within one run of a space (asking twice for one name is
// an error), which is what lets a trace be replayed even when an earlier decision changes which
// decisions come later. Options are offered in a fixed order, so a decision is stored as the
// index of its option and the option's printed value.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/errors.h"

namespace exocpp::search {

// One answered choice point.
struct Decision {
  std::string name;
  std::vector<std::string> options;  // what the space offered, printed, in its order
  int chosen = 0;                    // index into options
  const std::string& value() const { return options[static_cast<size_t>(chosen)]; }
};

// The decisions of one run of a space, in the order the space asked for them.
struct Trace {
  std::vector<Decision> decisions;

  const Decision* find(const std::string& name) const;
  // "name=value name=value ...", the form Trace::parse reads (names and values contain no
  // spaces or '=').
  std::string to_string() const;
  bool operator==(const Trace& o) const { return to_string() == o.to_string(); }
};

// The chosen values of "name=value ..." (what Trace::to_string prints), by name. Throws
// SearchError on a malformed entry or a name given twice.
std::map<std::string, std::string> parse_trace(const std::string& text);

// A choice point asked for twice, a replayed value the space no longer offers, an empty option
// list: mistakes in a space or a stored trace, never refusals of a schedule.
class SearchError : public Error {
 public:
  explicit SearchError(const std::string& msg) : Error("search error", "search", {}, msg) {}
};

// Answers a space's choice points and records them. How it answers:
//   - random(seed): every decision drawn uniformly from its options (a deterministic stream);
//   - replay(values): each decision takes the value recorded under its name; a decision the
//     values do not name, or whose value is no longer offered, is an error;
//   - guided(values, seed): as replay where the values name the decision and still offer the
//     value, drawn at random otherwise (how the search mutates a trace: change one value and let
//     the decisions it brings into being be drawn).
class Choices {
 public:
  static Choices random(uint64_t seed);
  static Choices replay(const std::map<std::string, std::string>& values);
  static Choices replay(const Trace& t);
  static Choices guided(const std::map<std::string, std::string>& values, uint64_t seed);

  // One of `options` (printed with std::to_string for the trace).
  int64_t pick_int(const std::string& name, const std::vector<int64_t>& options);
  // A divisor of n in [lo, hi] (all divisors when hi is 0): the perfect tile sizes of a constant
  // extent. Throws SearchError when there is none.
  int64_t factor(const std::string& name, int64_t n, int64_t lo = 1, int64_t hi = 0);
  // One of `options`.
  std::string pick(const std::string& name, const std::vector<std::string>& options);
  bool flip(const std::string& name);
  // A permutation of 0 .. n-1 (n <= 6), printed "2,0,1".
  std::vector<int> order(const std::string& name, int n);

  // A space may record each schedule call it makes as the C++ statement that repeats it
  // (`p = divide_loop(p, "i", 32, {"io", "ii"});`); the tuner prints them for the best
  // candidate, ready to paste into a schedule script.
  void note(const std::string& cpp_statement) { script_.push_back(cpp_statement); }
  const std::vector<std::string>& script() const { return script_; }

  const Trace& trace() const { return trace_; }
  // For passing a temporary to a space that takes Choices&.
  Choices& ref() { return *this; }

 private:
  enum class Mode { Random, Replay, Guided };
  Choices(Mode m, std::map<std::string, std::string> values, uint64_t seed);
  // Records and returns the index of the chosen option.
  int decide(const std::string& name, std::vector<std::string> options);

  Mode mode_;
  std::map<std::string, std::string> values_;
  std::mt19937_64 rng_;
  Trace trace_;
  std::vector<std::string> script_;
};

}  // namespace exocpp::search
