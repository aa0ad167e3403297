// ============================================================================================
// insert_pass: put a `pass` at a gap (insert_noop_call, a call that changes nothing, is in
// insert_noop_call.cpp).
// ============================================================================================
//
//   s1 ; <gap> ; s2   -->   s1 ; pass ; s2
//
// The target is a gap cursor (a statement means the gap after it). Statements after the gap
// shift by one; the gap itself forwards to the gap before the new statement.
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc insert_pass(const Proc& p, const CursorLike& gap) {
  return rw::run_op("insert_pass", [&]() -> Proc {
    Cursor g = rw::resolve_gap(p, gap);
    return rw::Edit(p).insert(g.loc().block, g.loc().lo, {PassNode::make(g.srcinfo())}).done();
  });
}

}  // namespace exocpp
