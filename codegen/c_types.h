// The C side of exocpp's types: C names of scalar kinds, window struct types, literals and
// identifiers, shared by every part of C emission.
#pragma once

#include <string>

#include "core/ir.h"

namespace exocpp::codegen {

// The C type a buffer of element kind `k` holds (R is emitted as float); control kinds are
// int_fast32_t, bool is bool.
std::string c_type(ScalarKind k);
// Short spelling used in window struct names: f32, f64, f16, bf16, i8, ui8, ui16, i32 (R: f32).
std::string type_suffix(ScalarKind k);
// The window struct type for a window of `rank` over `k`, `const_data` for read-only windows:
// "struct exo_win_2f32" / "struct exo_win_2f32c".
std::string window_struct_name(int rank, ScalarKind k, bool const_data);
// Its definition, guarded so that several exocpp headers can be included together.
std::string window_struct_def(int rank, ScalarKind k, bool const_data);

// A C literal with value `v` in precision `k` (data kinds), rounded as the interpreter rounds.
std::string float_literal(double v, ScalarKind k);

// The C value of float precision `k` (R: f32) that the double `d` (a C expression) rounds to,
// rounded once as the interpreter rounds (bf16 as the float holding the bf16 value).
std::string from_double(const std::string& d, ScalarKind k);

// The definition of exo_f16, the C type of f16 values.
std::string f16_typedef();

// The definition of exo_bf16, the C type of bf16 values (a struct around the 16 bits, so that C
// never computes on them by mistake), and its conversions: exo_bf16_to_float (exact),
// exo_bf16_from_float and exo_bf16_from_double (round to nearest even, as the interpreter), and
// exo_bf16_round (a float rounded to bf16, kept as a float). Emitted C computes on bf16 values in
// float, rounding after each operation: f32 has more than twice bf16's significand bits plus
// two, so rounding an exact result to f32 and then to bf16 gives the correctly rounded bf16.
std::string bf16_support();

bool is_c_keyword(const std::string& s);
// A function of the C99 standard library that compilers know as a builtin (memcpy, sqrt,
// abs, ...): a C function of that name draws a conflicting-declaration warning (an error at
// -Werror) and may be confused with the library's by the optimizer, and a variable of that
// name would hide the function from extern calls.
bool is_c_library_function(const std::string& s);
bool is_c_identifier(const std::string& s);
// A macro or identifier of a header emitted C includes (EOF, errno, stdin, INT32_MAX, assert,
// ...), or a name reserved for those headers or for exocpp's prelude (leading `_`, `E` + capital,
// `*_t`, `exo_*`, ...).
bool is_c_header_name(const std::string& s);
// Why `s` cannot be used as a C name in the emitted code ("" when it can): the one test every
// emitted name passes. Variables are renamed (declare()); proc, library and config names, which
// are the ABI, are refused.
std::string c_name_clash(const std::string& s);

}  // namespace exocpp::codegen
