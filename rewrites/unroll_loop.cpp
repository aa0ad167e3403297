// unroll_loop: replace a loop with constant bounds by copies of its body.
//
//   for i in seq(0, 3):      s[i -> 0]
//       s              -->   s[i -> 1]
//                            s[i -> 2]
//
// Checks: both bounds are integer constants, and the copies number at most kMaxUnroll
// statements (a larger unroll is almost surely a mistake, and would blow up the proc).
// Each copy binds fresh names. A loop that runs zero times disappears (leaving `pass` when it
// was the only statement of its block).
// Forwarding: cursors after the loop shift; cursors to the loop or into its body become invalid.
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

namespace {
constexpr int64_t kMaxUnroll = 4096;  // statements the unrolled copies may hold
}

Proc unroll_loop(const Proc& p, const CursorLike& loop) {
  return rw::run_op("unroll_loop", [&]() -> Proc {
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    auto lo = const_int(f->lo), hi = const_int(f->hi);
    if (!lo || !hi)
      rw::fail(reason::kLoopBoundNotConstant, c,
               "expected loop " + f->iter.name() + " to have constant bounds, got seq(" +
                   c.lo().to_string() + ", " + c.hi().to_string() + ")");
    int64_t count = *hi > *lo ? *hi - *lo : 0;
    if (count > kMaxUnroll || count * static_cast<int64_t>(f->body.size()) > kMaxUnroll)
      rw::fail(reason::kLoopTooManyCopies, c,
               "unrolling loop " + f->iter.name() + " would make " + std::to_string(count) +
                   " copies of its body, more than the limit of " + std::to_string(kMaxUnroll) +
                   " statements");

    Block out;
    for (int64_t v = *lo; v < *hi; ++v)
      for (const Stmt& s : alpha_rename(substitute(f->body, {{f->iter, int_const(v, f->srcinfo)}})))
        out.push_back(s);
    const BlockPath& path = c.loc().block;
    int at = c.loc().lo;
    if (out.empty() && c.list().size() == 1) out.push_back(PassNode::make(f->srcinfo));
    return rw::Edit(p).replace(path, at, at + 1, out).done();
  });
}

}  // namespace exocpp
