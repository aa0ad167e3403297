// schedlib's vector units (schedlib.h): hwlibs/x86's AVX-512 instructions of one precision.
#include <hwlibs/x86/x86.h>

#include <stdexcept>

#include "schedlib.h"

namespace schedlib {

namespace {

using exocpp::x86::InstrRef;

VectorUnit make_unit(const std::string& type, int width, const std::vector<InstrRef>& ins,
                     const InstrRef& zero, const InstrRef& fold,
                     const std::vector<InstrRef>& argmax, const char* index_memory) {
  VectorUnit u;
  u.type = type;
  u.width = width;
  u.memory = exocpp::x86::AVX512.name();
  for (const InstrRef& i : ins) u.instructions.push_back(i.get());
  u.zero = zero.get();
  u.fold = fold.get();
  u.argmax = {argmax[0].get(), argmax[1].get(), argmax[2].get(), argmax[3].get(),
              argmax[4].get(), argmax[5].get(), argmax[6].get(), index_memory};
  return u;
}

}  // namespace

const VectorUnit& avx512(const std::string& type) {
  namespace x86 = exocpp::x86;
  // Function-local statics: the library's text is parsed on first use, thread-safely.
  static const VectorUnit f32 =
      make_unit("f32", 16,
                {x86::mm512_loadu_ps, x86::mm512_storeu_ps, x86::mm512_fmadd_ps,
                 x86::mm512_fmadd_ps_broadcast, x86::mm512_reduce_add_wide_ps, x86::mm512_add_ps,
                 x86::mm512_sub_ps, x86::mm512_mul_ps, x86::mm512_abs_ps, x86::mm512_set1_ps,
                 x86::mm512_set1_scalar_ps, x86::mm512_setzero_ps},
                x86::mm512_setzero_ps, x86::mm512_reduce_add_ps,
                {x86::mm512_loadu_ps, x86::mm512_abs_ps, x86::mm512_argmax_update_ps,
                 x86::mm512_argmax_merge_ps, x86::mm512_reduce_argmax_ps, x86::mm512_set1_scalar_ps,
                 x86::mm512_set1_scalar_epi32},
                x86::AVX512.name());
  static const VectorUnit f64 =
      make_unit("f64", 8,
                {x86::mm512_loadu_pd, x86::mm512_storeu_pd, x86::mm512_fmadd_pd,
                 x86::mm512_fmadd_pd_broadcast, x86::mm512_reduce_add_wide_pd, x86::mm512_add_pd,
                 x86::mm512_sub_pd, x86::mm512_mul_pd, x86::mm512_abs_pd, x86::mm512_set1_pd,
                 x86::mm512_set1_scalar_pd, x86::mm512_setzero_pd, x86::mm512_cvtps_pd},
                x86::mm512_setzero_pd, x86::mm512_reduce_add_pd,
                {x86::mm512_loadu_pd, x86::mm512_abs_pd, x86::mm512_argmax_update_pd,
                 x86::mm512_argmax_merge_pd, x86::mm512_reduce_argmax_pd, x86::mm512_set1_scalar_pd,
                 x86::mm256_set1_scalar_epi32},
                x86::AVX2.name());  // 8 lanes' i32 indices fill an AVX2 register
  if (type == "f32") return f32;
  if (type == "f64") return f64;
  throw std::invalid_argument("schedlib::avx512: no vector unit for precision '" + type +
                              "' (f32 or f64)");
}

}  // namespace schedlib
