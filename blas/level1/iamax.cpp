// i?amax: the first index of the largest |x[i]| (iamax.exo), in registers of (best, index)
// lanes for unit strides; the interface adds 1, and returns 0 for n < 1 or incx <= 0, as the
// reference.
#include "routine.h"

namespace exoblas {

Routine iamax() {
  return {{{"exoblas_isamax", "iamax", "f32"}, {"exoblas_idamax", "iamax", "f64"}},
          [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x"}, &p);
            return schedlib::argmax_lanes(p, fast, u, {.registers = 4});
          }};
}

}  // namespace exoblas
