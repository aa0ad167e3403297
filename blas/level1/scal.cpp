// scal: x := alpha x. BLAS does nothing for incx <= 0 (interface/level1_real.inc).
#include "routine.h"

namespace exoblas {

Routine scal() {
  return {real_variants("scal"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x"}, &p);
            return schedlib::vectorize_interleaved(p, fast, u, {.interleave = 4});
          }};
}

}  // namespace exoblas
