// Schedules of Exo's own examples, ported line by line to exocpp (docs/porting-from-exo.md):
// each port gives the proc as Exo's source writes it and the proc after the translated
// schedule, which must compute the same.
#pragma once

#include <exocpp/exocpp.h>

namespace exo_ports {

struct Port {
  exocpp::Proc original;   // the algorithm, as Exo's source writes it
  exocpp::Proc scheduled;  // after every step of the ported schedule
};

}  // namespace exo_ports

namespace exo_ports {

// Parses Exo source text that may name the x86 library's memories (AVX2, AVX512) and call its
// instructions (mm256_loadu_ps, ...), as an Exo file importing exo.platforms.x86 does.
exocpp::Module parse_with_x86(const std::string& text);

}  // namespace exo_ports
