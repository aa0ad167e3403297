// sdsdot and dsdot: f32 vectors' dot product accumulated in f64 (dsdot.exo). Scalar for now (the
// vector unit has no f32 -> f64 conversion instruction yet).
#include "routine.h"

namespace exoblas {

Routine dsdot() {
  return {{{"exoblas_sdsdot", "sdsdot", "f32"}, {"exoblas_dsdot", "dsdot", "f32"}},
          [](exocpp::Proc p, const schedlib::VectorUnit&) { return p; }};
}

}  // namespace exoblas
