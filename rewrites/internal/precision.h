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
//    computed it in (e.g. bind an f32 expression into an f16 temporary);
//  - a data expression that a rewrite moves, duplicates or regroups computes, at its new place,
//    in the arithmetic it computed in before (its precision, its conversions, its wrap points):
//    the operators around it keep their arithmetic (changed_arithmetic), and an operand that
//    joins another operator computes in that operator's arithmetic (operand_of). Widening is a
//    change too: an f16 sum that overflowed must still overflow.
#pragma once

#include <optional>
#include <utility>

#include "core/ir.h"

namespace exocpp::rw {

// Does storing `e` in a buffer of precision `to`, then reading it back, give the value `e` has
// where it stands? A read, extern call or config read of type K holds K values; integer
// arithmetic has a range (the whole of i32 when it may wrap); float arithmetic holds values of
// its type; a float literal (whose value depends on its context) is kept only when it is exact
// in every precision (e.g. 2.0, 0.5), and literals combined (`0.1 + 0.2`, computed in the
// precision around them) never.
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

// The arithmetic data of type `t` is computed in: a float precision its own (R: reals), every
// integer precision 32-bit int (the interpreter and the emitted C promote integer data to int).
ScalarKind arithmetic_of(ScalarKind t);

// Whether `e` has no precision of its own and computes in the precision of the operator or store
// around it: a literal, an integer-literal expression or a literal-only expression (the
// interpreter's data_kind_in, core/interpreter.h, decides the same).
bool takes_context_precision(const Expr& e);

// Whether `e` computes the same value as an operand of `to`-typed arithmetic as it does stored
// whole into a `to` buffer (so that a rewrite may move it between the two places, as merge_writes
// and split_write do with `x = b; x += c` and `x = b + c`): for a float `to`, `e` is of type
// `to` or takes the context's precision (an operand of another precision computes in it, and would
// be rounded only at the store); for an integer `to`, `e` is integer arithmetic (every form then
// wraps alike modulo 2^bits).
bool operand_of(const Expr& e, ScalarKind to);

// Whether `x = b; x += c` and `x = b + c` (or `x += b; x += c` and `x += b + c`) store the same
// into a `to` buffer, the rule merge_writes and split_write share: b and c are operands of `to`
// arithmetic in both forms (operand_of), so the sum only moves from one rounding point to
// another (regrouping as reals) or wraps alike; or b and c are integer values whose sum never
// wraps and, like them, is exact in `to`.
bool sum_regroups_in(const Expr& b, const Expr& c, ScalarKind to);

// Where a rewrite replaced parts of an expression by expressions of equal value (the reads of a
// buffer by the expression stored in it, or an expression by a read of a new buffer holding it):
// the first operator, unary minus or extern above the replaced parts whose arithmetic changed —
// its node before and after — or nullopt. Replaced parts are found where the two trees differ
// in kind (or a read in its buffer, an extern in its function); the types of the replaced parts
// themselves may differ, and store_keeps_value decides whether their values do. An extern must
// keep its exact type (it rounds its result to it); operators keep their arithmetic
// (arithmetic_of). Statement lists must have the same shape (a substitution changes only
// expressions).
using ArithmeticChange = std::pair<Expr, Expr>;
std::optional<ArithmeticChange> changed_arithmetic(const Expr& before, const Expr& after);
std::optional<ArithmeticChange> changed_arithmetic(const Block& before, const Block& after);

}  // namespace exocpp::rw
