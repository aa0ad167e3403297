// schedlib::argmax_lanes (schedlib.h): an argmax loop in registers of (best, index) lanes, from
// rfactor_argmax, fission, divide_loop, divide_dim, set_memory, to_register, replace_all and
// unroll_loop.
#include <stdexcept>

#include "internal.h"
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

Proc argmax_lanes(Proc p, const CursorLike& loop_like, const VectorUnit& unit,
                  const ArgmaxLanesOptions& opts) {
  if (opts.registers < 1)
    throw std::invalid_argument("schedlib::argmax_lanes: registers must be >= 1");
  const Cursor loop = internal::resolve(p, loop_like, TargetKind::Loop);
  const int w = unit.width, r = opts.registers;
  // Which buffers hold the best value and its index: the loop's `if E > A: A = E ; I = i`.
  const Cursor then = loop.body()[0].body();
  const std::string best = then[0].name(), index = then[1].name();
  // The vector read: the x of `A = abs(x[i])`.
  const std::string x = then[0].rhs().args()[0].name();
  const std::string values = best + "_lanes", indices = index + "_lanes";
  // for io: for l in seq(0, r w): (lane l's best of its iterations); after the groups, lanes
  // w.. merged into lanes 0..w-1 lane by lane, and those w folded.
  const std::string lanes = std::to_string(r * w);
  p = rfactor_argmax(p, loop, r * w, {.merge_width = w});
  // The start: every lane holds (best, index), one broadcast per register.
  p = fission(p, p.find(values + "[_] = " + best).after());
  // The lane loops over all r w lanes as registers: for v in seq(0, r): for ll in seq(0, w).
  for (const Cursor& l : p.find_all("for l in _: _"))
    if (p.forward(l).hi().to_string() == lanes)
      p = divide_loop(p, l, w, {"v", "ll"}, {.perfect = true});
  for (const std::string& buf : {values, indices}) p = divide_dim(p, buf, 0, w);
  p = simplify(p);
  p = set_memory(p, values, unit.memory);
  p = set_memory(p, indices, unit.argmax.index_memory);
  // In each register of a group: ax = |x[...]| (one abs of one load), then the masked update.
  p = to_register(p, find_all(p.find_loop("io"), "abs(" + x + "[_])"), "ax", w);
  p = to_register(p, find_all(p.find("ax[_] = _"), x + "[_]"), "xv", w);
  for (const char* reg : {"ax", "xv"}) p = set_memory(p, reg, unit.memory);
  const VectorUnit::Argmax& a = unit.argmax;
  for (const Proc& i :
       {a.load, a.abs, a.update, a.merge, a.fold, a.broadcast_value, a.broadcast_index})
    p = replace_all(p, i);
  for (const char* registers_loop : {"for v in _: _", "for g in _: _"})
    for (const Cursor& v : p.find_all(registers_loop)) p = unroll_loop(p, v);
  return simplify(p);
}

}  // namespace schedlib
