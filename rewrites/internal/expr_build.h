// Building expressions in a rewrite: one vocabulary for every operation; operation files do not
// construct BinOpNode or integer ConstNode themselves (scripts/check-conventions.sh).
//
//   - Index arithmetic: the mk_* builders fold integer constants and collapse x + 0, 1 * x, ...
//     but keep the expression's shape; the simplified_* ones also run the simplifier
//     (core/simplify.h), for offsets composed from windows and staged regions.
//   - Predicates (facts for the checker, guards): mk_cmp, mk_and, mk_or, mk_not; never folded.
//   - Data values: exact_binop builds the operation exactly as asked. A data expression is never
//     folded or simplified here: x + 0.0 is not x when x is -0.0, and an integer sum may wrap.
#pragma once

#include <cstdint>
#include <optional>

#include "core/ir.h"

namespace exocpp::rw {

Expr index_var(const Sym& s, const SrcInfo& si = {});
Expr int_const(int64_t v, const SrcInfo& si = {});
// The value of an integer constant, if `e` is one.
std::optional<int64_t> const_int(const Expr& e);

Expr mk_add(const Expr& a, const Expr& b);
Expr mk_sub(const Expr& a, const Expr& b);
Expr mk_mul(const Expr& a, const Expr& b);
Expr mk_div(const Expr& a, const Expr& b);  // floor division
Expr mk_mod(const Expr& a, const Expr& b);

// a op b for a comparison op (Eq, Ne, Lt, Le, Gt, Ge); located at `si`, or at `a` without it.
Expr mk_cmp(BinOpKind op, const Expr& a, const Expr& b);
Expr mk_cmp(BinOpKind op, const Expr& a, const Expr& b, const SrcInfo& si);
// Conjunction and disjunction; an undefined operand stands for "no condition yet", so a chain
// of guards can start from Expr().
Expr mk_and(const Expr& a, const Expr& b, const SrcInfo& si = {});
Expr mk_or(const Expr& a, const Expr& b, const SrcInfo& si = {});
// The negation of a boolean condition (the language has no `not`: written cond == False).
Expr mk_not(const Expr& cond);

// The data operation `a op b` exactly as written, typed by BinOpNode's promotion rules: no
// folding and no identities, so a regrouped or re-ordered data expression keeps its rounding.
Expr exact_binop(BinOpKind op, const Expr& a, const Expr& b, const SrcInfo& si);

// a + b and a - b, simplified ((x + c) - c is x).
Expr simplified_add(const Expr& a, const Expr& b);
Expr simplified_sub(const Expr& a, const Expr& b);

}  // namespace exocpp::rw
