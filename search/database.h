// Tuning records in an SQLite database, so that a search resumes where the last one stopped and
// its results can be kept, shared and queried. A workload is a proc as printed, the sizes it is
// timed at, the target it was tuned for (a name the caller chooses: "x86", "plain") and the
// CPU's model name; each workload holds the candidates measured for it, by trace, with their
// time (the latest measurement) and the cost model's features of the candidate (so that a
// resumed search trains its model on everything measured before, without building it again).
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
//                features TEXT,  -- search/features.h's values, space-separated, or NULL
//                PRIMARY KEY (workload, trace))
// A database written before the features column existed gains it when opened for writing.
// Every failure (a file that is not a database, a full disk) is a SearchError naming the file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir.h"
#include "search/choices.h"

struct sqlite3;

namespace exocpp::search {

// The CPU's model name, as /proc/cpuinfo gives it ("unknown" where it cannot be read).
std::string cpu_model();

// Sizes as a workload stores them: "K=64 M=13 N=70" (by name), and back. parse_sizes_text
// throws SearchError on an item that is not NAME=INTEGER.
std::string sizes_text(const std::map<std::string, int64_t>& sizes);
std::map<std::string, int64_t> parse_sizes_text(const std::string& text);

class TuneDatabase {
 public:
  enum class Mode { ReadWrite, ReadOnly };
  // Opens the database at `path`: for writing, creating it and its tables when missing; read
  // only, it must exist (a missing file is a SearchError) and nothing is ever written.
  explicit TuneDatabase(const std::string& path, Mode mode = Mode::ReadWrite);
  ~TuneDatabase();
  TuneDatabase(const TuneDatabase&) = delete;
  TuneDatabase& operator=(const TuneDatabase&) = delete;

  // The id of the workload (created when new); `cpu` defaults to this machine's.
  int64_t workload(const Proc& p, const std::map<std::string, int64_t>& sizes,
                   const std::string& target, const std::string& cpu = cpu_model());
  // The id of the workload when the database holds it (never creates one).
  std::optional<int64_t> find_workload(const Proc& p, const std::map<std::string, int64_t>& sizes,
                                       const std::string& target,
                                       const std::string& cpu = cpu_model()) const;
  // Stores (or replaces) the time of one trace of a workload, with the candidate's features.
  void record(int64_t workload, const std::string& trace, double seconds,
              const std::vector<float>& features = {});
  // Every stored time of a workload, by trace text.
  std::map<std::string, double> measured(int64_t workload) const;

  struct Sample {
    std::string trace;
    double seconds;
    std::vector<float> features;  // empty when none were stored
  };
  // Every stored measurement of a workload with its features, in trace order.
  std::vector<Sample> samples(int64_t workload) const;

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
