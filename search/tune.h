// Schedule search over a space (search/choices.h): candidates are built by running the space
// with drawn or mutated decisions, every candidate the scheduling operations accept is proved
// (each operation's checker obligations) and then checked once more against the plain proc in
// the interpreter and as compiled C, and only then timed. The search is evolutionary over traces:
// a first generation drawn at random, then mutations (one decision changed, the decisions it
// brings into being drawn) and crossovers of the fastest so far, with a share of fresh random
// traces. The same seed proposes the same candidates.
//
//   search::TuneOptions o;
//   o.sizes = {{"N", 512}};
//   o.trials = 40;
//   search::TuneResult r = search::tune(p, my_space, o);
//   std::cout << r.report();                     // best time, its trace, what was refused
//   Proc best = r.best;                          // = my_space(p, Choices::replay(r.best_trace))
//
// A refused step prunes its candidate and is counted by reason id (core/reasons.h); a solver
// time-out (ErrorCode::Unknown) is counted apart. A candidate that computes something else than
// the plain proc is a soundness bug: tune throws SoundnessError with the trace, and stops.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "core/ir.h"
#include "driver/driver.h"
#include "search/choices.h"
#include "search/database.h"

namespace exocpp::search {

// A schedule space: schedules `p`, asking `c` at every free parameter.
using Space = std::function<Proc(const Proc& p, Choices& c)>;

// How a candidate is timed: compiled with `compile`, run once to warm up, then repeatedly until
// the spread of the last `min_repeats` runs ((max - min) / median) is under `max_spread` or
// `max_repeats` runs were made; the median is kept.
struct MeasureOptions {
  CompileOptions compile{"cc", {"-O3", "-march=native"}, true};
  // Candidates of one batch are verified and compiled on this many threads at once (timed one
  // at a time after): the cores this machine has.
  int compile_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int min_repeats = 3;
  int max_repeats = 15;
  double max_spread = 0.05;
};

// Where a search stands after a timed candidate.
struct Progress {
  int trial = 0;            // candidates timed so far (the plain proc not counted)
  double seconds = 0;       // this candidate's median time
  double best_seconds = 0;  // the fastest so far (the plain proc included)
  double model_error = -1;  // TuneResult::model_error as it stands; -1 before the model chose
  double elapsed = 0;       // wall time since the search began
};

struct Candidate;

// Times candidates for tune(): by default each in this process, one after another (measure());
// search/mpi_timer.h times a batch on the ranks of an MPI job instead. Candidates reach a timer
// only after they were verified.
class CandidateTimer {
 public:
  virtual ~CandidateTimer() = default;
  // The median time of one call of each candidate of `batch` (its trace in the space being
  // searched and the proc it gave) at `sizes`, timed as `opts` says; in the batch's order.
  virtual std::vector<double> time(const std::vector<Candidate>& batch,
                                   const std::map<std::string, int64_t>& sizes,
                                   const MeasureOptions& opts) = 0;
};

struct TuneOptions {
  uint64_t seed = 1;
  int trials = 32;           // candidates timed (the plain proc not counted)
  double max_seconds = 600;  // wall-time budget; the search stops between candidates
  int population = 8;        // the first generation, and how many parents are kept
  int max_attempts = 0;      // candidates built (accepted or refused); 0: 20 * trials
  // Finalists within this fraction of the fastest in the side-by-side re-timing are a tie,
  // decided by the trace's text (the plain proc first), not by the noise between them.
  double tie_tolerance = 0.03;
  int final_candidates = 3;  // the fastest, timed again side by side with the plain proc (and
                             // the cost model's pick, TuneResult::model_pick_trace)
  // After the first generation, rounds guided by the cost model (search/cost_model.h): each
  // builds up to `proposals` new candidates and times the `timed_per_round` the model ranks
  // fastest, plus one of the others at random. Without the model every proposal is timed.
  bool cost_model = true;
  int proposals = 24;
  int timed_per_round = 3;
  // false: the plain proc is not timed (plain_seconds stays 0) and cannot be the pick, for a
  // proc far too slow to time at the tuning sizes (a plain GEMM at 2048 takes most of a minute).
  bool time_plain = true;
  std::map<std::string, int64_t> sizes;         // the sizes the candidates are timed at
  std::map<std::string, int64_t> verify_sizes;  // the sizes they are checked at (default: sizes)
  MeasureOptions measure{};
  // Where measurements are kept (search/database.h): a candidate whose trace the database
  // holds for this workload (the proc, `sizes`, `target`, this CPU) takes its stored time
  // instead of being timed again, and every new time is stored. With a database, the same seed
  // proposes the same candidates as the run that filled it.
  TuneDatabase* database = nullptr;
  std::string target = "plain";
  // Called after each timed candidate (for a progress line).
  std::function<void(const Progress&)> progress;
  // Who times the candidates (nullptr: this process, one at a time). The search hands it the
  // candidates of a generation or a model round together, so several can be timed at once.
  CandidateTimer* timer = nullptr;
};

struct Candidate {
  Trace trace;
  Proc proc;
  double seconds = 0;  // median time of one call
};

struct TuneResult {
  Proc plain;                // the input, timed as it is
  double plain_seconds = 0;  // 0 when TuneOptions::time_plain was false
  Proc best;                 // the fastest candidate (the plain proc when none was faster)
  Trace best_trace;          // empty when the plain proc won
  // The schedule calls the space recorded for the best candidate (Choices::note), as C++
  // statements on a proc `p`; empty when the space records none or the plain proc won.
  std::vector<std::string> best_script;
  double best_seconds = 0;
  std::vector<Candidate> timed;  // in the order they were timed
  int attempts = 0;              // candidates built
  int from_database = 0;         // of the timed, those whose time the database already held
  // The cost model's mean |log2 predicted - log2 measured| over the candidates of its last
  // round, before it learned their times; -1 when the model never chose.
  double model_error = -1;
  // The cost model's own pick at the end: retrained on every time, the candidate it ranks
  // fastest among those built and never timed, then verified and timed with the finalists (it
  // may be the best). Empty and 0 without the model or when every candidate built was timed.
  Trace model_pick_trace;
  double model_pick_seconds = 0;
  int duplicates = 0;                  // accepted candidates that printed like one already seen
  std::map<std::string, int> refused;  // refused candidates, by reason id
  int solver_unknown = 0;              // of those, refused because the checker could not decide

  // Best time and speed-up over the plain proc, the best trace, the refusals by reason.
  std::string report() const;
  // The best schedule as a C++ function a schedule script can keep: its recorded calls, or a
  // replay of its trace through the space when the space records none.
  std::string script(const std::string& space_name = "space") const;
};

// A candidate that computes another result than the plain proc.
class SoundnessError : public Error {
 public:
  SoundnessError(const std::string& trace, const std::string& difference);
};

// The median time of one call of `p` compiled as `opts` says, on random arguments of `sizes`.
double measure(const Proc& p, const std::map<std::string, int64_t>& sizes,
               const MeasureOptions& opts = {});
// The median time of each of `procs`, compiled on opts.compile_threads threads at once, then
// timed one after another, each as measure() times it.
std::vector<double> measure_batch(const std::vector<Proc>& procs,
                                  const std::map<std::string, int64_t>& sizes,
                                  const MeasureOptions& opts = {});
// Runs f(0) .. f(n - 1) on up to `threads` threads; the first exception (by index) is rethrown
// after all have run.
void parallel_for(size_t n, int threads, const std::function<void(size_t)>& f);
// The median times of `procs` (same arguments), timed in turn, one run of each per round, so
// that a change in the machine's state affects all alike.
std::vector<double> measure_side_by_side(const std::vector<Proc>& procs,
                                         const std::map<std::string, int64_t>& sizes,
                                         const MeasureOptions& opts = {});

// The index of the pick among re-timed finalists: of those within `tolerance` of the fastest
// (a fraction: 0.03 is 3%), the one whose trace's text sorts first (the plain proc's is empty),
// so that near-ties do not flip the pick from run to run.
size_t pick_among_ties(const std::vector<double>& seconds, const std::vector<Trace>& traces,
                       double tolerance);

// The median seconds of each of `runs` (already warmed up), called in turn, one call of each
// per round for `rounds` rounds: measure_side_by_side's timing, for contenders that are not
// procs (a peer library in a benchmark) beside ones that are.
std::vector<double> time_side_by_side(const std::vector<std::function<void()>>& runs, int rounds);

// "" when `candidate` computes what `plain` computes: in the interpreter on random arguments of
// `sizes`, and compiled, against the interpreter; otherwise the first difference.
std::string verify(const Proc& plain, const Proc& candidate,
                   const std::map<std::string, int64_t>& sizes, const CompileOptions& compile);

TuneResult tune(const Proc& p, const Space& space, const TuneOptions& opts = {});

}  // namespace exocpp::search
