// The SGEMM schedule: turns the plain three-loop `sgemm` of sgemm.exo into an AVX-512 kernel
// with exocpp's public scheduling operations only. Used by the generator program (main.cpp),
// the correctness test (tests/examples) and the benchmark (bench/sgemm).
#pragma once

#include <exocpp/exocpp.h>

#include <string>

namespace sgemm_example {

struct ScheduleOptions {
  int kc = 512;           // K block: a packed B panel is kc x 64 floats
  bool pack_b = true;     // copy each kc x 64 panel of B into a dense buffer (stage_mem)
  bool vectorize = true;  // schedule the tiles into AVX-512 (false: plain loops, for debugging)
};

// The text of sgemm.exo (embedded at build time).
const std::string& sgemm_source();

// The scheduled `sgemm`; emit_c({result}, "sgemm") writes it and every kernel it calls.
exocpp::Proc schedule_sgemm(const ScheduleOptions& opts = {});

}  // namespace sgemm_example
