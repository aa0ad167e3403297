// ============================================================================================
// insert_pass: put a `pass` statement at a gap.
// ============================================================================================
//
//   s1 ; <gap> ; s2   -->   s1 ; pass ; s2
//
// The target is a gap cursor (a statement means the gap after it). Statements after the gap
// shift by one; the gap itself forwards to the gap before the new `pass`.
#include "rewrites/stmts.h"

namespace exocpp {

Proc insert_pass(const Proc& p, const CursorLike& gap) {
  return rw::run_op("insert_pass", [&]() -> Proc {
    Cursor g = rw::resolve_gap("insert_pass", p, gap);
    const Loc& l = g.loc();
    Stmt pass = PassNode::make(g.srcinfo());
    Block body = replace_stmts(p.body(), l.block, l.lo, l.lo, {pass});
    return derive_proc(p, std::move(body), fwd_replace(l.block, l.lo, l.lo, 1));
  });
}

}  // namespace exocpp
