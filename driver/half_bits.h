// IEEE half precision as bits: the encoding the compiled code stores for f16 values, used where a
// double crosses into compiled code (CompiledLibrary's argument packing) and where the JIT supplies
// the half-conversion runtime calls (driver/c_jit.cpp). Internal to driver/.
#pragma once

#include <cmath>
#include <cstdint>

namespace exocpp::driver {

// The half nearest to `v` (ties to even, once), as bits; overflow gives infinity, NaN a quiet NaN.
inline uint16_t double_to_half(double v) {
  if (std::isnan(v)) return 0x7e00;
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (a >= 65520.0) return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14))
    return sign | static_cast<uint16_t>(std::nearbyint(a * std::ldexp(1.0, 24)));
  int e = 0;
  double f = std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
  e -= 1;
  double mant = std::nearbyint((f * 2.0 - 1.0) * 1024.0);
  if (mant >= 1024.0) {
    mant = 0;
    ++e;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | static_cast<uint16_t>((e + 15) << 10) | static_cast<uint16_t>(mant);
}

// The value of half bits `h` (exact in double).
inline double half_to_double(uint16_t h) {
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  int exp = (h >> 10) & 0x1f;
  int mant = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 31) return mant ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(mant | 0x400, exp - 25);
}

}  // namespace exocpp::driver
