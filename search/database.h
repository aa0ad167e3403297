// Tuning records in an SQLite database, so that a search resumes where the last one stopped and
// its results can be kept, shared and queried. A workload is a proc as printed, the sizes it is
// timed at, the target it was tuned for (a name the caller chooses: "x86", "plain") and the
// CPU's model name; each workload holds the candidates measured for it, by trace, with their
// time (the latest measurement).
//
//   search::TuneDatabase db("tune.sqlite");
//   search::TuneOptions o;
//   o.database = &db;                // known traces are not timed again, new ones are stored
//   search::tune(p, space, o);
//   auto best = db.top(db.workload(p, o.sizes, o.target), 3);
//
// Schema (stable; other tools may read it):
//   workloads(id INTEGER PRIMARY KEY, proc TEXT, sizes TEXT, target TEXT, cpu TEXT)
//   measurements(workload INTEGER, trace TEXT, seconds REAL, measured_at TEXT,
//                PRIMARY KEY (workload, trace))
// Every failure (a file that is not a database, a full disk) is a SearchError naming the file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ir.h"
#include "search/choices.h"

struct sqlite3;

namespace exocpp::search {

// The CPU's model name, as /proc/cpuinfo gives it ("unknown" where it cannot be read).
std::string cpu_model();

class TuneDatabase {
 public:
  // Opens the database at `path`, creating it and its tables when missing.
  explicit TuneDatabase(const std::string& path);
  ~TuneDatabase();
  TuneDatabase(const TuneDatabase&) = delete;
  TuneDatabase& operator=(const TuneDatabase&) = delete;

  // The id of the workload (created when new); `cpu` defaults to this machine's.
  int64_t workload(const Proc& p, const std::map<std::string, int64_t>& sizes,
                   const std::string& target, const std::string& cpu = cpu_model());
  // Stores (or replaces) the time of one trace of a workload.
  void record(int64_t workload, const std::string& trace, double seconds);
  // Every stored time of a workload, by trace text.
  std::map<std::string, double> measured(int64_t workload) const;

  struct Record {
    std::string trace;
    double seconds;
  };
  // The k fastest stored candidates of a workload, fastest first.
  std::vector<Record> top(int64_t workload, int k) const;

  const std::string& path() const { return path_; }

 private:
  void exec(const std::string& sql) const;
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace exocpp::search
