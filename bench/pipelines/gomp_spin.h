// What the pipeline benchmarks (pipelines_bench, pipelines_auto_bench) share about OpenMP beside
// Halide's thread pool. Header-only, for benchmark programs.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// OpenMP's workers (exocpp's parallel loops) spin for about 300000 pauses, milliseconds here,
// after each parallel loop before they sleep: long enough to take a core from Halide's threads
// in the runs that follow. libgomp reads its settings when it loads, so the program sets a
// short spin (10000, a few tens of microseconds: still no sleep between back-to-back calls) and
// runs itself again, unless the caller set one. Returns only when GOMP_SPINCOUNT is set (or the
// re-run failed, which it reports).
void rerun_with_short_gomp_spin(char** argv, const std::string& program) {
  if (std::getenv("GOMP_SPINCOUNT")) return;
  setenv("GOMP_SPINCOUNT", "10000", 1);
  execv("/proc/self/exe", argv);
  std::perror((program + ": re-running with GOMP_SPINCOUNT set").c_str());
}

}  // namespace
