// rotm: the modified Givens rotation (rotm.exo): each of the three forms of H vectorized for unit
// strides.
#include "routine.h"

namespace exoblas {

Routine rotm() {
  return {real_variants("rotm"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            for (const exocpp::Cursor& loop : p.find_all("for i in _: _")) {
              const exocpp::Cursor fast = schedlib::specialize_unit_stride(p, loop, {"x", "y"}, &p);
              p = schedlib::vectorize_interleaved(p, fast, u, {.interleave = 4});
            }
            return p;
          }};
}

}  // namespace exoblas
