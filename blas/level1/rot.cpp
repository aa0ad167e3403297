// rot: the plane rotation (x, y) := (c x + s y, c y - s x), as the reference orders it.
#include "routine.h"

namespace exoblas {

Routine rot() {
  return {real_variants("rot"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x", "y"}, &p);
            return schedlib::vectorize_interleaved(p, fast, u, {.interleave = 4});
          }};
}

}  // namespace exoblas
