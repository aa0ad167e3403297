// Locations (core/loc.h).
#include "core/loc.h"

#include <sstream>

namespace exocpp {

const char* to_string(CursorKind k) {
  switch (k) {
    case CursorKind::Invalid:
      return "invalid";
    case CursorKind::Stmt:
      return "statement";
    case CursorKind::Block:
      return "block";
    case CursorKind::Gap:
      return "gap";
    case CursorKind::Expr:
      return "expression";
    case CursorKind::Arg:
      return "argument";
  }
  return "?";
}

std::string Loc::to_string() const {
  std::ostringstream os;
  os << exocpp::to_string(kind) << " at body";
  for (const PathStep& s : block)
    os << "[" << s.index << "]." << (s.field == BlockField::Body ? "body" : "orelse");
  os << "[" << lo;
  if (kind == CursorKind::Block) os << ":" << hi;
  os << "]";
  for (int e : expr) os << "." << e;
  return os.str();
}

}  // namespace exocpp
