// Integer arithmetic the compiler itself does on index values (simplification, the
// interpreter): overflow-checked sums and products, and division and modulo rounding toward
// negative infinity, as the IR's `/` and `%` on index values do.
#pragma once

#include <cstdint>

namespace exocpp {

// a + b, a - b and a * b into *out; false (and *out unspecified) when the result overflows.
inline bool checked_add(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_add_overflow(a, b, out);
}
inline bool checked_sub(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_sub_overflow(a, b, out);
}
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

// floor(a / b) and a - b * floor(a / b), for b != 0 (and not INT64_MIN / -1).
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t floor_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace exocpp
