// `exocpp tune`: searches a schedule for one proc of a file (search/tune.h over
// search/sketch.h's space) and prints the best as schedule calls. Argument parsing is in
// tools/exocpp.cpp with the other commands'.
#pragma once

#include <exocpp/exocpp.h>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>

namespace exocpp::cli {

struct TuneCommand {
  Proc proc;
  std::map<std::string, int64_t> sizes;         // timed at
  std::map<std::string, int64_t> verify_sizes;  // checked at (default: sizes)
  int trials = 20;
  double minutes = 10;
  uint64_t seed = 1;
  bool x86 = false;      // vectorize through hwlibs/x86 (AVX512 when the CPU has it, else AVX2)
  std::string database;  // an SQLite file to resume from and record into; "" for none
  std::string plot;      // an SVG file to draw the best time against trials in; "" for none
};

// Runs the search, one progress line per timed candidate on `progress` (the trial, its time, the
// best so far, the cost model's error once it chooses, the time spent), the result (times,
// refusals by reason, the best trace and its schedule calls) on `out`, and the plot when one is
// asked for. Returns the exit status.
int tune_command(const TuneCommand& c, std::ostream& out, std::ostream& progress);

}  // namespace exocpp::cli
