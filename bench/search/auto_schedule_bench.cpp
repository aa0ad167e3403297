// auto_schedule on kernels nobody in the project scheduled by hand: a batched small matmul, a
// 1-D convolution and attention scores (Q K^T). For each, the plain proc's C (-O3
// -march=native) and the best schedule auto_schedule finds are timed side by side in one run
// (TuneResult's final re-timing), and the ratio is printed with the schedule found.
//
//   build/bench/search/auto_schedule_bench [TRIALS] [SEED]      (default 40 trials, seed 1)
#include <exocpp/exocpp.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

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
  std::cout << "auto_schedule, " << trials << " trials, seed " << seed << ", vector memory "
            << exocpp::x86::sketch_options().vector_memory << "\n";
  for (const Kernel& k : kKernels) {
    exocpp::ParseOptions po;
    exocpp::Proc p = exocpp::parse_module(k.source, po).procs.back();
    exocpp::search::TuneOptions o;
    o.seed = seed;
    o.trials = trials;
    o.sizes = k.sizes;
    o.verify_sizes = k.verify_sizes;
    exocpp::search::TuneResult r =
        exocpp::search::auto_schedule(p, exocpp::x86::sketch_options(), o);
    std::printf("%-8s plain %9.3f ms  auto_schedule %9.3f ms  %6.2fx\n", k.name,
                r.plain_seconds * 1e3, r.best_seconds * 1e3, r.plain_seconds / r.best_seconds);
    std::cout << r.report() << "\n" << r.script() << "\n";
  }
  return 0;
}
