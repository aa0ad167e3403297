// libFuzzer target for the parser: any input must either parse or throw an exocpp::Error.
// Anything else (a crash, a sanitizer report, an InternalError or other exception, a hang)
// is a bug that libFuzzer reports.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/errors.h"
#include "core/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string src(reinterpret_cast<const char*>(data), size);
  try {
    exocpp::Module m = exocpp::parse_module(src, {}, "fuzz.exo");
    (void)m;
  } catch (const exocpp::Error& e) {
    // A user error must carry its location (the parser knows it for every error it raises).
    if (!e.loc().known()) __builtin_trap();
  }
  // The expression entry point used by scheduling operations, with no variables in scope.
  try {
    exocpp::parse_expr(src, {}, {}, /*allow_window=*/true, "fuzz.exo");
  } catch (const exocpp::Error& e) {
    if (!e.loc().known()) __builtin_trap();
  }
  return 0;
}

// Until core/printer.cpp exists, core/externs.cpp's use of to_string(Type) needs a definition.
// Weak, so the printer's real one replaces it. Remove once the printer has landed.
namespace exocpp {
[[gnu::weak]] std::string to_string(const Type& t) { return to_string(t.base); }
}  // namespace exocpp
