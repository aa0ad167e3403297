// dot: x . y, summed in registers of lanes.
#include "routine.h"

namespace exoblas {

Routine dot() {
  return {real_variants("dot"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x", "y"}, &p);
            return schedlib::reduce_lanes(p, fast, u, {.registers = 4});
          }};
}

}  // namespace exoblas
