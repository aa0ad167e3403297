// gemv (gemv.exo): for unit strides down A's columns and along y, trans n adds each column into
// y as an axpy in registers; trans t sums each column's dot product with x in registers of lanes.
#include "routine.h"

namespace exoblas {

using exocpp::Cursor;
using exocpp::Proc;

std::vector<Routine> gemv() {
  auto n = [](Proc p, const schedlib::VectorUnit& u) {
    const Cursor fast = schedlib::specialize_unit_stride(p, "for j in _: _", {"A", "y"}, &p);
    return schedlib::vectorize_interleaved(p, fast.body()[2], u, {.interleave = 4});
  };
  auto t = [](Proc p, const schedlib::VectorUnit& u) {
    const Cursor fast = schedlib::specialize_unit_stride(p, "for j in _: _", {"A", "x"}, &p);
    return schedlib::reduce_lanes(p, fast.body()[2], u, {.registers = 4});
  };
  return {{real_variants("gemv_notrans"), n}, {real_variants("gemv_trans"), t}};
}

}  // namespace exoblas
