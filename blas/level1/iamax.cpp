// i?amax: the first index of the largest |x[i]| (iamax.exo); the interface adds 1 and returns 0
// for n < 1 or incx <= 0, as the reference. Scalar for now: examples/value_control vectorizes
// the dense form with rfactor_argmax.
#include "routine.h"

namespace exoblas {

Routine iamax() {
  return {{{"exoblas_isamax", "iamax", "f32"}, {"exoblas_idamax", "iamax", "f64"}},
          [](exocpp::Proc p, const schedlib::VectorUnit&) { return p; }};
}

}  // namespace exoblas
