// nrm2: the Euclidean norm, by the reference's three accumulators (nrm2.exo). Scalar for now:
// examples/value_control vectorizes the dense form with an instruction of its own.
#include "routine.h"

namespace exoblas {

Routine nrm2() {
  return {{{"exoblas_snrm2", "snrm2", "f32"}, {"exoblas_dnrm2", "dnrm2", "f64"}},
          [](exocpp::Proc p, const schedlib::VectorUnit&) { return p; }};
}

}  // namespace exoblas
