// copy: y := x.
#include "routine.h"

namespace exoblas {

Routine copy() {
  return {real_variants("copy"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x", "y"}, &p);
            return schedlib::vectorize_interleaved(p, fast, u, {.interleave = 4});
          }};
}

}  // namespace exoblas
