// nrm2: the Euclidean norm by the reference's three accumulators (nrm2.exo); for unit strides
// each sum in registers of lanes, a register's squares added to the sums their ranges choose by
// exoblas's own lane instruction (nrm2_lanes.exo).
#include "routine.h"

namespace exoblas {

Routine nrm2() {
  return {{{"exoblas_snrm2", "snrm2", "f32"}, {"exoblas_dnrm2", "dnrm2", "f64"}},
          [](exocpp::Proc p, const schedlib::VectorUnit& u) {
            schedlib::VectorUnit with_lanes = u;
            with_lanes.instructions.insert(
                with_lanes.instructions.begin(),
                specs().proc(u.type == "f32" ? "nrm2_lanes_ps" : "nrm2_lanes_pd"));
            const exocpp::Cursor fast =
                schedlib::specialize_unit_stride(p, "for i in _: _", {"x"}, &p);
            return schedlib::reduce_lanes(p, fast, with_lanes, {.registers = 2});
          }};
}

}  // namespace exoblas
