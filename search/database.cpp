// Tuning records in SQLite (search/database.h).
#include "search/database.h"

#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include "core/printer.h"

namespace exocpp::search {
namespace {

// A prepared statement, finalized when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(st_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& s) {
    if (sqlite3_bind_text(st_, i, s.c_str(), -1, SQLITE_TRANSIENT) != SQLITE_OK) fail("bind");
    return *this;
  }
  Statement& bind(int i, int64_t v) {
    if (sqlite3_bind_int64(st_, i, v) != SQLITE_OK) fail("bind");
    return *this;
  }
  Statement& bind(int i, double v) {
    if (sqlite3_bind_double(st_, i, v) != SQLITE_OK) fail("bind");
    return *this;
  }
  // true while there is a row to read.
  bool step() {
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }
  int64_t int_at(int col) const { return sqlite3_column_int64(st_, col); }
  double real_at(int col) const { return sqlite3_column_double(st_, col); }
  std::string text_at(int col) const {
    const unsigned char* t = sqlite3_column_text(st_, col);
    return t ? reinterpret_cast<const char*>(t) : "";
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw SearchError("tuning database " + path_ + ": " + what + ": " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
  std::string path_;
};

}  // namespace

std::string sizes_text(const std::map<std::string, int64_t>& sizes) {
  std::string out;
  for (const auto& [name, v] : sizes)
    out += (out.empty() ? "" : " ") + name + "=" + std::to_string(v);
  return out;
}

std::map<std::string, int64_t> parse_sizes_text(const std::string& text) {
  std::map<std::string, int64_t> out;
  std::istringstream in(text);
  for (std::string item; in >> item;) {
    const size_t eq = item.find('=');
    size_t used = 0;
    int64_t v = 0;
    try {
      if (eq != std::string::npos && eq > 0) v = std::stoll(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || eq == 0 || used == 0 || eq + 1 + used != item.size())
      throw SearchError("sizes: '" + item + "' is not NAME=INTEGER");
    out[item.substr(0, eq)] = v;
  }
  return out;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  return "unknown";
}

TuneDatabase::TuneDatabase(const std::string& path, Mode mode) : path_(path) {
  const int flags =
      mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw SearchError("tuning database " + path + ": cannot open: " + why);
  }
  sqlite3_busy_timeout(db_, 5000);  // another process writing: wait, do not fail
  try {
    if (mode == Mode::ReadOnly) {
      // Fails here, naming the file, when it is not a tuning database.
      Statement probe(db_, "SELECT id FROM workloads LIMIT 1", path_);
      probe.step();
      return;
    }
    exec(
        "CREATE TABLE IF NOT EXISTS workloads(id INTEGER PRIMARY KEY, proc TEXT NOT NULL, "
        "sizes TEXT NOT NULL, target TEXT NOT NULL, cpu TEXT NOT NULL, "
        "UNIQUE(proc, sizes, target, cpu));"
        "CREATE TABLE IF NOT EXISTS measurements(workload INTEGER NOT NULL REFERENCES "
        "workloads(id), trace TEXT NOT NULL, seconds REAL NOT NULL, measured_at TEXT NOT NULL "
        "DEFAULT CURRENT_TIMESTAMP, features TEXT, PRIMARY KEY(workload, trace));");
    // A database from before the features column.
    bool has_features = false;
    Statement cols(db_, "PRAGMA table_info(measurements)", path_);
    while (cols.step()) has_features = has_features || cols.text_at(1) == "features";
    if (!has_features) exec("ALTER TABLE measurements ADD COLUMN features TEXT");
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

TuneDatabase::~TuneDatabase() { sqlite3_close(db_); }

void TuneDatabase::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string why = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw SearchError("tuning database " + path_ + ": " + why);
  }
}

int64_t TuneDatabase::workload(const Proc& p, const std::map<std::string, int64_t>& sizes,
                               const std::string& target, const std::string& cpu) {
  const std::string proc = to_string(p), sz = sizes_text(sizes);
  Statement ins(db_, "INSERT OR IGNORE INTO workloads(proc, sizes, target, cpu) VALUES(?, ?, ?, ?)",
                path_);
  ins.bind(1, proc).bind(2, sz).bind(3, target).bind(4, cpu).step();
  Statement sel(db_,
                "SELECT id FROM workloads WHERE proc = ? AND sizes = ? AND target = ? AND cpu = ?",
                path_);
  sel.bind(1, proc).bind(2, sz).bind(3, target).bind(4, cpu);
  if (!sel.step()) throw SearchError("tuning database " + path_ + ": workload not stored");
  return sel.int_at(0);
}

std::optional<int64_t> TuneDatabase::find_workload(const Proc& p,
                                                   const std::map<std::string, int64_t>& sizes,
                                                   const std::string& target,
                                                   const std::string& cpu) const {
  Statement sel(db_,
                "SELECT id FROM workloads WHERE proc = ? AND sizes = ? AND target = ? AND cpu = ?",
                path_);
  sel.bind(1, to_string(p)).bind(2, sizes_text(sizes)).bind(3, target).bind(4, cpu);
  if (!sel.step()) return std::nullopt;
  return sel.int_at(0);
}

void TuneDatabase::record(int64_t workload, const std::string& trace, double seconds,
                          const std::vector<float>& features) {
  std::ostringstream f;
  f.precision(9);  // a float's digits, so that the model trains on the values it computed
  for (size_t i = 0; i < features.size(); ++i) f << (i ? " " : "") << features[i];
  Statement st(db_,
               "INSERT INTO measurements(workload, trace, seconds, features) VALUES(?, ?, ?, ?) "
               "ON CONFLICT(workload, trace) DO UPDATE SET seconds = excluded.seconds, "
               "features = excluded.features, measured_at = CURRENT_TIMESTAMP",
               path_);
  st.bind(1, workload).bind(2, trace).bind(3, seconds).bind(4, f.str()).step();
}

std::vector<TuneDatabase::Sample> TuneDatabase::samples(int64_t workload) const {
  Statement st(
      db_, "SELECT trace, seconds, features FROM measurements WHERE workload = ? ORDER BY trace",
      path_);
  st.bind(1, workload);
  std::vector<Sample> out;
  while (st.step()) {
    Sample s{st.text_at(0), st.real_at(1), {}};
    std::istringstream in(st.text_at(2));
    for (float v; in >> v;) s.features.push_back(v);
    out.push_back(std::move(s));
  }
  return out;
}

std::map<std::string, double> TuneDatabase::measured(int64_t workload) const {
  Statement st(db_, "SELECT trace, seconds FROM measurements WHERE workload = ?", path_);
  st.bind(1, workload);
  std::map<std::string, double> out;
  while (st.step()) out[st.text_at(0)] = st.real_at(1);
  return out;
}

std::vector<TuneDatabase::Record> TuneDatabase::top(int64_t workload, int k) const {
  Statement st(db_,
               "SELECT trace, seconds FROM measurements WHERE workload = ? "
               "ORDER BY seconds, trace LIMIT ?",
               path_);
  st.bind(1, workload).bind(2, static_cast<int64_t>(k));
  std::vector<Record> out;
  while (st.step()) out.push_back({st.text_at(0), st.real_at(1)});
  return out;
}

}  // namespace exocpp::search
