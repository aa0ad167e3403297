// trmv and trsv (trmv.exo, trsv.exo): for unit strides, each column's update of x (trans n) an
// axpy in registers, each column's dot product (trans t) in registers of lanes.
#include "routine.h"

namespace exoblas {

std::vector<Routine> trmv() {
  auto schedule = [](bool trans) {
    return [trans](exocpp::Proc p, const schedlib::VectorUnit& u) {
      const exocpp::Cursor fast =
          schedlib::specialize_unit_stride(p, p.body_cursor()[0], {"A", "x"}, &p);
      const exocpp::Cursor column = inner_loop(fast);
      if (trans) return schedlib::reduce_lanes(p, column, u, {.registers = 2});
      return schedlib::vectorize_interleaved(p, column, u, {.interleave = 2});
    };
  };
  std::vector<Routine> out;
  for (const char* op : {"trmv", "trsv"})
    for (const char* uplo : {"u", "l"})
      for (const char* trans : {"n", "t"})
        for (const char* diag : {"n", "u"})
          out.push_back({real_variants(std::string(op) + "_" + uplo + trans + diag),
                         schedule(std::string(trans) == "t")});
  return out;
}

}  // namespace exoblas
