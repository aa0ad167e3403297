// CursorLike (rewrites/target.h).
#include "rewrites/target.h"

namespace exocpp {

std::string CursorLike::describe() const {
  if (is_pattern()) return "'" + pattern() + "'";
  return "cursor '" + cursor().to_string() + "'";
}

}  // namespace exocpp
