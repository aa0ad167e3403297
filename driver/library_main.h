// The main of a schedule program: the program that exocpp_add_library
// (cmake/ExocppAddLibrary.cmake) builds and runs at build time to turn .exo files and a schedule
// into a C library. It promises that the program's only output is OUT_DIR/LIB_NAME.c and
// OUT_DIR/LIB_NAME.h, written whole or not at all, and that any refusal (a parse, type, scheduling
// or codegen error) is printed with its location and ends the program with a nonzero status, so
// that the build stops there.
//
//   int main(int argc, char** argv) {
//     return exocpp::library_main(argc, argv, [] { return std::vector<Proc>{schedule()}; });
//   }
//
// docs/using-exocpp.md describes the contract.
#pragma once

#include <functional>
#include <vector>

#include "core/ir.h"

namespace exocpp {

// Runs as `PROGRAM OUT_DIR LIB_NAME`: calls `make_procs` and emits the procs it returns (and
// every proc they call) with emit_c(procs, LIB_NAME, OUT_DIR), creating OUT_DIR first if it is
// missing. Returns 0 when both files were written. Returns 2 after a usage line on stderr when
// the arguments are not two; returns 1 after printing the error on stderr when `make_procs` or
// the emission throws (an exocpp::Error prints its located report, anything else its message),
// or when it returns no proc. Nothing is written then. Scheduling inside `make_procs`, rather
// than before the call, is what lets a refused operation be reported this way.
int library_main(int argc, char** argv, const std::function<std::vector<Proc>()>& make_procs);

// The same for procs already built: a schedule that throws while building them has thrown
// before this call, out of main, so prefer the overload above.
int library_main(int argc, char** argv, const std::vector<Proc>& procs);

}  // namespace exocpp
