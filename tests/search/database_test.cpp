// The tuning database (search/database.h): workloads and measurements survive a reopen, the
// fastest come back first, a file that is not a database is an error naming it, and tune
// resumes from what a database holds.
#include "search/database.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "search/search_fixtures.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

TEST(TuneDatabase, RecordsSurviveAReopen) {
  const std::string path = fresh_path("db_reopen.sqlite");
  Proc p = parse_proc(kScale);
  int64_t w = 0;
  {
    TuneDatabase db(path);
    w = db.workload(p, {{"N", 64}}, "plain", "cpu A");
    db.record(w, "tile=4", 2e-6);
    db.record(w, "tile=8", 1e-6);
  }
  TuneDatabase db(path);
  EXPECT_EQ(db.workload(p, {{"N", 64}}, "plain", "cpu A"), w);
  EXPECT_EQ(db.measured(w), (std::map<std::string, double>{{"tile=4", 2e-6}, {"tile=8", 1e-6}}));
}

TEST(TuneDatabase, TopListsTheFastestFirstAndARecordReplacesAnEarlierTime) {
  TuneDatabase db(fresh_path("db_top.sqlite"));
  int64_t w = db.workload(parse_proc(kScale), {{"N", 64}}, "plain", "cpu A");
  db.record(w, "a", 3.0);
  db.record(w, "b", 1.0);
  db.record(w, "c", 2.0);
  db.record(w, "a", 0.5);
  std::vector<TuneDatabase::Record> top = db.top(w, 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].trace, "a");
  EXPECT_EQ(top[0].seconds, 0.5);
  EXPECT_EQ(top[1].trace, "b");
}

TEST(TuneDatabase, AWorkloadIsTheProcItsSizesItsTargetAndTheCpu) {
  TuneDatabase db(fresh_path("db_workloads.sqlite"));
  Proc p = parse_proc(kScale);
  int64_t w = db.workload(p, {{"N", 64}}, "plain", "cpu A");
  EXPECT_NE(db.workload(p, {{"N", 128}}, "plain", "cpu A"), w);
  EXPECT_NE(db.workload(p, {{"N", 64}}, "x86", "cpu A"), w);
  EXPECT_NE(db.workload(p, {{"N", 64}}, "plain", "cpu B"), w);
  EXPECT_EQ(db.workload(p, {{"N", 64}}, "plain", "cpu A"), w);
}

TEST(TuneDatabase, AFileThatIsNotADatabaseIsAnErrorNamingIt) {
  const std::string path = fresh_path("db_garbage.sqlite");
  std::ofstream(path) << std::string(4096, 'x');
  try {
    TuneDatabase db(path);
    db.workload(parse_proc(kScale), {}, "plain");
    ADD_FAILURE() << "a garbage file was taken for a database";
  } catch (const SearchError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(TuneDatabase, TuneResumesFromWhatTheDatabaseHolds) {
  TuneDatabase db(fresh_path("db_resume.sqlite"));
  Proc p = parse_proc(kScale);
  TuneOptions o;
  o.seed = 9;
  o.trials = 3;
  o.population = 2;
  o.sizes = {{"N", 512}};
  o.verify_sizes = {{"N", 13}};
  o.measure.min_repeats = 2;
  o.measure.max_repeats = 3;
  o.database = &db;
  TuneResult first = tune(p, guarded_tiles, o);
  EXPECT_EQ(first.from_database, 0);
  std::map<std::string, double> before = db.measured(db.workload(p, o.sizes, o.target));
  // The second run trains its model on the stored times too, so only its first generation
  // (drawn from the seed) is sure to repeat the first run's; every candidate it meets again
  // takes the stored time instead of being timed.
  TuneResult again = tune(p, guarded_tiles, o);
  ASSERT_GE(again.timed.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(again.timed[i].trace, first.timed[i].trace);
  int known = 0;
  std::set<std::string> traces;
  for (const Candidate& c : first.timed) traces.insert(c.trace.to_string());
  for (const Candidate& c : again.timed) {
    traces.insert(c.trace.to_string());
    auto b = before.find(c.trace.to_string());
    if (b == before.end()) continue;
    ++known;
    EXPECT_EQ(c.seconds, b->second);
  }
  EXPECT_EQ(again.from_database, known);
  EXPECT_EQ(db.measured(db.workload(p, o.sizes, o.target)).size(), traces.size());
}

TEST(TuneDatabase, FeaturesAreStoredWithEachMeasurement) {
  const std::string path = fresh_path("db_features.sqlite");
  Proc p = parse_proc(kScale);
  TuneDatabase db(path);
  int64_t w = db.workload(p, {{"N", 8}}, "plain");
  db.record(w, "tile=2", 1.5, {1.0f, 0.25f, 1e6f});
  db.record(w, "tile=4", 0.5);
  std::vector<TuneDatabase::Sample> s = db.samples(w);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].trace, "tile=2");
  EXPECT_EQ(s[0].features, (std::vector<float>{1.0f, 0.25f, 1e6f}));
  EXPECT_TRUE(s[1].features.empty());
}

TEST(TuneDatabase, FindingAWorkloadNeverCreatesOne) {
  const std::string path = fresh_path("db_find.sqlite");
  Proc p = parse_proc(kScale);
  TuneDatabase db(path);
  EXPECT_FALSE(db.find_workload(p, {{"N", 8}}, "plain").has_value());
  int64_t w = db.workload(p, {{"N", 8}}, "plain");
  EXPECT_EQ(db.find_workload(p, {{"N", 8}}, "plain"), w);
  EXPECT_FALSE(db.find_workload(p, {{"N", 8}}, "plain", "another cpu").has_value());
}

TEST(TuneDatabase, ReadOnlyNeitherCreatesNorWrites) {
  const std::string path = fresh_path("db_readonly.sqlite");
  EXPECT_THROW(TuneDatabase(path, TuneDatabase::Mode::ReadOnly), SearchError);
  EXPECT_FALSE(std::ifstream(path).good());
  Proc p = parse_proc(kScale);
  { TuneDatabase(path).record(TuneDatabase(path).workload(p, {{"N", 8}}, "plain"), "t=1", 1.0); }
  TuneDatabase ro(path, TuneDatabase::Mode::ReadOnly);
  EXPECT_EQ(ro.top(*ro.find_workload(p, {{"N", 8}}, "plain"), 1).size(), 1u);
  EXPECT_THROW(ro.workload(p, {{"N", 9}}, "plain"), SearchError);
}

TEST(TuneDatabase, ADatabaseWithoutTheFeaturesColumnGainsIt) {
  const std::string path = fresh_path("db_old.sqlite");
  Proc p = parse_proc(kScale);
  {
    TuneDatabase db(path);
    db.record(db.workload(p, {{"N", 8}}, "plain"), "t=1", 1.0);
  }
  // The schema before features: rebuilt without the column, the row kept.
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw,
                           "CREATE TABLE old(workload INTEGER NOT NULL REFERENCES "
                           "workloads(id), trace TEXT NOT NULL, seconds REAL NOT NULL, "
                           "measured_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, "
                           "PRIMARY KEY(workload, trace));"
                           "INSERT INTO old SELECT workload, trace, seconds, measured_at FROM "
                           "measurements; DROP TABLE measurements; ALTER TABLE old RENAME TO "
                           "measurements;",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
  }
  TuneDatabase db(path);
  int64_t w = db.workload(p, {{"N", 8}}, "plain");
  ASSERT_EQ(db.samples(w).size(), 1u);
  db.record(w, "t=2", 2.0, {3.0f});
  EXPECT_EQ(db.samples(w)[1].features, std::vector<float>{3.0f});
}

TEST(TuneDatabase, SizesRoundTripThroughTheirText) {
  const std::map<std::string, int64_t> sizes = {{"N", 70}, {"K", -3}, {"M", 13}};
  EXPECT_EQ(sizes_text(sizes), "K=-3 M=13 N=70");
  EXPECT_EQ(parse_sizes_text(sizes_text(sizes)), sizes);
  EXPECT_THROW(parse_sizes_text("N=7x"), SearchError);
  EXPECT_THROW(parse_sizes_text("=7"), SearchError);
}

}  // namespace
