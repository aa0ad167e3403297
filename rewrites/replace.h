// replace: swap a block of a kernel for a call to a hardware instruction (or any proc) once
// unification proves the two compute the same thing (Exo's `replace`, docs/primitives/
// subproc_ops.md), and replace_all, which does so for every block that unifies.
//
//   for i in seq(0, 16):                    def load(n: size, dst: [f32][n], src: [f32][n]):
//       x[i] = A[k, 16*jo + i]                  assert stride(src, 0) == 1
//                                               for j in seq(0, n): dst[j] = src[j]
//     -->  load(16, x[0:16], A[k, 16*jo:16*jo + 16])
//
// Unification matches the block statement by statement against the subproc's body (loop
// variables up to renaming, loop lower bounds normalised to 0), solving for the subproc's
// control arguments (as index expressions of the caller), its scalar data arguments (a caller
// variable or element) and its tensor/window arguments (windows of the caller's buffers, with
// point dimensions where the window drops one). Index expressions are compared in simplified
// normal form and, failing that, by the checker. The solved arguments must satisfy the
// callee's asserts at the call site (proved by the checker), sizes must be positive, windows
// must lie inside their buffers, precisions must agree (R matches any) and memories match.
#pragma once

#include <vector>

#include "core/ir.h"
#include "rewrites/target.h"

namespace exocpp {

struct ReplaceOptions {
  // Exo's `quiet`: a failed unification throws a SchedulingError with a one-line reason
  // instead of the detailed account of what did not match.
  bool quiet = false;
};

// `block` (statements, or one statement) --> `subproc(args...)`. Throws SchedulingError saying
// which statement or expression did not match which part of the subproc and why, or which
// check on the solved arguments failed (with the checker's counterexample).
Proc replace(const Proc& p, const CursorLike& block, const Proc& subproc,
             const ReplaceOptions& opts = {});

// Every block of `p` (outermost first, in program order) that unifies with `subproc`'s body
// replaced by a call to it, as Exo's stdlib `replace_all` does. Blocks that do not unify are
// left alone; a proc with no match comes back unchanged (the same proc).
Proc replace_all(const Proc& p, const Proc& subproc);
// Exo's stdlib form: each subproc of the list in turn, over the previous one's result.
Proc replace_all(const Proc& p, const std::vector<Proc>& subprocs);
// Exo's stdlib replace_once: for each subproc in turn, only the first block (in the same order)
// that unifies is replaced. replace is always memory-aware here (the memories of the buffers
// passed must be the subproc's), so Exo's call_site_mem_aware_replace is replace, and its
// mem_aware = True is the only behaviour (docs/exo-differences.md).
Proc replace_once(const Proc& p, const std::vector<Proc>& subprocs);

}  // namespace exocpp
