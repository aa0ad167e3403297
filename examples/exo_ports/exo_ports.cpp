// Shared by the ports (examples/exo_ports/exo_ports.h).
#include "exo_ports.h"

#include "hwlibs/x86/x86.h"

namespace exo_ports {

exocpp::Module parse_with_x86(const std::string& text) {
  exocpp::x86::register_memories();
  exocpp::ParseOptions opts;
  opts.procs = exocpp::x86::library().procs;
  return exocpp::parse_module(text, opts);
}

}  // namespace exo_ports
