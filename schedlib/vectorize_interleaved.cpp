// schedlib::vectorize_interleaved (schedlib.h): vectorize with a vector tail and a scalar one,
// k strips a step, from divide_loop, vectorize and unroll_loop.
#include <stdexcept>

#include "internal.h"
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

Proc vectorize_interleaved(Proc p, const CursorLike& loop_like, const VectorUnit& unit,
                           const InterleaveOptions& opts) {
  if (opts.interleave < 1)
    throw std::invalid_argument("schedlib::vectorize_interleaved: interleave must be >= 1");
  const Cursor loop = internal::resolve(p, loop_like, TargetKind::Loop);
  const int w = unit.width, k = opts.interleave;
  if (k == 1) return vectorize(p, loop, w, unit.memory, unit.instructions, {.tail = Tail::Cut});
  const std::string i = loop.name();
  // for io: for ii in seq(0, w k): s ; for ii in seq(0, n % (w k)): s  (the tail: below)
  p = divide_loop(p, loop, w * k, {i + "o", i + "i"}, {.tail = Tail::Cut});
  const Cursor main = p.forward(loop), tail = main.next();
  // The main loop's w k lanes: k strips of w, each to instructions, unrolled.
  p = vectorize(p, main.body()[0], w, unit.memory, unit.instructions, {.perfect = true});
  p = unroll_loop(p, p.forward(main).body()[p.forward(main).body().size() - 1]);
  // The tail's full strips as vectors one at a time, the rest scalar.
  p = vectorize(p, p.forward(tail), w, unit.memory, unit.instructions, {.tail = Tail::Cut});
  return p;
}

}  // namespace schedlib
