// What the search's tests share (tests/search/ and tests/search/mpi/): a one-loop proc, a small
// space over it, quick tuning options and fresh scratch files. Each is defined here once.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "rewrites/rewrite_test_util.h"
#include "search/tune.h"

namespace exocpp::testing {

// B = 2 A over N elements: quick to build, check and time at any N.
inline const char* kScale = R"(def scale(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        B[i] = A[i] * 2.0
)";

// kScale's loop divided by a drawn tile (guarded) and its tile loop unrolled or not: 8
// candidates, every one accepted.
inline Proc guarded_tiles(const Proc& p, search::Choices& c) {
  int64_t t = c.pick_int("tile", {2, 4, 8, 16});
  Proc q = divide_loop(p, "i", t, {"io", "ii"}, {.tail = Tail::Guard});
  if (c.flip("unroll")) q = unroll_loop(q, "ii");
  return q;
}

// A short search over kScale: `trials` candidates, all in the first generation, timed at
// N = 1000 with few repeats, checked at N = 37.
inline search::TuneOptions quick(int trials, uint64_t seed) {
  search::TuneOptions o;
  o.seed = seed;
  o.trials = trials;
  o.population = trials;
  o.sizes = {{"N", 1000}};
  o.verify_sizes = {{"N", 37}};
  o.measure.min_repeats = 2;
  o.measure.max_repeats = 3;
  o.final_candidates = 2;
  return o;
}

// A path in the test's scratch folder with no file at it.
inline std::string fresh_path(const std::string& name) {
  std::string path = ::testing::TempDir() + name;
  std::remove(path.c_str());
  return path;
}

}  // namespace exocpp::testing
