// ger (ger.exo): for unit strides down A's columns and along x, each column's update an axpy in
// registers.
#include "routine.h"

namespace exoblas {

std::vector<Routine> ger() {
  return {{real_variants("ger"), [](exocpp::Proc p, const schedlib::VectorUnit& u) {
             const exocpp::Cursor fast =
                 schedlib::specialize_unit_stride(p, "for j in _: _", {"A", "x"}, &p);
             // for j: if y[j] == 0: pass else: temp = alpha y[j]; for i: A[i, j] += x[i] temp
             const exocpp::Cursor column = fast.body()[0].orelse();
             return schedlib::vectorize_interleaved(p, column[column.size() - 1], u,
                                                    {.interleave = 4});
           }}};
}

}  // namespace exoblas
