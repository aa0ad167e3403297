// Bounds inference, as Halide does it for compute_at: the box of a buffer's elements that a
// block of code touches, as [lo, hi) per dimension over the names in scope around the block.
// The box is a proposal, computed by interval arithmetic on the index expressions: operations
// that rely on it (stage_mem, compute_and_store_at) hand it to the checker, which proves that
// it covers every access before anything changes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir.h"

namespace exocpp {

struct BoxDim {
  Expr lo, hi;  // [lo, hi)
};

// The smallest box (per dimension, from the extreme values of each index over the loops inside
// `code`) holding every element of `buf` that `code` reads, writes or windows; loop bounds and
// names from outside `code` stay symbolic. nullopt with the reason in `why` when `code` does
// not touch `buf` or an index is not affine in the loops (a product of two loop variables, an
// index read from data) or two accesses' extremes do not differ by a constant (no one of them
// is the minimum for every value of the outer names).
std::optional<std::vector<BoxDim>> accessed_box(const Block& code, const Sym& buf,
                                                std::string* why = nullptr);

}  // namespace exocpp
