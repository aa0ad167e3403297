// When a rewrite keeps data values: the one definition of data precision that the rewrites
// which move, bind, inline, split or regroup data expressions ask.
//
// The reference interpreter is the definition (core/interp_expr.cpp, core/interp_values.cpp):
// integer data arithmetic (i8, ui8, ui16, i32) is promoted to 32-bit int and wraps there, `/`
// truncates toward zero, and a store wraps to the buffer's type; float arithmetic rounds to the
// expression's precision after each operation (R: exact); a float literal takes the precision
// of the operator or store around it.
//
// The rule for rewrites (docs/scheduling.md, "Precision"):
//  - integer values are kept exactly: a rewrite may wrap a value to a type only where the
//    original wrapped it, or where the value provably fits; `+ - *` on integer arithmetic may be
//    regrouped (they are exact modulo 2^32, and modulo 2^bits after a store), `/` and `%' not;
//  - float `+` and `*` may be regrouped and reordered as reals, as in Exo (R is real
//    arithmetic), but a rewrite must not round a value to a narrower precision than the original
//    computed it in (e.g. bind an f32 expression into an f16 temporary).
#pragma once

#include <optional>

#include "core/ir.h"

namespace exocpp::rw {

// Does storing `e` in a buffer of precision `to`, then reading it back, give the value `e` has
// where it stands? A read, extern call or config read of type K holds K values; integer
// arithmetic has a range (the whole of i32 when it may wrap); float arithmetic holds values of
// its type; a float literal (whose value depends on its context) is kept only when it is exact
// in every precision (e.g. 2.0, 0.5).
bool store_keeps_value(const Expr& e, ScalarKind to);

// A precision for a temporary holding `e` such that store_keeps_value(e, it): e's own type when
// that keeps it, else i32 for integer arithmetic that fits it; nullopt when none does.
std::optional<ScalarKind> precision_keeping(const Expr& e);

// Whether every value of precision `from` is a value of precision `to` (f16 and bf16 in f32 in f64;
// i8 and ui8 in i32; ui8 in ui16; R only in R).
bool includes_precision(ScalarKind to, ScalarKind from);

// Whether `e` is integer arithmetic: e and every data subexpression has an integer precision
// (or is an integer literal).
bool is_integer_arith(const Expr& e);

// Whether storing `a` first and then adding `b` (`x = a; x += b`) into a buffer of precision `to`
// gives what storing `a + b` at once gives (and so also the reverse): when `a` survives the store
// (float: then both round once, from the same real sum), or when `to` is an integer precision and
// a and b are integer arithmetic (sums wrap the same modulo 2^bits).
bool partial_store_keeps_value(const Expr& a, const Expr& b, ScalarKind to);

}  // namespace exocpp::rw
