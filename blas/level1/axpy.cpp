// axpy: y := alpha x + y. BLAS returns at once when alpha == 0 (interface/level1_real.inc).
#include "routine.h"

namespace exoblas {

Routine axpy() {
  return {real_variants("axpy"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x", "y"}, &p);
            return schedlib::vectorize_interleaved(p, fast, u, {.interleave = 4});
          }};
}

}  // namespace exoblas
