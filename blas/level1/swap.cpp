// swap: x, y := y, x.
#include "routine.h"

namespace exoblas {

Routine swap() {
  return {real_variants("swap"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x", "y"}, &p);
            return schedlib::vectorize_interleaved(p, fast, u, {.interleave = 4});
          }};
}

}  // namespace exoblas
