// Build-time use of tuning records (search/tuned.h): the best stored schedule is replayed, and
// the given schedule is used, with a line saying why, when there is no database, no record, or a
// trace that no longer replays; the lookup never creates a database.
#include "search/tuned.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/printer.h"
#include "search/search_fixtures.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

Proc tiles(const Proc& p, Choices& c) {
  int64_t t = c.pick_int("tile", {2, 4, 8, 16});
  return divide_loop(p, "i", t, {"io", "ii"}, {.tail = Tail::Guard});
}

Proc by_hand(const Proc& p) { return divide_loop(p, "i", 3, {"io", "ii"}, {.tail = Tail::Cut}); }

TEST(TunedOr, AppliesTheFastestStoredTrace) {
  const std::string path = fresh_path("tuned_best.sqlite");
  Proc p = parse_proc(kScale);
  {
    TuneDatabase db(path);
    int64_t w = db.workload(p, {{"N", 64}}, "test");
    db.record(w, "tile=4", 2.0);
    db.record(w, "tile=8", 1.0);
  }
  std::ostringstream log;
  Proc q =
      tuned_or(p, tiles, {.sizes = {{"N", 64}}, .target = "test", .database = path}, by_hand, &log);
  EXPECT_EQ(to_string(q), to_string(tiles(p, Choices::replay(parse_trace("tile=8")).ref())));
  EXPECT_NE(log.str().find("scale: the tuned schedule from " + path), std::string::npos)
      << log.str();
}

TEST(TunedOr, FallsBackWhenTheWorkloadHasNoRecord) {
  const std::string path = fresh_path("tuned_other.sqlite");
  Proc p = parse_proc(kScale);
  {
    TuneDatabase db(path);
    db.record(db.workload(p, {{"N", 64}}, "test"), "tile=8", 1.0);
  }
  std::ostringstream log;
  // Other sizes: another workload.
  Proc q = tuned_or(p, tiles, {.sizes = {{"N", 128}}, .target = "test", .database = path}, by_hand,
                    &log);
  EXPECT_EQ(to_string(q), to_string(by_hand(p)));
  EXPECT_NE(log.str().find("holds no tuned schedule"), std::string::npos) << log.str();
}

TEST(TunedOr, FallsBackWhenTheStoredTraceNoLongerReplays) {
  const std::string path = fresh_path("tuned_stale.sqlite");
  Proc p = parse_proc(kScale);
  {
    TuneDatabase db(path);
    db.record(db.workload(p, {{"N", 64}}, "test"), "tile=5", 1.0);  // not an option any more
  }
  std::ostringstream log;
  Proc q =
      tuned_or(p, tiles, {.sizes = {{"N", 64}}, .target = "test", .database = path}, by_hand, &log);
  EXPECT_EQ(to_string(q), to_string(by_hand(p)));
  EXPECT_NE(log.str().find("no longer replays"), std::string::npos) << log.str();
}

TEST(TunedOr, AMissingDatabaseIsNotCreated) {
  const std::string path = fresh_path("tuned_missing.sqlite");
  Proc p = parse_proc(kScale);
  std::ostringstream log;
  Proc q = tuned_or(p, tiles, {.sizes = {{"N", 64}}, .database = path}, by_hand, &log);
  EXPECT_EQ(to_string(q), to_string(by_hand(p)));
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_NE(log.str().find("no tuning database at " + path), std::string::npos) << log.str();
}

TEST(TunedOr, ReadsTheDatabaseFromTheEnvironment) {
  const std::string path = fresh_path("tuned_env.sqlite");
  Proc p = parse_proc(kScale);
  {
    TuneDatabase db(path);
    db.record(db.workload(p, {{"N", 64}}, "test"), "tile=16", 1.0);
  }
  ::setenv("EXOCPP_TUNE_DB", path.c_str(), 1);
  std::ostringstream log;
  Proc q = tuned_or(p, tiles, {.sizes = {{"N", 64}}, .target = "test"}, by_hand, &log);
  ::unsetenv("EXOCPP_TUNE_DB");
  EXPECT_EQ(to_string(q), to_string(tiles(p, Choices::replay(parse_trace("tile=16")).ref())));
  // Unset: the given schedule, and nothing said.
  std::ostringstream quiet;
  EXPECT_EQ(
      to_string(tuned_or(p, tiles, {.sizes = {{"N", 64}}, .target = "test"}, by_hand, &quiet)),
      to_string(by_hand(p)));
  EXPECT_EQ(quiet.str(), "");
}

TEST(TunedOr, AFileThatIsNotADatabaseIsAnError) {
  const std::string path = fresh_path("tuned_junk.sqlite");
  { std::ofstream(path) << "not a database, but long enough to have a header of sorts......."; }
  Proc p = parse_proc(kScale);
  std::ostringstream log;
  EXPECT_THROW(tuned_or(p, tiles, {.sizes = {{"N", 64}}, .database = path}, by_hand, &log),
               SearchError);
}

}  // namespace
