// The tuner (search/tune.h): every timed candidate is verified, refused candidates are pruned and
// counted by reason, a seed proposes the same candidates, the best replays from its trace, and a
// candidate that computes something else stops the search.
#include "search/tune.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "search/search_fixtures.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

// Tile sizes, and the tail strategy: `perfect` needs N divisible by the tile, which nothing
// proves here, so every candidate choosing it is refused.
Proc tiles(const Proc& p, Choices& c) {
  int64_t t = c.pick_int("tile", {2, 4, 8, 16});
  std::string tail = c.pick("tail", {"guard", "cut", "perfect"});
  DivideLoopOptions o;
  o.tail = tail == "cut" ? Tail::Cut : Tail::Guard;
  o.perfect = tail == "perfect";
  Proc q = divide_loop(p, "i", t, {"io", "ii"}, o);
  if (c.flip("unroll")) q = unroll_loop(q, "ii");
  return q;
}

TEST(Tune, RefusedCandidatesArePrunedAndCountedByReason) {
  Proc p = parse_proc(kScale);
  TuneResult r = tune(p, tiles, quick(6, 5));
  int refused = 0;
  for (const auto& [id, n] : r.refused) refused += n;
  EXPECT_GT(r.refused.count("checker.refuted") + r.refused.count("checker.not_proved"), 0u)
      << r.report();
  EXPECT_EQ(r.attempts, static_cast<int>(r.timed.size()) + refused + r.duplicates) << r.report();
  for (const Candidate& c : r.timed) EXPECT_NE(c.trace.find("tail")->value(), "perfect");
}

TEST(Tune, TheBestReplaysFromItsTrace) {
  Proc p = parse_proc(kScale);
  TuneResult r = tune(p, tiles, quick(4, 5));
  if (r.best_trace.decisions.empty()) {
    EXPECT_EQ(to_string(r.best), to_string(p));
  } else {
    Choices c = Choices::replay(r.best_trace);
    EXPECT_EQ(to_string(tiles(p, c)), to_string(r.best));
  }
  EXPECT_GT(r.plain_seconds, 0);
  EXPECT_GT(r.best_seconds, 0);
}

TEST(Tune, TheSameSeedProposesTheSameCandidates) {
  Proc p = parse_proc(kScale);
  TuneResult a = tune(p, tiles, quick(4, 5)), b = tune(p, tiles, quick(4, 5));
  ASSERT_EQ(a.timed.size(), b.timed.size());
  for (size_t i = 0; i < a.timed.size(); ++i) EXPECT_EQ(a.timed[i].trace, b.timed[i].trace);
  EXPECT_EQ(a.refused, b.refused);
}

TEST(Tune, ACandidateThatComputesSomethingElseStopsTheSearch) {
  Proc p = parse_proc(kScale);
  // Not a schedule: a space that swaps in another computation (as a bug in an operation would).
  Space wrong = [](const Proc&, Choices& c) {
    c.flip("x");
    return parse_proc(R"(def scale(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        B[i] = A[i] * 3.0
)");
  };
  try {
    tune(p, wrong, quick(2, 5));
    ADD_FAILURE() << "the wrong candidate was accepted";
  } catch (const SoundnessError& e) {
    EXPECT_NE(std::string(e.what()).find("trace: x="), std::string::npos) << e.what();
  }
}

TEST(Tune, TheModelChoosesWhatToTimeAfterTheFirstGeneration) {
  Proc p = parse_proc(kScale);
  TuneOptions o = quick(5, 5);
  o.population = 2;
  o.proposals = 6;
  o.timed_per_round = 1;
  TuneResult r = tune(p, tiles, o);
  EXPECT_EQ(r.timed.size(), 5u) << r.report();
  EXPECT_GT(r.attempts, 5) << r.report();  // built more than it timed
  EXPECT_GE(r.model_error, 0) << r.report();
}

TEST(Tune, TheModelsOwnPickIsTimedWithTheFinalists) {
  Proc p = parse_proc(kScale);
  TuneOptions o = quick(4, 5);
  o.population = 2;
  o.proposals = 8;
  o.timed_per_round = 1;
  TuneResult r = tune(p, tiles, o);
  ASSERT_FALSE(r.model_pick_trace.decisions.empty()) << r.report();
  EXPECT_GT(r.model_pick_seconds, 0);
  for (const Candidate& c : r.timed) EXPECT_NE(c.trace, r.model_pick_trace);  // never timed before
  EXPECT_NE(r.report().find("cost model's pick"), std::string::npos) << r.report();
}

TEST(Tune, WithoutTheModelEveryProposalIsTimed) {
  Proc p = parse_proc(kScale);
  TuneOptions o = quick(5, 5);
  o.population = 2;
  o.cost_model = false;
  TuneResult r = tune(p, tiles, o);
  int refused = 0;
  for (const auto& [id, n] : r.refused) refused += n;
  EXPECT_EQ(r.attempts, static_cast<int>(r.timed.size()) + refused + r.duplicates);
  EXPECT_EQ(r.model_error, -1);
}

TEST(Tune, APlainProcNotTimedIsNeverThePick) {
  Proc p = parse_proc(kScale);
  TuneOptions o = quick(2, 5);
  o.time_plain = false;
  TuneResult r = tune(p, tiles, o);
  EXPECT_EQ(r.plain_seconds, 0);
  ASSERT_FALSE(r.timed.empty());
  EXPECT_FALSE(r.best_trace.decisions.empty()) << r.report();
  EXPECT_NE(r.report().find("plain not timed"), std::string::npos) << r.report();
}

TEST(Tune, ParallelForRunsEveryIndexAndRethrowsTheFirstError) {
  std::vector<int> seen(40, 0);
  parallel_for(seen.size(), 3, [&](size_t i) { seen[i] += 1; });
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 40);
  try {
    parallel_for(10, 2, [](size_t i) {
      if (i == 3 || i == 7) throw std::runtime_error("index " + std::to_string(i));
    });
    ADD_FAILURE() << "no error rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "index 3");
  }
}

TEST(Tune, ABatchIsCompiledTogetherAndEachProcTimed) {
  Proc p = parse_proc(kScale);
  std::vector<Proc> procs = {p, divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Guard})};
  MeasureOptions m;
  m.min_repeats = 2;
  m.max_repeats = 3;
  m.compile_threads = 2;
  std::vector<double> t = measure_batch(procs, {{"N", 100}}, m);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_GT(t[0], 0);
  EXPECT_GT(t[1], 0);
}

TEST(Tune, NearTiesArePickedByTraceNotByNoise) {
  const Trace a{{{"tile", {"2", "4"}, 0}}}, b{{{"tile", {"2", "4"}, 1}}};
  // b is 2% faster: a tie at 3%, decided by the text ("tile=2" sorts first); not at 1%.
  EXPECT_EQ(pick_among_ties({1.0, 0.98}, {a, b}, 0.03), 0u);
  EXPECT_EQ(pick_among_ties({1.0, 0.98}, {a, b}, 0.01), 1u);
  // The plain proc (an empty trace) wins a tie.
  EXPECT_EQ(pick_among_ties({0.99, 1.0}, {b, Trace{}}, 0.03), 1u);
}

TEST(Tune, AProgressCallbackSeesEachTimedCandidate) {
  Proc p = parse_proc(kScale);
  TuneOptions o = quick(3, 5);
  int calls = 0;
  o.progress = [&](const Progress& at) {
    EXPECT_EQ(at.trial, ++calls);
    EXPECT_GT(at.best_seconds, 0);
    EXPECT_LE(at.best_seconds, at.seconds);
  };
  TuneResult r = tune(p, tiles, o);
  EXPECT_EQ(calls, static_cast<int>(r.timed.size()));
}

}  // namespace
