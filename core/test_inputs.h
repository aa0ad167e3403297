// Random inputs and result comparison on top of the reference interpreter: the helpers every
// rewrite and codegen test uses to check that two procs compute the same thing.
//
//   auto args = random_args(p, {{"N", 8}}, /*seed=*/1);
//   auto copy = deep_copy(args);
//   interpret(p, args);
//   interpret(q, copy);
//   EXPECT_EQ(compare_args(p, args, copy), "");
//
// or, in one call that also matches arguments by name and tries several seeds:
//
//   EXPECT_EQ(compare_procs(p, q, {{"N", 8}}), "");
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/interpreter.h"

namespace exocpp {

struct RandomArgsOptions {
  // Data values: integers in [lo, hi] (exact in every float type, so reassociated sums agree
  // exactly), or uniform reals in [lo, hi] rounded to the buffer's precision. Unsigned types
  // draw from [max(lo, 0), hi].
  bool integer_valued = true;
  int lo = -4;
  int hi = 4;
  // Size arguments not given are drawn from [1, max_size]; int and index arguments from
  // [0, max_size - 1]; stride arguments are 1; bools are random. After half of max_tries draws
  // failed the asserts, sizes are drawn from [1, 4 * max_size] (so `assert N % 16 == 0` can
  // still be met), and in the last quarter a size the asserts take modulo constants as 1 or 2
  // times their least common multiple (`assert N % 64 == 0` gives N = 64 or 128), the others
  // from [1, max_size] again.
  int64_t max_size = 8;
  // Draws of the free control arguments before giving up on the proc's asserts.
  int max_tries = 1000;
  // Config state the asserts are checked against (asserts may read configs); none when null.
  const ConfigState* configs = nullptr;
  // Element type of buffers for R arguments (see InterpOptions::real_as).
  ScalarKind real_as = ScalarKind::R;
};

// Arguments for `p` in argument order: control arguments from `sizes` (by name) or drawn at
// random until the proc's asserts hold (evaluated by the interpreter), then every tensor,
// window and scalar data argument allocated dense with the resulting shape and filled with
// random values. Throws InterpError when `sizes` names no argument of `p`, or when no draw
// satisfies the asserts in max_tries (quoting the assert that failed last).
std::vector<ArgValue> random_args(const Proc& p, const std::map<std::string, int64_t>& sizes,
                                  uint64_t seed, const RandomArgsOptions& opts = {});

// Independent copies: buffers are deep-copied, control values copied.
std::vector<ArgValue> deep_copy(const std::vector<ArgValue>& args);
std::map<std::string, ArgValue> deep_copy(const std::map<std::string, ArgValue>& args);

// `args` keyed by the names of `p`'s arguments.
std::map<std::string, ArgValue> by_name(const Proc& p, const std::vector<ArgValue>& args);

// "" when both argument lists hold the same values; otherwise names the first argument that
// differs (by `p`'s argument names), the first differing index and both values.
std::string compare_args(const Proc& p, const std::vector<ArgValue>& a,
                         const std::vector<ArgValue>& b, const CompareOptions& opts = {});
std::string compare_args(const std::map<std::string, ArgValue>& a,
                         const std::map<std::string, ArgValue>& b, const CompareOptions& opts = {});

struct CompareProcsOptions {
  RandomArgsOptions inputs{};
  CompareOptions compare{};
  // Seeds seed, seed + 1, ... are tried in turn; free sizes are redrawn for each.
  int trials = 3;
  // Config state both runs start from (each run gets its own copy); random arguments are
  // drawn to satisfy the asserts under it.
  ConfigState initial_configs{};
  // Passed to both runs (its `configs` is ignored: see initial_configs).
  InterpOptions interp{};
  // Compare the final config state too (off for rewrites that delete dead config writes).
  bool compare_configs = true;
  // Run `b`'s par loops in reverse order (InterpOptions::reverse_par), so that a par loop whose
  // iterations depend on each other shows up as a difference.
  bool reverse_par_in_b = true;
};

// Runs `a` and `b` on deep copies of the same random arguments (drawn for `a`, handed to `b`
// by argument name) and compares every argument and the final config state. Returns "" when
// they agree on every trial; otherwise a report naming the trial's seed and control values and
// the first difference, or the InterpError either run raised.
std::string compare_procs(const Proc& a, const Proc& b, const std::map<std::string, int64_t>& sizes,
                          uint64_t seed = 1, const CompareProcsOptions& opts = {});

}  // namespace exocpp
