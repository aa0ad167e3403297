// The tuning database (search/database.h): workloads and measurements survive a reopen, the
// fastest come back first, a file that is not a database is an error naming it, and tune
// resumes from what a database holds.
#include "search/database.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

const char* kScale = R"(def scale(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        B[i] = A[i] * 2.0
)";

// A fresh database file in the test's scratch folder.
std::string fresh(const std::string& name) {
  std::string path = ::testing::TempDir() + name;
  std::remove(path.c_str());
  return path;
}

TEST(TuneDatabase, RecordsSurviveAReopen) {
  const std::string path = fresh("db_reopen.sqlite");
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
  TuneDatabase db(fresh("db_top.sqlite"));
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
  TuneDatabase db(fresh("db_workloads.sqlite"));
  Proc p = parse_proc(kScale);
  int64_t w = db.workload(p, {{"N", 64}}, "plain", "cpu A");
  EXPECT_NE(db.workload(p, {{"N", 128}}, "plain", "cpu A"), w);
  EXPECT_NE(db.workload(p, {{"N", 64}}, "x86", "cpu A"), w);
  EXPECT_NE(db.workload(p, {{"N", 64}}, "plain", "cpu B"), w);
  EXPECT_EQ(db.workload(p, {{"N", 64}}, "plain", "cpu A"), w);
}

TEST(TuneDatabase, AFileThatIsNotADatabaseIsAnErrorNamingIt) {
  const std::string path = fresh("db_garbage.sqlite");
  std::ofstream(path) << std::string(4096, 'x');
  try {
    TuneDatabase db(path);
    db.workload(parse_proc(kScale), {}, "plain");
    ADD_FAILURE() << "a garbage file was taken for a database";
  } catch (const SearchError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

// The space of tune_test.cpp, smaller.
Proc tiles(const Proc& p, Choices& c) {
  int64_t t = c.pick_int("tile", {2, 4, 8, 16});
  Proc q = divide_loop(p, "i", t, {"io", "ii"}, {.tail = Tail::Guard});
  if (c.flip("unroll")) q = unroll_loop(q, "ii");
  return q;
}

TEST(TuneDatabase, TuneResumesFromWhatTheDatabaseHolds) {
  TuneDatabase db(fresh("db_resume.sqlite"));
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
  TuneResult first = tune(p, tiles, o);
  EXPECT_EQ(first.from_database, 0);
  TuneResult again = tune(p, tiles, o);
  EXPECT_EQ(again.from_database, static_cast<int>(again.timed.size()));
  ASSERT_EQ(again.timed.size(), first.timed.size());
  for (size_t i = 0; i < first.timed.size(); ++i) {
    EXPECT_EQ(again.timed[i].trace, first.timed[i].trace);
    EXPECT_EQ(again.timed[i].seconds, first.timed[i].seconds);
  }
  o.trials = 5;
  TuneResult more = tune(p, tiles, o);
  EXPECT_EQ(more.from_database, 3);
  EXPECT_EQ(db.measured(db.workload(p, o.sizes, o.target)).size(), more.timed.size());
}

}  // namespace
