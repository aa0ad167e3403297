// libFuzzer target for the parser: any input must either parse or throw an exocpp::Error with
// a source location. Whatever parses must print and parse back to the same text (the printer
// and parser agree). Anything else (a crash, a sanitizer report, an InternalError or other
// exception, a hang, a round-trip mismatch) is a bug that libFuzzer reports.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/errors.h"
#include "core/parser.h"
#include "core/printer.h"

namespace {

void check_round_trip(const exocpp::Module& m) {
  std::string printed = exocpp::to_string(m);
  std::string reprinted;
  try {
    reprinted = exocpp::to_string(exocpp::parse_module(printed, {}, "printed.exo"));
  } catch (const exocpp::Error& e) {
    std::fprintf(stderr, "printed module does not parse:\n%s\n%s\n", printed.c_str(), e.what());
    __builtin_trap();
  }
  if (reprinted != printed) {
    std::fprintf(stderr, "print/parse/print differs:\n%s\n----\n%s\n", printed.c_str(),
                 reprinted.c_str());
    __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string src(reinterpret_cast<const char*>(data), size);
  try {
    check_round_trip(exocpp::parse_module(src, {}, "fuzz.exo"));
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
