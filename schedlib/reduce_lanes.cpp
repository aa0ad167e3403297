// schedlib::reduce_lanes (schedlib.h): a loop's sums in registers of lanes, from rfactor,
// divide_loop, divide_dim, set_memory, vectorize, replace_all and unroll_loop.
#include <stdexcept>

#include "internal.h"
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

Proc reduce_lanes(Proc p, const CursorLike& loop_like, const VectorUnit& unit,
                  const ReduceLanesOptions& opts) {
  if (opts.registers < 1)
    throw std::invalid_argument("schedlib::reduce_lanes: registers must be >= 1");
  const Cursor loop = internal::resolve(p, loop_like, TargetKind::Loop);
  const int w = unit.width, r = opts.registers;
  const std::string lanes = std::to_string(r * w);
  p = rfactor(p, loop, r * w, {.outer = "io", .lane = "l"});
  // The lane buffers rfactor made (named <sum>_lanes).
  std::vector<std::string> sums;
  for (const Cursor& a : p.find_all("_ : _"))
    if (a.name().size() > 6 && a.name().ends_with("_lanes")) sums.push_back(a.name());
  // Every lane loop as registers: for v in seq(0, r): for ll in seq(0, w).
  for (const Cursor& l : p.find_all("for l in _: _"))
    if (p.forward(l).hi().to_string() == lanes)
      p = divide_loop(p, l, w, {"v", "ll"}, {.perfect = true});
  for (const std::string& s : sums) {
    p = divide_dim(p, s, 0, w);
    p = set_memory(p, s, unit.memory);
  }
  p = simplify(p);
  p = replace_all(p, unit.zero);
  p = replace_all(p, unit.fold);
  // The lanes of each register: their terms to instructions.
  // (vectorize divides each by w: one strip, its loop of one iteration unrolled away.)
  for (const Cursor& ll : p.find_all("for ll in _: _"))
    p = vectorize(p, ll, w, unit.memory, unit.instructions, {.perfect = true});
  for (const Cursor& one : p.find_all("for llo in _: _")) p = unroll_loop(p, one);
  for (const Cursor& v : p.find_all("for v in _: _")) p = unroll_loop(p, v);
  return simplify(p);
}

}  // namespace schedlib
