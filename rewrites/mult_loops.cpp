// mult_loops: merge two nested loops, the inner of constant extent, into one (the inverse of
// divide_loop with a perfect division).
//
//   for i in seq(0, e):
//       for j in seq(0, c):     -->   for k in seq(0, e * c):
//           s                             s[i -> k / c, j -> k % c]
//
// Checks: the target loop holds exactly one statement, a loop; both start at 0; the inner
// bound is an integer constant > 0; the inner bound does not use i; `new_iter_name` is unused.
// The merged loop takes the outer loop's mode; a par outer loop over a seq inner one needs the
// checker's proof that no two merged iterations conflict (require_parallel).
// Forwarding: the body stays at the same depth below the new loop (one level up).
#include "core/simplify.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc mult_loops(const Proc& p, const CursorLike& nested_loops, const std::string& new_iter_name) {
  return rw::run_op("mult_loops", [&]() -> Proc {
    // 1. Checks.
    Cursor c = rw::resolve_loop_nest(p, nested_loops);
    const ForNode* outer = c.stmt().as<ForNode>();  // a loop whose body is one loop
    const ForNode* inner = outer->body[0].as<ForNode>();
    if (const_int(outer->lo) != 0 || const_int(inner->lo) != 0)
      rw::fail(reason::kLoopLowerBoundNotZero, c,
               "expected both loops " + outer->iter.name() + " and " + inner->iter.name() +
                   " to start at 0");
    auto ext = const_int(inner->hi);
    if (!ext || *ext <= 0)
      rw::fail(reason::kLoopBoundNotConstant, c.body()[0],
               "expected the bound of loop " + inner->iter.name() +
                   " to be a positive integer constant, got '" + c.body()[0].hi().to_string() +
                   "'");
    Sym k = rw::fresh_name(p, new_iter_name, c, rw::NameScope::Statements);

    // 2. The merged loop.
    const SrcInfo& si = outer->srcinfo;
    Expr kv = index_var(k, si), cv = int_const(*ext, si);
    Block body = substitute(inner->body, {{outer->iter, simplify_expr(mk_div(kv, cv))},
                                          {inner->iter, simplify_expr(mk_mod(kv, cv))}});
    Stmt s = ForNode::make(k, int_const(0, si), simplify_expr(mk_mul(outer->hi, cv)), body,
                           outer->mode, si);
    // A par outer loop over a seq inner one: the merged par loop also runs the inner loop's
    // iterations in any order. (Both par: every pair of merged iterations was already apart.)
    if (inner->mode == LoopMode::Seq)
      rw::require_parallel(c, checker::Context::at(c), s,
                           [&] { return "the merged loop " + new_iter_name; });

    // 3. The inner loop's body moves up one level (the inner loop disappears), and the outer
    // loop becomes the merged one.
    const BlockPath& path = c.loc().block;
    const int at = c.loc().lo;
    return rw::Edit(p).unwrap(child_path(c), 0).rewrite(path, at, at + 1, {s}).done();
  });
}

}  // namespace exocpp
