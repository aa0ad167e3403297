// The MPI measurement workers (search/mpi/mpi_timer.h), run as `mpirun -np 2`: rank 0 searches,
// rank 1 times. What is tested is the protocol and the results, not the speed: every candidate is
// timed by the worker, the search proposes what it proposes without workers, and a worker's error
// or a replay that builds another proc reaches rank 0 naming the rank and the trace, with the
// worker stopped (no rank left waiting: the next test runs).
#include "search/mpi/mpi_timer.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>

#include "search/search_fixtures.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

TEST(MpiTimer, TheWorkerTimesEveryCandidate) {
  Proc p = parse_proc(kScale);
  MpiTimer timer(p, guarded_tiles);
  if (timer.rank() != 0) return timer.serve();
  TuneOptions o = quick(4, 3);
  o.timer = &timer;
  TuneResult r = tune(p, guarded_tiles, o);
  timer.stop();
  ASSERT_EQ(r.timed.size(), 4u) << r.report();
  EXPECT_EQ(timer.timed_by_rank()[0], 0);
  EXPECT_EQ(timer.timed_by_rank()[1], 4);
  for (const Candidate& c : r.timed) EXPECT_GT(c.seconds, 0) << c.trace.to_string();
}

TEST(MpiTimer, TheSearchProposesWhatItProposesWithoutWorkers) {
  Proc p = parse_proc(kScale);
  const TuneOptions o = quick(3, 3);
  std::optional<TuneResult> remote = tune_with_mpi(p, guarded_tiles, o);
  if (world_rank() != 0) {
    EXPECT_FALSE(remote.has_value());
    return;
  }
  ASSERT_TRUE(remote.has_value());
  TuneResult local = tune(p, guarded_tiles, o);
  ASSERT_EQ(remote->timed.size(), local.timed.size());
  for (size_t i = 0; i < local.timed.size(); ++i)
    EXPECT_EQ(remote->timed[i].trace, local.timed[i].trace);
}

TEST(MpiTimer, AWorkersErrorReachesRankZeroNamingTheRankAndTheTrace) {
  Proc p = parse_proc(kScale);
  Space fails_on_workers = [](const Proc& q, Choices& c) {
    Proc t = guarded_tiles(q, c);
    if (world_rank() != 0) throw SearchError("this space builds on rank 0 only");
    return t;
  };
  if (world_rank() != 0) {
    EXPECT_FALSE(tune_with_mpi(p, fails_on_workers, quick(2, 3)).has_value());
    return;
  }
  try {
    tune_with_mpi(p, fails_on_workers, quick(2, 3));
    ADD_FAILURE() << "the worker's error did not reach rank 0";
  } catch (const SearchError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("rank 1, trace tile="), std::string::npos) << m;
    EXPECT_NE(m.find("this space builds on rank 0 only"), std::string::npos) << m;
  }
}

TEST(MpiTimer, AReplayThatBuildsAnotherProcIsAnError) {
  Proc p = parse_proc(kScale);
  Space differs_on_workers = [](const Proc& q, Choices& c) {
    Proc t = guarded_tiles(q, c);
    return world_rank() == 0 ? t : simplify(rename(t, "scale_elsewhere"));
  };
  if (world_rank() != 0) {
    EXPECT_FALSE(tune_with_mpi(p, differs_on_workers, quick(2, 3)).has_value());
    return;
  }
  try {
    tune_with_mpi(p, differs_on_workers, quick(2, 3));
    ADD_FAILURE() << "a replay into another proc was accepted";
  } catch (const SearchError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("replayed into another proc than rank 0 built"), std::string::npos) << m;
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    std::fprintf(stderr, "mpi_timer_tests: run as `mpirun -np 2 mpi_timer_tests` (got %d ranks)\n",
                 size);
    MPI_Finalize();
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  // Only rank 0 prints the results; rank 1's failures still fail the run through its status.
  if (world_rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int status = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
