// The best stored schedule at build time, or the given one (search/tuned.h).
#include "search/tuned.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "search/database.h"

namespace exocpp::search {

Proc tuned_or(const Proc& p, const Space& space, const TunedLookup& key,
              const std::function<Proc(const Proc&)>& fallback, std::ostream* log) {
  std::ostream& out = log ? *log : std::cerr;
  std::string path = key.database;
  if (path.empty())
    if (const char* env = std::getenv("EXOCPP_TUNE_DB")) path = env;
  if (path.empty()) return fallback(p);
  const std::string who = "exocpp: " + p.name() + ": ";
  if (!std::filesystem::exists(path)) {
    out << who << "no tuning database at " << path << ": the given schedule\n";
    return fallback(p);
  }
  TuneDatabase db(path, TuneDatabase::Mode::ReadOnly);
  std::optional<int64_t> w = db.find_workload(p, key.sizes, key.target);
  std::vector<TuneDatabase::Record> best;
  if (w) best = db.top(*w, 1);
  if (best.empty()) {
    out << who << path << " holds no tuned schedule for this proc, these sizes and target '"
        << key.target << "' on this CPU (" << cpu_model() << "): the given schedule\n";
    return fallback(p);
  }
  try {
    Choices c = Choices::replay(parse_trace(best[0].trace));
    Proc q = space(p, c);
    out << who << "the tuned schedule from " << path << " (" << best[0].seconds * 1e3
        << " ms when measured; trace " << best[0].trace << ")\n";
    return q;
  } catch (const Error& e) {
    out << who << "the stored trace " << best[0].trace << " no longer replays (" << e.what()
        << "): the given schedule\n";
    return fallback(p);
  }
}

}  // namespace exocpp::search
