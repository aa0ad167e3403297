// Build-time use of tuning records: a schedule program asks for the best schedule a tuning
// database holds for its proc, and falls back to its own schedule when there is none. The
// stored trace is replayed through the space it was found in, so every step is proved again by
// the scheduling operations, as for any schedule; a trace the space no longer accepts (the
// space or the proc changed) falls back too, and says why.
//
// exocpp_add_library(NAME ... TUNE_DB tune.sqlite) (cmake/ExocppAddLibrary.cmake) runs the
// schedule program with EXOCPP_TUNE_DB set to that file:
//
//   Proc p = parse_file("saxpy.exo").proc("saxpy");
//   Proc s = search::tuned_or(p, search::sketch_space(), {.sizes = {{"n", 4096}},
//                                                         .target = "sketch"},
//                             [](const Proc& q) { return my_schedule(q); });
//
// where the records were made by `exocpp tune saxpy.exo saxpy --size n=4096 --db tune.sqlite`
// (the target `exocpp tune` records is "sketch", or "sketch+x86" with --lib x86).
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <string>

#include "core/ir.h"
#include "search/tune.h"

namespace exocpp::search {

struct TunedLookup {
  std::map<std::string, int64_t> sizes;  // the sizes the workload was tuned at
  std::string target = "plain";          // TuneOptions::target of the tuning run
  // The database file; "" reads the EXOCPP_TUNE_DB environment variable (and no database when
  // that is unset or empty). The file is opened read only and never created.
  std::string database = {};
};

// The fastest schedule the database holds for `p` at `key` on this CPU, replayed through
// `space`; `fallback(p)` when there is no database, no record for this workload, or the stored
// trace no longer replays. One line on `log` (stderr by default; nullptr for none) says which
// was used and why. An unreadable database is a SearchError: a build pointed at a file should
// not quietly ignore it.
Proc tuned_or(const Proc& p, const Space& space, const TunedLookup& key,
              const std::function<Proc(const Proc&)>& fallback, std::ostream* log = nullptr);

}  // namespace exocpp::search
