// syr and syr2 (syr.exo, syr2.exo): for unit strides down A's columns and along the vectors, each
// column's update (the part in its triangle) an axpy in registers.
#include "routine.h"

namespace exoblas {

std::vector<Routine> syr() {
  auto columns = [](std::vector<std::string> windows) {
    return [windows](exocpp::Proc p, const schedlib::VectorUnit& u) {
      const exocpp::Cursor fast = schedlib::specialize_unit_stride(p, "for j in _: _", windows, &p);
      // for j: if x[j] == 0 (and y[j] == 0): pass else: temps ; for i: A[i, j] += ...
      const exocpp::Cursor column = fast.body()[0].orelse();
      return schedlib::vectorize_interleaved(p, column[column.size() - 1], u, {.interleave = 2});
    };
  };
  std::vector<Routine> out;
  for (const char* uplo : {"u", "l"}) {
    out.push_back({real_variants(std::string("syr_") + uplo), columns({"A", "x"})});
    out.push_back({real_variants(std::string("syr2_") + uplo), columns({"A", "x", "y"})});
  }
  return out;
}

}  // namespace exoblas
