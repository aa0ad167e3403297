// divide_loop: split a loop into an outer loop over chunks and an inner loop over a chunk.
//
//   for i in seq(0, N): s
//     -->  (tail = Guard)
//   for io in seq(0, (N + q - 1) / q):
//       for ii in seq(0, q):
//           if q * io + ii < N: s[i -> q * io + ii]
//     -->  (tail = Cut; CutAndGuard puts the tail loop under `if N % q > 0:`)
//   for io in seq(0, N / q):
//       for ii in seq(0, q): s[i -> q * io + ii]
//   for ii in seq(0, N % q): s[i -> q * (N / q) + ii]
//     -->  (perfect: N % q == 0 proved)
//   for io in seq(0, N / q): for ii in seq(0, q): s[i -> q * io + ii]
//
// Checks: q >= 1 (1 gives one-iteration inner loops, as in Exo); two distinct new names not used in
// the proc; the loop starts at 0; for perfect, the checker proves N divisible by q
// (always_divisible). Guard, Cut and CutAndGuard evaluate N again (in the guard, every iteration;
// for the tail, after the loop), so the checker proves the loop writes nothing N reads
// (value_unchanged_by). Cut and CutAndGuard assume a non-negative range (for N < 0, N % q > 0 would
// run a tail the original never runs), so the checker proves N >= 0. Guard is right for any N.
#include "checker/queries.h"
#include "core/simplify.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

namespace {

struct Names {
  Sym outer, inner;
};

Names check_names(const Proc& p, const Cursor& c, const std::vector<std::string>& new_iters) {
  if (new_iters.size() != 2)
    rw::fail(reason::kArgInvalid, c,
             "expected two new loop names (outer, inner), got " + std::to_string(new_iters.size()));
  if (new_iters[0] == new_iters[1])
    rw::fail(reason::kArgName, c,
             "the two new loop names must differ, both are '" + new_iters[0] + "'");
  // The new loops (and a cut tail) stand where the loop stood: their names are visible only
  // inside it.
  return {rw::fresh_name(p, new_iters[0], c, rw::NameScope::Statements),
          rw::fresh_name(p, new_iters[1], c, rw::NameScope::Statements)};
}
}  // namespace

Proc divide_loop(const Proc& p, const CursorLike& loop, int64_t div_const,
                 const std::vector<std::string>& new_iters, const DivideLoopOptions& opts) {
  return rw::run_op("divide_loop", [&]() -> Proc {
    // 1. Arguments and checks.
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    rw::check_int_arg(c, "the divisor", div_const, 1);
    Names names = check_names(p, c, new_iters);
    if (const_int(f->lo) != 0)
      rw::fail(reason::kLoopLowerBoundNotZero, c,
               "expected the lower bound of loop " + f->iter.name() + " to be 0, got '" +
                   c.lo().to_string() + "' (shift_loop can move it)");
    checker::Context ctx = checker::Context::at(c);
    if (opts.perfect) {
      rw::require_proved(c, checker::always_divisible(ctx, f->hi, div_const), [&] {
        return "the bound '" + c.hi().to_string() + "' is divisible by " +
               std::to_string(div_const);
      });
    } else {
      rw::require_unchanged(c, ctx, f->hi, {c.stmt()}, [&] {
        return "the bound '" + c.hi().to_string() + "', evaluated again by the " +
               (opts.tail == Tail::Guard ? "guard" : "tail loop") + ",";
      });
      if (opts.tail != Tail::Guard)
        rw::require_proved(c, checker::always_true(ctx, mk_cmp(BinOpKind::Ge, f->hi, int_const(0))),
                           [&] {
                             return "the bound '" + c.hi().to_string() +
                                    "' is not negative (a tail of (" + c.hi().to_string() + ") % " +
                                    std::to_string(div_const) + " iterations would run otherwise)";
                           });
    }

    // 2. The new loops.
    const SrcInfo& si = f->srcinfo;
    Expr q = int_const(div_const, si), N = f->hi;
    Expr outer_hi = opts.perfect || opts.tail != Tail::Guard
                        ? mk_div(N, q)
                        : mk_div(mk_add(N, int_const(div_const - 1, si)), q);
    Expr idx =
        simplify_expr(mk_add(mk_mul(q, index_var(names.outer, si)), index_var(names.inner, si)));
    const bool guard = !opts.perfect && opts.tail == Tail::Guard;
    // The body, rewritten for the new index, moves into the inner loop (and under its guard);
    // the loop becomes the outer one.
    const BlockPath& path = c.loc().block;
    const int at = c.loc().lo, n = static_cast<int>(f->body.size());
    const BlockPath body_path = child_path(c);
    rw::Edit edit(p);
    edit.rewrite(body_path, 0, n, substitute(f->body, {{f->iter, idx}}))
        .wrap(body_path, 0, n, [&](const Block& b) {
          return ForNode::make(names.inner, int_const(0, si), q, b, f->mode, si);
        });
    if (guard) {
      BlockPath inner_path = body_path;
      inner_path.push_back({0, BlockField::Body});
      edit.wrap(inner_path, 0, n, [&](const Block& b) {
        return IfNode::make(mk_cmp(BinOpKind::Lt, idx, N), b, {}, si);
      });
    }
    const Block inner = stmt_at(edit.body(), path, at).as<ForNode>()->body;
    edit.rewrite(path, at, at + 1,
                 {ForNode::make(names.outer, f->lo, simplify_expr(outer_hi), inner, f->mode, si)});
    if (!opts.perfect && opts.tail != Tail::Guard) {
      Sym tail_i = names.inner.copy();
      Expr tail_idx = simplify_expr(mk_add(mk_mul(q, mk_div(N, q)), index_var(tail_i, si)));
      Expr n_tail = simplify_expr(mk_mod(N, q));
      Stmt tail =
          ForNode::make(tail_i, int_const(0, si), n_tail,
                        alpha_rename(substitute(f->body, {{f->iter, tail_idx}})), f->mode, si);
      if (opts.tail == Tail::CutAndGuard)
        tail = IfNode::make(mk_cmp(BinOpKind::Gt, n_tail, int_const(0, si)), {tail}, {}, si);
      edit.insert(path, at + 1, {tail});
    }
    return edit.done();
  });
}

}  // namespace exocpp
