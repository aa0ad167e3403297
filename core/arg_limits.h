// The values an integer data argument may hold: what tests and validation draw "at the limits"
// from, one definition for both (rewrites/validate.cpp, the schedule fuzzer).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/interpreter.h"

namespace exocpp {

// For each argument of `p`, given `args` (whose sizes fix the ranges): an index argument's
// declared range as [lo, hi] (its values; anything else is refused where the proc is entered),
// other integer data its type's limits (i8: [-128, 127], ...); nullopt for an argument that is
// not integer data, and for an index argument whose range is empty.
std::vector<std::optional<std::pair<int64_t, int64_t>>> integer_arg_limits(
    const Proc& p, const std::vector<ArgValue>& args);

}  // namespace exocpp
