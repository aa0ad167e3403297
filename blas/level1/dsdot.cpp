// sdsdot and dsdot: f32 vectors' dot product accumulated in f64 (dsdot.exo); for unit strides in
// f64 registers of lanes, each 8 f32 elements widened by one instruction.
#include "routine.h"

namespace exoblas {

Routine dsdot() {
  return {{{"exoblas_sdsdot", "sdsdot", "f32"}, {"exoblas_dsdot", "dsdot", "f32"}},
          [](exocpp::Proc p, const schedlib::VectorUnit&) {
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x", "y"}, &p);
            return schedlib::reduce_lanes(p, fast, schedlib::avx512("f64"), {.registers = 4});
          }};
}

}  // namespace exoblas
