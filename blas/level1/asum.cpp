// asum: the sum of |x[i]|. BLAS returns 0 for incx <= 0 (interface/level1_real.inc).
#include "routine.h"

namespace exoblas {

Routine asum() {
  return {real_variants("asum"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x"}, &p);
            return schedlib::reduce_lanes(p, fast, u, {.registers = 4});
          }};
}

}  // namespace exoblas
