// The AVX2 schedule of x = x * y * y that tests/hwlibs shares: eight lanes at a time in AVX2
// registers (loads, two multiplies, a store) with a scalar tail. x86_schedule_test checks its
// steps; c_jit_test compiles it in process and with the system compiler.
#pragma once

#include <exocpp/exocpp.h>

#include "hwlibs/x86/x86.h"

namespace exocpp::testing {

// `plain` is `simple_math(n, x, y)` with the loop `for i in seq(0, n): x[i] = x[i] * y[i] * y[i]`.
inline Proc schedule_avx2_simple_math(const Proc& plain) {
  Proc p = divide_loop(plain, "i", 8, {"io", "ii"}, {.tail = Tail::Cut});
  p = stage_mem(p, "for ii in _: _ #0", "x[8 * io:8 * io + 8]", "xVec");
  p = stage_mem(p, "for ii in _: _ #0", "y[8 * io:8 * io + 8]", "yVec");
  // xVec * yVec into a register of its own, so each product is one mul.
  p = bind_expr(p, "xVec[ii] * yVec[ii]", "xy");
  p = expand_dim(p, "xy", "8", "ii");
  p = lift_alloc(p, "xy");
  p = fission(p, p.find("xy[_] = _").after());
  for (const char* reg : {"xVec", "yVec", "xy"}) p = set_memory(p, reg, "AVX2");
  for (const x86::InstrRef& instr : {x86::mm256_loadu_ps, x86::mm256_storeu_ps, x86::mm256_mul_ps})
    p = replace_all(p, instr.get());
  return p;
}

}  // namespace exocpp::testing
