// Building index expressions in a rewrite: one vocabulary for every operation. The mk_*
// builders fold integer constants and collapse x + 0, 1 * x, ... but keep the expression's shape;
// the simplified_* ones also run the simplifier (core/simplify.h), for offsets composed from
// windows and staged regions.
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
Expr mk_cmp(BinOpKind op, const Expr& a, const Expr& b);

// a + b and a - b, simplified ((x + c) - c is x).
Expr simplified_add(const Expr& a, const Expr& b);
Expr simplified_sub(const Expr& a, const Expr& b);

}  // namespace exocpp::rw
