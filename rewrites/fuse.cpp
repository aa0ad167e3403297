// fuse: merge two consecutive loops with equal bounds, or two consecutive ifs with equal
// conditions.
//
//   for i in seq(lo, hi): s1          for i in seq(lo, hi):
//   for j in seq(lo, hi): s2   -->        s1
//                                         s2[j -> i]
//
//   if c: s1 else: t1                 if c: s1 ; s2
//   if c: s2 else: t2          -->    else: t1 ; t2
//
// Checks: stmt2 directly follows stmt1; both are loops or both ifs. Loops: the checker proves
// the bounds equal and that no iteration of the second loop conflicts with a later iteration
// of the first (checker::can_fuse); the second loop's bounds were evaluated after the first loop
// ran and are now evaluated before it, so the checker proves the first loop writes nothing they
// read (value_unchanged_by). The fused loop keeps the first loop's mode; when that is `par`, the
// checker proves that no two of its iterations conflict (require_parallel). Ifs: the conditions are
// the same expression, or proved equal (checker::always_true of c1 == c2 at the first if), and
// the first if writes nothing the condition reads (value_unchanged_by).
// Forwarding: cursors into stmt2's branches move to the end of stmt1's; stmt2 itself becomes
// invalid; later statements shift up by one.
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc fuse(const Proc& p, const CursorLike& stmt1, const CursorLike& stmt2) {
  return rw::run_op("fuse", [&]() -> Proc {
    // 1. Arguments and checks.
    Cursor c1 = rw::resolve_stmt(p, stmt1);
    Cursor c2 = rw::resolve_stmt(p, stmt2);
    if (c1.loc().block != c2.loc().block || c2.loc().lo != c1.loc().lo + 1)
      rw::fail(reason::kTargetNotAdjacent, c2,
               "expected the second statement '" + c2.to_string() +
                   "' to directly follow the first '" + c1.to_string() + "'");
    Stmt s1 = c1.stmt(), s2 = c2.stmt();
    bool loops = s1.is<ForNode>() && s2.is<ForNode>(), ifs = s1.is<IfNode>() && s2.is<IfNode>();
    if (!loops && !ifs)
      rw::fail(reason::kTargetWrongKind, c1,
               "expected two loops or two ifs, got '" + c1.to_string() + "' and '" +
                   c2.to_string() + "'");
    Stmt fused;
    if (loops) {
      const ForNode *f1 = s1.as<ForNode>(), *f2 = s2.as<ForNode>();
      checker::Context ctx = checker::Context::at(c1);
      rw::require_unchanged(c2, ctx, f2->lo, {s1}, [&] {
        return "the lower bound '" + c2.lo().to_string() + "' of the second loop";
      });
      rw::require_unchanged(c2, ctx, f2->hi, {s1}, [&] {
        return "the upper bound '" + c2.hi().to_string() + "' of the second loop";
      });
      rw::require_proved(c2, checker::can_fuse(checker::Context::at(c1), s1, s2), [&] {
        return "loops " + f1->iter.name() + " and " + f2->iter.name() + " can be fused";
      });
      Block body = f1->body;
      for (const Stmt& s : substitute(f2->body, {{f2->iter, index_var(f1->iter, f2->srcinfo)}}))
        body.push_back(s);
      fused = ForNode::make(f1->iter, f1->lo, f1->hi, body, f1->mode, f1->srcinfo);
      // A par loop now also runs the second loop's body: its iterations run in any order, so
      // every pair of them (not only the later-first pairs can_fuse proves) must not conflict.
      rw::require_parallel(c1, ctx, fused, [&] { return "the fused loop " + f1->iter.name(); });
    } else {
      const IfNode *i1 = s1.as<IfNode>(), *i2 = s2.as<IfNode>();
      // Conditions written differently must be proved equal where the first if stands (Exo
      // decides this with its solver too): `N > 1` and `1 < N`, or equal under an assert.
      if (!expr_equal(i1->cond, i2->cond))
        rw::require_proved(
            c2,
            checker::always_true(checker::Context::at(c1),
                                 mk_cmp(BinOpKind::Eq, i1->cond, i2->cond, i2->srcinfo)),
            [&] {
              return "the conditions '" + c1.cond().to_string() + "' and '" +
                     c2.cond().to_string() + "' are equal";
            });
      rw::require_unchanged(c2, checker::Context::at(c1), i2->cond, {s1}, [&] {
        return "the condition '" + c2.cond().to_string() + "' of the second if";
      });
      Block body = i1->body, orelse = i1->orelse;
      body.insert(body.end(), i2->body.begin(), i2->body.end());
      orelse.insert(orelse.end(), i2->orelse.begin(), i2->orelse.end());
      fused = IfNode::make(i1->cond, body, orelse, i1->srcinfo);
    }

    // 2. The new proc.
    return rw::Edit(p).merge(c1.loc().block, c1.loc().lo, fused).done();
  });
}

}  // namespace exocpp
