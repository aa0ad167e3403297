// SGEMM at 1024 and 2048 and DGEMM at 1024 tuned on this machine from the generic GEMM space
// (examples/blas gemm_space: the K block, the panels per packed block of B, packing or not),
// then timed side by side with the hand schedule (its block sizes derived from the caches) and
// OpenBLAS's own kernel, one thread each, with this core's measured FMA peak beside them. Every
// candidate is proved by the scheduling operations and checked against the plain gemm in the
// interpreter and as compiled C before it is timed (search/tune.h).
//
//   build/bench/search/gemm_tune_bench [TRIALS [MINUTES_PER_WORKLOAD [DB]]]
//
// (defaults: 24 trials, 10 minutes; DB an SQLite file to resume from and record into). OpenBLAS
// runs at its best: the program drops OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE and runs itself
// again, and prints the kernel OpenBLAS chose.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "fma_peak.h"
#include "schedule.h"

using namespace exocpp;
using blas_example::Precision;

namespace {

using Clock = std::chrono::steady_clock;

// OpenBLAS's gemm on operands of its own (row-major, C += A B).
struct OpenBlasCall {
  const Precision& prec;
  int n;
  std::vector<float> fa, fb, fc;
  std::vector<double> da, db, dc;
  OpenBlasCall(const Precision& p, int size) : prec(p), n(size) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> d(-1, 1);
    const size_t e = size_t(n) * n;
    auto fill = [&](auto& v) {
      v.resize(e);
      for (auto& x : v) x = static_cast<std::decay_t<decltype(x)>>(d(rng));
    };
    if (prec.bytes == 4) {
      fill(fa), fill(fb), fill(fc);
    } else {
      fill(da), fill(db), fill(dc);
    }
  }
  void run() {
    if (prec.bytes == 4)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, fa.data(), n, fb.data(),
                  n, 1.0f, fc.data(), n);
    else
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, da.data(), n, db.data(),
                  n, 1.0, dc.data(), n);
  }
};

struct Row {
  std::string workload;
  double tuned, hand, openblas, peak;  // GFLOP/s, peak of one core
  double tune_seconds;
  int timed, attempts;
  std::string trace;
};

Row tune_one(const Precision& prec, int n, int trials, double minutes, search::TuneDatabase* db,
             double peak) {
  const Proc plain = blas_example::plain_gemm(prec);
  search::TuneOptions o;
  o.seed = 1;
  o.trials = trials;
  o.population = 8;
  o.max_seconds = minutes * 60;
  o.sizes = {{"M", n}, {"N", n}, {"K", n}};
  // Small, but past one K block of the smallest kc and with row and column tails.
  o.verify_sizes = {{"M", 13}, {"N", 70}, {"K", 130}};
  o.measure.max_repeats = 7;
  o.time_plain = false;  // the plain triple loop takes seconds to minutes at these sizes
  o.database = db;
  o.target = "examples/blas gemm_space";
  o.progress = [&](const search::Progress& at) {
    std::printf("  %s %d: trial %d: %.1f GFLOP/s (best %.1f)%s\n", prec.name("gemm").c_str(), n,
                at.trial, 2.0 * n * n * n / at.seconds / 1e9,
                2.0 * n * n * n / at.best_seconds / 1e9,
                at.model_error >= 0
                    ? (", model error " + std::to_string(at.model_error).substr(0, 4)).c_str()
                    : "");
    std::fflush(stdout);
  };
  const Clock::time_point t0 = Clock::now();
  search::TuneResult r = search::tune(
      plain,
      [&](const Proc& p, search::Choices& c) { return blas_example::gemm_space(prec, p, c); }, o);
  const double tune_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("%s\n%s\n", r.report().c_str(), r.script().c_str());

  // The tuned and the hand schedule compiled alike, OpenBLAS, in interleaved rounds.
  const Proc hand = blas_example::schedule_gemm(prec);
  std::vector<std::unique_ptr<CompiledLibrary>> libs;
  std::vector<CompiledLibrary::PreparedCall> calls;
  int k = 0;
  for (const Proc& p : {r.best, hand}) {
    libs.push_back(std::make_unique<CompiledLibrary>(
        std::vector<Proc>{p}, "gemm_tune_" + std::to_string(k++), o.measure.compile));
    calls.push_back(libs.back()->prepare(p.name(), random_args(p, o.sizes, 1)));
  }
  OpenBlasCall peer(prec, n);
  for (CompiledLibrary::PreparedCall& c : calls) c.run();  // warm-up (page faults, caches)
  peer.run();
  const std::vector<double> t = search::time_side_by_side(
      {[&] { calls[0].run(); }, [&] { calls[1].run(); }, [&] { peer.run(); }}, 10);
  const double flop = 2.0 * n * n * n / 1e9;
  return {prec.name("gemm") + " " + std::to_string(n),
          flop / t[0],
          flop / t[1],
          flop / t[2],
          peak,
          tune_seconds,
          static_cast<int>(r.timed.size()),
          r.attempts,
          r.best_trace.to_string()};
}

}  // namespace

int main(int argc, char** argv) {
  unpin_openblas(argv);
  openblas_set_num_threads(1);
  const int trials = argc > 1 ? std::atoi(argv[1]) : 24;
  const double minutes = argc > 2 ? std::atof(argv[2]) : 10;
  std::unique_ptr<search::TuneDatabase> db;
  if (argc > 3) db = std::make_unique<search::TuneDatabase>(argv[3]);
  if (!__builtin_cpu_supports("avx512f")) {
    std::printf("gemm_tune_bench: the GEMM schedule is AVX-512; this CPU has none\n");
    return 0;
  }
  std::printf("CPU: %s\nOpenBLAS kernel %s; OPENBLAS_CORETYPE %s\n", search::cpu_model().c_str(),
              openblas_get_corename(),
              std::getenv("OPENBLAS_CORETYPE") ? std::getenv("OPENBLAS_CORETYPE") : "unset");
  const double peak32 = fma_peak_gflops<F32Lanes>(), peak64 = fma_peak_gflops<F64Lanes>();
  std::printf("measured peak of one core: f32 FMA %.1f GFLOP/s, f64 FMA %.1f GFLOP/s\n", peak32,
              peak64);
  std::vector<Row> rows;
  rows.push_back(tune_one(blas_example::kSingle, 1024, trials, minutes, db.get(), peak32));
  rows.push_back(tune_one(blas_example::kSingle, 2048, trials, minutes, db.get(), peak32));
  rows.push_back(tune_one(blas_example::kDouble, 1024, trials, minutes, db.get(), peak64));
  std::printf("\n%-11s %8s %8s %9s %7s %9s %9s %7s %6s  %s\n", "workload", "tuned", "hand",
              "OpenBLAS", "% peak", "/OpenBLAS", "/hand", "tune s", "timed", "trace");
  for (const Row& r : rows)
    std::printf("%-11s %8.1f %8.1f %9.1f %6.0f%% %9.2f %9.2f %7.0f %6d  %s\n", r.workload.c_str(),
                r.tuned, r.hand, r.openblas, 100 * r.tuned / r.peak, r.tuned / r.openblas,
                r.tuned / r.hand, r.tune_seconds, r.timed, r.trace.c_str());
  std::printf("(GFLOP/s, medians of 10 interleaved rounds after one warm-up, one thread)\n");
  return 0;
}
