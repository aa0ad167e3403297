// The band routines (gbmv.exo, sbmv.exo, tbmv.exo, tbsv.exo): plain for now. A band column's
// rows are guarded by the matrix's edges (`if b + j >= ku and b + j < m + ku`), which vectorize
// does not take; cutting the guard off the columns away from the edges comes next.
#include "routine.h"

namespace exoblas {

std::vector<Routine> banded() {
  auto plain = [](exocpp::Proc p, const schedlib::VectorUnit&) { return p; };
  std::vector<Routine> out;
  for (const char* name : {"gbmv_notrans", "gbmv_trans", "sbmv_u", "sbmv_l"})
    out.push_back({real_variants(name), plain});
  for (const char* op : {"tbmv", "tbsv"})
    for (const char* uplo : {"u", "l"})
      for (const char* trans : {"n", "t"})
        for (const char* diag : {"n", "u"})
          out.push_back({real_variants(std::string(op) + "_" + uplo + trans + diag), plain});
  return out;
}

}  // namespace exoblas
