// Exo's normal form of index expressions: the form Exo's `simplify` prints, so that goldens
// written for Exo match ours. An affine index expression becomes its constant followed by its
// terms in order of (coefficient, variable name): `n * 5 + 8` is `8 + 5 * n`, `4 * io + ii`
// is `ii + 4 * io`, `n - m` is `-m + n`. Division and modulo by a constant drop the terms they
// can (`(4 * io + ii) / 4` is `io` when ii lies in [0, 4)), nested divisions by constants
// merge (`n / 4 / 3 / 2` is `n / 24`), and an expression holding a division, a modulo or a
// config field anywhere is otherwise left in its order with its parts normalised.
//
// Every step is an identity of integer arithmetic with floor division (as the IR's `/` and
// `%` on index values are), given the value ranges the caller supplies; a modulo is dropped
// only when its operand lies in [0, m) (Exo checks the upper end only). The result is equal
// to the input for every value of its variables within those ranges.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "core/ir.h"

namespace exocpp {

// An inclusive range of integer values; an absent end is unbounded.
struct IndexRange {
  std::optional<int64_t> lo, hi;
};

// The range a variable is known to lie in where the expression is evaluated (Exo's: a `size`
// argument in [1, +inf), a loop variable in [lo's least value, hi's greatest value - 1]).
using IndexRangeOf = std::function<IndexRange(const Sym&)>;

// The range of an index expression's values under `range_of`, by interval arithmetic.
IndexRange index_range(const Expr& e, const IndexRangeOf& range_of);

// Exo's normal form of the index expression `e` (its peephole rules applied), or nullopt where
// Exo's normaliser does not apply: a product of two variables, an expression kind an index
// cannot hold, or a coefficient that overflows.
std::optional<Expr> exo_index_normal_form(const Expr& e, const IndexRangeOf& range_of);

// Exo's local rules, bottom-up: constant folding of index and boolean operators, `0 + x`,
// `x - 0`, `0 - x` (as `-x`), `(a + b) - a`, `1 * x`, `0 * x`, `x / 1`, `x % 1`,
// `x % k + k * (x / k)`, and `and`/`or` with a constant. Only for control expressions.
Expr exo_peephole(const Expr& e);

// How much an index expression still computes: its variable reads plus its divisions and
// modulos (constants and additions are free). Used to keep whichever of two equal forms is
// simpler.
int index_complexity(const Expr& e);

}  // namespace exocpp
