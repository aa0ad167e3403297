// The parser for the procedure language (Exo's surface syntax): procs, @instr procs and config
// declarations, from a string or a file. Names are resolved to symbols and every expression is
// typed; the result is type-checked (core/typecheck.h) before it is returned.
#pragma once

#include <cstddef>
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
// The largest source file parse_file reads (64 MiB): beyond it, or on an endless input such as
// /dev/zero, it stops with a ParseError naming the limit.
inline constexpr size_t kMaxSourceBytes = size_t{64} << 20;
// Reads and parses a .exo file. A missing, unreadable, too large or binary (NUL bytes) file is
// a ParseError.
Module parse_file(const std::string& path, const ParseOptions& opts = {});

// A keyword of the procedure language (`def`, `for`, `if`, `and`, `True`, ...): never a name.
bool is_keyword(const std::string& s);

// A variable visible to parse_expr: its symbol (whose name is what the text refers to) and type.
struct ScopeVar {
  Sym sym;
  Type type;
  // An index argument (it declares a value range): its elements read as `int` control values.
  bool index_arg = false;
};
// Parses one expression of the procedure language, such as a loop bound or (with
// allow_window) a window "C[i, 16*jo : 16*jo + 16]", resolving names against `scope` (a later
// entry shadows an earlier one of the same name) and configs against opts.configs. This is how
// scheduling operations read the expressions a user passes as strings. Throws ParseError.
Expr parse_expr(const std::string& text, const std::vector<ScopeVar>& scope,
                const ParseOptions& opts = {}, bool allow_window = false,
                const std::string& filename = "<string>");

}  // namespace exocpp
