// rotmg: the modified Givens transformation (rotmg.exo): scalar code, nothing to schedule.
#include "routine.h"

namespace exoblas {

Routine rotmg() {
  return {{{"exoblas_srotmg", "srotmg", "f32"}, {"exoblas_drotmg", "drotmg", "f64"}},
          [](exocpp::Proc p, const schedlib::VectorUnit&) { return p; }};
}

}  // namespace exoblas
