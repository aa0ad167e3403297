// schedlib::vectorize_interleaved (schedlib.h): vectorize with a vector tail and a scalar one,
// k strips a step, from shift_loop, divide_loop, vectorize, expand_dim, lift_alloc, fission and
// unroll_loop.
#include <stdexcept>

#include "internal.h"
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

namespace {

// The loops of `block` (a block cursor) over `iter`, in order.
std::vector<Cursor> loops_over(const Cursor& block, const std::string& iter) {
  std::vector<Cursor> out;
  for (int k = 0; k < block.size(); ++k)
    if (const ForNode* f = block[k].stmt().as<ForNode>(); f && f->iter.name() == iter)
      out.push_back(block[k]);
  return out;
}

}  // namespace

Proc vectorize_interleaved(Proc p, const CursorLike& loop_like, const VectorUnit& unit,
                           const InterleaveOptions& opts) {
  if (opts.interleave < 1)
    throw std::invalid_argument("schedlib::vectorize_interleaved: interleave must be >= 1");
  Cursor loop = internal::resolve(p, loop_like, TargetKind::Loop);
  // divide_loop counts from 0: a loop over seq(lo, hi) first becomes seq(0, hi - lo).
  if (loop.lo().to_string() != "0") {
    p = shift_loop(p, loop, "0");
    loop = p.forward(loop);
  }
  const int w = unit.width, k = opts.interleave;
  if (k == 1) return vectorize(p, loop, w, unit.memory, unit.instructions, {.tail = Tail::Cut});
  const std::string i = loop.name();
  // for io: for ii in seq(0, w k): s ; for ii in seq(0, n % (w k)): s  (the tail: below)
  p = divide_loop(p, loop, w * k, {i + "o", i + "i"}, {.tail = Tail::Cut});
  const Cursor main = p.forward(loop), tail = main.next();
  // The main loop's w k lanes: k strips of w, each to instructions (`for iio in seq(0, k):` the
  // strip's registers and instructions).
  p = vectorize(p, main.body()[0], w, unit.memory, unit.instructions, {.perfect = true});
  const Cursor strips = p.forward(main).body()[p.forward(main).body().size() - 1];
  const std::string iio = strips.name();
  // Each register one per strip (expand_dim by iio, lifted out of the strip loop), so that the
  // strip loop splits between every two instructions (fission proves it: the k strips touch
  // disjoint lanes) and each instruction runs for all k strips before the next: the strips'
  // loads come first and their stores last, with no store between loads that the C compiler
  // would have to keep in order (it cannot know that the arguments do not alias).
  for (int s = strips.body().size() - 1; s >= 0; --s) {
    const Cursor st = p.forward(strips).body()[s];
    if (!st.stmt().as<AllocNode>()) continue;
    p = expand_dim(p, st, std::to_string(k), iio);
    p = lift_alloc(p, p.forward(st));
  }
  for (int s = p.forward(strips).body().size(); s > 1; --s) {
    const Cursor last = loops_over(p.forward(main).body(), iio).back();
    p = fission(p, last.body()[0].after());
  }
  // The k strips of each instruction, unrolled.
  for (const Cursor& l : loops_over(p.forward(main).body(), iio)) p = unroll_loop(p, l);
  // The tail's full strips as vectors one at a time, the rest scalar.
  p = vectorize(p, p.forward(tail), w, unit.memory, unit.instructions, {.tail = Tail::Cut});
  return simplify(p);
}

}  // namespace schedlib
