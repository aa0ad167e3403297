// Measurement workers on the ranks of an MPI job (OpenMPI, Debian's libopenmpi-dev): rank 0
// searches, the other ranks compile and time the candidates it hands out. Every rank runs the
// same program (SPMD), so a candidate travels as its trace: a worker replays the trace through
// the same space on the same proc, checks that it built the proc rank 0 built (by its printed
// form), compiles it and times it as measure() does, and returns the time. Verification (the
// interpreter and the compiled output against the plain proc) stays on rank 0, before a
// candidate is handed out. Ranks should run on identical machines, one per machine: the times
// are compared with each other.
//
//   MPI_Init(&argc, &argv);
//   std::optional<search::TuneResult> r = search::tune_with_mpi(p, space, options);
//   if (r) std::cout << r->report();   // rank 0; the workers get nullopt when the search ends
//   MPI_Finalize();
//
//   mpirun -np 5 ./my_tuner            # one searcher, four timers
//
// Protocol (tags on MPI_COMM_WORLD or the given communicator, text payloads):
//   work   0 -> k  "id\nsizes\nmin_repeats max_repeats max_spread in_process\ncompiler\n
//                   flags, tab-separated\ntrace"
//   result k -> 0  "id\nseconds\nfingerprint of the printed proc\nerror ('' when none)"
//   stop   0 -> k  ""  (sent when the search ends, also when it ends in an error)
// A worker's error (a trace that does not replay there, a compiler failure) or a fingerprint
// that differs is a SearchError on rank 0 naming the rank and the trace; the other workers are
// stopped first, so no rank is left waiting.
#pragma once

#include <mpi.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "search/tune.h"

namespace exocpp::search {

class MpiTimer : public CandidateTimer {
 public:
  // `p` and `space` as tune() gets them; every rank constructs the timer alike.
  MpiTimer(const Proc& p, Space space, MPI_Comm comm = MPI_COMM_WORLD);
  // On rank 0, stops the workers if stop() was not called.
  ~MpiTimer() override;
  MpiTimer(const MpiTimer&) = delete;
  MpiTimer& operator=(const MpiTimer&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Rank 0: times the batch on the workers, a candidate per free worker (in this process when
  // the job has one rank).
  std::vector<double> time(const std::vector<Candidate>& batch,
                           const std::map<std::string, int64_t>& sizes,
                           const MeasureOptions& opts) override;
  // Rank 0: ends every worker's serve().
  void stop();
  // The other ranks: times what rank 0 sends until it sends stop.
  void serve();

  // Rank 0: candidates each rank timed so far (index = rank).
  const std::vector<int>& timed_by_rank() const { return timed_by_rank_; }

 private:
  Proc p_;
  Space space_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  bool stopped_ = false;
  std::vector<int> timed_by_rank_;
};

// tune(p, space, opts) with the ranks of `comm` timing: call it on every rank. Rank 0 returns
// the result; the others time candidates until the search ends and return nullopt. An error on
// rank 0 (a refused search, a worker's error) is thrown there after the workers were stopped.
std::optional<TuneResult> tune_with_mpi(const Proc& p, const Space& space, const TuneOptions& opts,
                                        MPI_Comm comm = MPI_COMM_WORLD);

}  // namespace exocpp::search
