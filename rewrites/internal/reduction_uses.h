// How a loop body uses each buffer, as the operations that regroup a loop's sums ask it
// (lift_reduce_constant, rfactor): the reductions into it, whether it is touched any other way,
// and the names the body binds (an accumulator's index must not mention them).
#pragma once

#include <map>
#include <set>
#include <vector>

#include "core/ir.h"

namespace exocpp::rw {

struct BufferUse {
  std::vector<const ReduceNode*> reductions;  // `b[idx] += e`, in the body's order
  bool other = false;  // read (also inside a reduction's own terms), assigned or windowed
};

struct ReductionUses {
  std::map<Sym, BufferUse> uses;  // every buffer (and variable) the body names
  std::set<Sym> bound;            // loop variables, allocations and windows the body binds
};

ReductionUses reduction_uses(const Block& body);

}  // namespace exocpp::rw
