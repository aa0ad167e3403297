// The band routines (gbmv.exo, sbmv.exo, tbmv.exo, tbsv.exo). A band column's rows are guarded
// by the matrix's edges (`if b + j >= ku and b + j < m + ku`); gbmv and sbmv specialize each
// column on lying away from the edges, where the guard always holds (eliminate_dead_code
// proves it), and vectorize that copy for unit strides. tbmv and tbsv stay plain for now.
#include "routine.h"

namespace exoblas {

using exocpp::Cursor;
using exocpp::Proc;

namespace {

// The band loop of column j specialized on `interior`; in the first copy the edge guard is gone
// (its one statement list is the loop's body). Returns that copy's loop.
Cursor unguarded(Proc& p, const Cursor& band, const std::string& interior) {
  p = exocpp::specialize(p, band, {interior});
  const Cursor copy = p.forward(band).parent().body()[0];
  p = exocpp::eliminate_dead_code(p, copy.body()[0]);
  return p.forward(copy);
}

}  // namespace

std::vector<Routine> banded() {
  auto gbmv = [](bool trans) {
    return [trans](Proc p, const schedlib::VectorUnit& u) {
      const Cursor fast =
          schedlib::specialize_unit_stride(p, "for j in _: _", {"A", trans ? "x" : "y"}, &p);
      const Cursor band = unguarded(p, inner_loop(fast), "j >= ku and j + kl < m");
      if (trans) return schedlib::reduce_lanes(p, band, u, {.registers = 2});
      return schedlib::vectorize_interleaved(p, band, u, {.interleave = 2});
    };
  };
  auto sbmv = [](bool upper) {
    return [upper](Proc p, const schedlib::VectorUnit& u) {
      const Cursor fast = schedlib::specialize_unit_stride(p, "for j in _: _", {"A", "x", "y"}, &p);
      const Cursor band = unguarded(p, inner_loop(fast), upper ? "j >= k" : "j + k < n");
      // An axpy into y and a dot product with x over the same band rows: they commute.
      p = exocpp::fission(p, p.forward(band).body()[0].after());
      const Cursor axpy = p.forward(band), dot = axpy.next();
      p = schedlib::reduce_lanes(p, dot, u, {.registers = 2});
      return schedlib::vectorize_interleaved(p, axpy, u, {.interleave = 2});
    };
  };
  auto plain = [](Proc p, const schedlib::VectorUnit&) { return p; };
  std::vector<Routine> out = {{real_variants("gbmv_notrans"), gbmv(false)},
                              {real_variants("gbmv_trans"), gbmv(true)},
                              {real_variants("sbmv_u"), sbmv(true)},
                              {real_variants("sbmv_l"), sbmv(false)}};
  for (const char* op : {"tbmv", "tbsv"})
    for (const char* uplo : {"u", "l"})
      for (const char* trans : {"n", "t"})
        for (const char* diag : {"n", "u"})
          out.push_back({real_variants(std::string(op) + "_" + uplo + trans + diag), plain});
  return out;
}

}  // namespace exoblas
