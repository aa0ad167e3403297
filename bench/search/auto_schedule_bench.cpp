// auto_schedule on kernels nobody in the project scheduled by hand: a batched small matmul, a
// 1-D convolution and attention scores (Q K^T). For each, the plain proc's C (-O3
// -march=native) and the best schedule auto_schedule finds are timed side by side in one run
// (TuneResult's final re-timing), and the ratio is printed with the schedule found, with the
// cost model's own pick (the candidate it ranks fastest among those never timed) against the
// best. With RUNS > 1 the search runs that many times with the same seed, and the program says
// whether every run picked the same schedule.
//
//   build/bench/search/auto_schedule_bench [TRIALS] [SEED] [RUNS]   (default 40 trials, seed 1,
//                                                                    one run)
#include <exocpp/exocpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "hwlibs/x86/x86.h"

namespace {

struct Kernel {
  const char* name;
  const char* source;
  std::map<std::string, int64_t> sizes, verify_sizes;
};

const Kernel kKernels[] = {
    {"bmm",
     R"(def bmm(B: size, A: f32[B, 16, 16] @ DRAM, X: f32[B, 16, 16] @ DRAM, Y: f32[B, 16, 16] @ DRAM):
    for b in seq(0, B):
        for i in seq(0, 16):
            for j in seq(0, 16):
                for k in seq(0, 16):
                    Y[b, i, j] += A[b, i, k] * X[b, k, j]
)",
     {{"B", 2048}},
     {{"B", 3}}},
    {"conv1d",
     R"(def conv1d(N: size, x: f32[N + 15] @ DRAM, w: f32[16] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        for k in seq(0, 16):
            y[i] += w[k] * x[i + k]
)",
     {{"N", 1 << 18}},
     {{"N", 37}}},
    {"scores",
     R"(def scores(S: size, Q: f32[S, 64] @ DRAM, K: f32[S, 64] @ DRAM, P: f32[S, S] @ DRAM):
    for i in seq(0, S):
        for j in seq(0, S):
            for d in seq(0, 64):
                P[i, j] += Q[i, d] * K[j, d]
)",
     {{"S", 512}},
     {{"S", 9}}},
};

}  // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 40;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  const int runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
  std::cout << "auto_schedule, " << trials << " trials, seed " << seed << ", " << runs
            << " run(s), vector memory " << exocpp::x86::sketch_options().vector_memory << ", CPU "
            << exocpp::search::cpu_model() << "\n";
  for (const Kernel& k : kKernels) {
    exocpp::ParseOptions po;
    exocpp::Proc p = exocpp::parse_module(k.source, po).procs.back();
    exocpp::search::TuneOptions o;
    o.seed = seed;
    o.trials = trials;
    o.sizes = k.sizes;
    o.verify_sizes = k.verify_sizes;
    std::vector<std::string> picks;
    for (int run = 0; run < runs; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      exocpp::search::TuneResult r =
          exocpp::search::auto_schedule(p, exocpp::x86::sketch_options(), o);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%-8s plain %9.3f ms  auto_schedule %9.3f ms  %6.2fx  (search %.0f s)", k.name,
                  r.plain_seconds * 1e3, r.best_seconds * 1e3, r.plain_seconds / r.best_seconds, s);
      if (r.model_pick_seconds > 0)
        std::printf("  model's pick %.2f of the best's speed",
                    r.best_seconds / r.model_pick_seconds);
      std::printf("\n");
      std::cout << r.report() << "\n" << r.script() << "\n";
      picks.push_back(r.best_trace.to_string());
    }
    if (runs > 1) {
      const bool same = std::all_of(picks.begin(), picks.end(),
                                    [&](const std::string& t) { return t == picks[0]; });
      std::printf("%-8s %d runs with seed %llu: %s\n", k.name, runs,
                  static_cast<unsigned long long>(seed),
                  same ? "the same pick every time" : "the picks differ");
      if (!same)
        for (const std::string& t : picks) std::printf("  pick: %s\n", t.c_str());
    }
  }
  return 0;
}
