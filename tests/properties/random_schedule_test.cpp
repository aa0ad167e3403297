// Randomized soundness test of the scheduling operations: random sequences of operations on
// random procs from the generator in tests/support/schedule_fuzz.h (configs read in bounds,
// windows, call arguments and indices; window statements; every precision, with values stored
// across them and literals of every kind; externs; 2-D locals whose windows' strides are
// observed; empty and negative ranges; calls with windows and stride preconditions; par loops,
// some racy; an access out of bounds for some sizes; DRAM_STATIC). Every accepted step is
// compared with its input in the interpreter, bit for bit, and must print/parse back to the same
// text; a refused step (SchedulingError) is fine; anything else is a bug. The final procs are
// compiled as C (in batches) and compared with the interpreter bit for bit; C emitted for a racy
// par loop or an out-of-bounds access is a failure.
//
// CI runs a fixed seed range (EXOCPP_RANDOM_SCHEDULE_N sets how many seeds; default below);
// scripts/soak.sh runs the same generator with fresh seeds for as long as asked.
#include <cstdlib>
#include <iostream>

#include "rewrites/rewrite_test_util.h"
#include "support/schedule_fuzz.h"

using namespace exocpp;

namespace {

int seeds() {
  const char* env = std::getenv("EXOCPP_RANDOM_SCHEDULE_N");
  if (env && std::atoi(env) > 0) return std::atoi(env);
  return 400;
}

TEST(RandomSchedule, AcceptedStepsPreserveResultsAndCompiledCodeAgrees) {
  ValidationScope off(false);  // each step is compared explicitly (validate_step)
  const fuzz::Options opts = fuzz::ci_options();  // exclusions: see there
  const int n = seeds();
  int accepted = 0, refused = 0, compiled = 0;
  std::vector<fuzz::Failure> failures;
  std::vector<std::pair<uint64_t, Proc>> pending;
  auto flush = [&] {
    for (const fuzz::Failure& f : fuzz::compile_and_compare(pending, &compiled))
      failures.push_back(f);
    pending.clear();
  };
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(n); ++seed) {
    fuzz::SeedResult r = fuzz::run_seed(seed, opts);
    accepted += r.accepted;
    refused += r.refused;
    for (const fuzz::Failure& f : r.failures) failures.push_back(f);
    if (r.failures.empty() && r.final_proc.defined() && r.accepted > 0)
      pending.emplace_back(seed, r.final_proc);
    if (pending.size() >= 40) flush();
  }
  flush();
  for (const fuzz::Failure& f : failures) ADD_FAILURE() << "seed " << f.seed << ": " << f.what;
  EXPECT_GT(accepted, n);  // the test exercises the operations, not only their refusals
  EXPECT_GT(compiled, n / 2);
  std::cout << "[ random schedule ] " << n << " seeds, " << accepted << " accepted steps compared, "
            << refused << " refused, " << compiled << " procs compiled and compared\n";
}

}  // namespace
