// The frame both rfactor operations (rfactor, rfactor_argmax) build on: a seq loop
// `for i in seq(lo, hi): body` becomes
//   <allocations> <start> for io in seq(0, (hi - lo) / L): for l in seq(0, L): <lane body>
//   <fold> for i in seq(lo + L ((hi - lo) / L), hi): body
// where each lane loop binds its own symbol of the lane name and the lane body runs iteration
// i = lo + L io + l. The checks every such split needs are made here once: the loop is seq, the
// two new loop names differ and are fresh, lo <= hi (the group count and the tail's start assume
// it), and the new code changes nothing lo and hi read (they are evaluated again after it).
#pragma once

#include <cstdint>
#include <string>

#include "checker/context.h"
#include "core/cursor.h"
#include "core/ir.h"

namespace exocpp::rw {

class LaneSplit {
 public:
  // Checks the loop at `loop` and the names; throws SchedulingError (the current operation's)
  // otherwise.
  LaneSplit(const Proc& p, const Cursor& loop, int64_t lanes, const std::string& outer,
            const std::string& lane);

  const ForNode& loop() const { return *f_; }
  const checker::Context& context() const { return ctx_; }
  const Expr& lanes() const { return L_; }  // the lane count, as an expression
  // A new symbol of the lane loops' name (one per lane loop).
  Sym lane() const { return lane_.copy(); }
  // The iteration a lane body at lane `l` runs: lo + L io + l.
  Expr iteration(const Sym& l) const;
  // for l in seq(0, L): body
  Stmt lane_loop(const Sym& l, Block body) const;
  // for io in seq(0, (hi - lo) / L): for l in seq(0, L): body (body written in iteration(l)).
  Stmt groups_loop(const Sym& l, Block body) const;
  // The proc with `before` (allocations first, then the code that runs before the tail) in
  // place of the loop and the loop over its remaining iterations after it; `lanes_code` is the
  // part of `before` that runs (checked not to change lo and hi). The loop's cursors map to the
  // tail loop.
  Proc finish(const Block& before, const Block& lanes_code) const;

 private:
  const Proc& p_;
  Cursor c_;
  const ForNode* f_;
  checker::Context ctx_;
  Sym outer_, lane_;
  Expr L_, groups_;
};

}  // namespace exocpp::rw
