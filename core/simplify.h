// Algebraic simplification of control (index) expressions, as rewrites need after they
// substitute `4*io + ii` for `i`: constant folding, collecting affine terms (2*i + 3*i ->
// 5*i, i - i -> 0, (a + 1) - 1 -> a), folding `/` and `%` by constants where exact (also
// using the ranges of enclosing loops with constant bounds, when a statement or block is
// simplified: `(16*io + ii) / 16` is `io` inside `for ii in seq(0, 16)`), and
// boolean folding of constant comparisons. Data expressions are only constant-folded where
// exact. The result is equal to the input for every value of its variables.
#pragma once

#include "core/ir.h"

namespace exocpp {

Expr simplify_expr(const Expr& e);
// Every expression of the statement/block/proc simplified (and `if True:` etc. left alone).
Stmt simplify_stmt(const Stmt& s);
Block simplify_block(const Block& b);
// The same, also using facts that hold throughout `b` (a proc's asserts): each fact
// `X % k == 0` (X reading no config field and no data; facts may be joined by `and`) makes
// `X % k` zero, `(X + c) / k` equal to `X / k + floor(c / k)` and `k * (X / k)` equal to X, so
// that `H - 8 * (H / 8) + 10` is 10 under `assert H % 8 == 0`.
Block simplify_block(const Block& b, const std::vector<Expr>& facts);
// The form the `simplify` scheduling operation gives: asserts and body simplified as above
// (the body with the asserts' facts, the asserts without), each index expression then put in
// Exo's normal form (core/index_normal_form.h: `8 + 5 * n`, `ii + 4 * io`) unless ours is
// less complex, so that text written for Exo's `simplify` matches.
struct SimplifiedProc {
  std::vector<Expr> preds;
  Block body;
};
SimplifiedProc simplify_in_exo_form(const Proc& p);

}  // namespace exocpp
