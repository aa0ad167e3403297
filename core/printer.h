// Printing the IR back in the surface language, in Exo's layout: four-space indents,
// `for i in seq(0, n):`, memory annotations always shown, minimal parentheses.
// Printing is exact for round trips: parse(print(p)) prints identically.
#pragma once

#include <ostream>
#include <string>

#include "core/ir.h"

namespace exocpp {

std::string to_string(const Expr& e);
std::string to_string(const Stmt& s, int indent = 0);  // with trailing newline
std::string to_string(const Block& b, int indent = 0);
std::string to_string(const Proc& p);    // `@instr(...)` line (if any), `def`, asserts, body
std::string to_string(const Config& c);  // `config Name:` and its fields
std::string to_string(const Module& m);  // configs, then procs, in source order

std::ostream& operator<<(std::ostream& os, const Expr& e);
std::ostream& operator<<(std::ostream& os, const Stmt& s);
std::ostream& operator<<(std::ostream& os, const Proc& p);
std::ostream& operator<<(std::ostream& os, const Module& m);

}  // namespace exocpp
