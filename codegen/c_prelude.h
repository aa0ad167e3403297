// Internal: the static inline helpers emitted C uses so that integer data arithmetic and
// conversions to integer precisions are defined C with the interpreter's results (no signed
// overflow, no out-of-range float-to-integer conversion, no trap on INT32_MIN / -1).
#pragma once

#include <set>
#include <string>

#include "core/ir.h"

namespace exocpp::codegen {

// Integer data operator `op` (Add, Sub, Mul, Div, Mod) on the C operands `a` and `b` (any
// integer precision, promoted to int32_t): "exo_add_i32(a, b)", ... The result wraps modulo
// 2^32, `/` truncates toward zero, INT32_MIN / -1 is INT32_MIN, and `/` or `%` by 0 gives 0
// (the interpreter reports that division as an error). Adds the helper to `used`.
std::string int_binop(BinOpKind op, const std::string& a, const std::string& b,
                      std::set<std::string>& used);
// Negation of an int32_t, wrapping (-INT32_MIN is INT32_MIN): "exo_neg_i32(a)".
std::string int_neg(const std::string& a, std::set<std::string>& used);
// The C expression converting `text`, a C value of kind `from`, to integer kind `to` (I8, UI8,
// UI16, I32) as the interpreter stores it: integers wrap modulo 2^bits, floats are truncated
// toward zero and then wrap (NaN and infinities give 0). Adds the helpers it uses to `used`.
// Returns `text` unchanged where C's conversion is already exact.
std::string int_conversion(const std::string& text, ScalarKind from, ScalarKind to,
                           std::set<std::string>& used);

// The definitions of the helpers in `used` (and those they call), in dependency order.
std::string prelude_helpers(const std::set<std::string>& used);

}  // namespace exocpp::codegen
