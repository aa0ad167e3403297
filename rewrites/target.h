// How a scheduling operation is told where to act: a CursorLike is a pattern string in Exo's
// pattern language (core/pattern.h) or a Cursor. Part of the public API.
#pragma once

#include <string>
#include <variant>

#include "core/cursor.h"

namespace exocpp {

// A target named by a pattern string (core/pattern.h) or by a cursor (from this proc or one of
// its ancestors: it is forwarded, as in Exo).
class CursorLike {
 public:
  CursorLike(const char* pattern) : v_(std::string(pattern)) {}  // NOLINT: implicit by design
  CursorLike(std::string pattern) : v_(std::move(pattern)) {}    // NOLINT
  CursorLike(Cursor c) : v_(std::move(c)) {}                     // NOLINT
  bool is_pattern() const { return std::holds_alternative<std::string>(v_); }
  const std::string& pattern() const { return std::get<std::string>(v_); }
  const Cursor& cursor() const { return std::get<Cursor>(v_); }
  std::string describe() const;  // the pattern in quotes, or the cursor's printed target

 private:
  std::variant<std::string, Cursor> v_;
};

}  // namespace exocpp
