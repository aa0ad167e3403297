// symv (symv.exo): for unit strides, each column's two uses of its triangle part — an axpy into y
// and a dot product with x — split into two loops (they touch y and read x: they commute), the
// first in registers, the second in registers of lanes.
#include "routine.h"

namespace exoblas {

std::vector<Routine> symv() {
  auto schedule = [](exocpp::Proc p, const schedlib::VectorUnit& u) {
    const exocpp::Cursor fast =
        schedlib::specialize_unit_stride(p, "for j in _: _", {"A", "x", "y"}, &p);
    const exocpp::Cursor part = inner_loop(fast);
    p = exocpp::fission(p, part.body()[0].after());
    const exocpp::Cursor axpy = p.forward(part), dot = axpy.next();
    p = schedlib::reduce_lanes(p, dot, u, {.registers = 2});
    return schedlib::vectorize_interleaved(p, axpy, u, {.interleave = 2});
  };
  return {{real_variants("symv_u"), schedule}, {real_variants("symv_l"), schedule}};
}

}  // namespace exoblas
