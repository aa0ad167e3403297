// rotg: the plane rotation that zeroes b (rotg.exo): scalar code, nothing to schedule.
#include "routine.h"

namespace exoblas {

Routine rotg() {
  return {{{"exoblas_srotg", "srotg", "f32"}, {"exoblas_drotg", "drotg", "f64"}},
          [](exocpp::Proc p, const schedlib::VectorUnit&) { return p; }};
}

}  // namespace exoblas
