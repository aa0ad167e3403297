// The parser for the procedure language (Exo's surface syntax): procs, @instr procs and config
// declarations, from a string or a file. Names are resolved to symbols and every expression is
// typed; the result is type-checked (core/typecheck.h) before it is returned.
#pragma once

#include <string>
#include <vector>

#include "core/ir.h"

namespace exocpp {

struct ParseOptions {
  // Procs and configs already defined elsewhere (a hardware library, an earlier module) that
  // the source may call or read, in addition to those it defines itself.
  std::vector<Proc> procs;
  std::vector<Config> configs;
  // Run the type checker on every parsed proc (on by default).
  bool typecheck = true;
};

// `filename` is used only in error messages and source locations.
Module parse_module(const std::string& source, const ParseOptions& opts = {},
                    const std::string& filename = "<string>");
// Reads and parses a .exo file. A missing or unreadable file is an exocpp::Error.
Module parse_file(const std::string& path, const ParseOptions& opts = {});

}  // namespace exocpp
