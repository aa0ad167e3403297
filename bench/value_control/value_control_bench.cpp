// The value-dependent kernels (examples/value_control) against their peers, side by side in one
// run (i?amax and ?nrm2 are exoblas's: bench/blas/level1_bench.cpp): CSR sparse
// matrix times vector (f32, f64) against Eigen 3.4's row-major SparseMatrix on a banded, a
// uniform random and a power-law matrix of about 10^6 nonzeros, at one and two threads;
// block-sparse SGEMM against exocpp's dense SGEMM at 2048^3, one thread.
// Ratios > 1 mean exocpp is faster. Usage: value_control_bench [ROUNDS] [PART...], PART one of
// block_sparse, spmv (all when none is named), or c (print the spmv kernels' C).
#include <cblas.h>
#include <dlfcn.h>
#include <omp.h>

#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fma_peak.h"
#include "schedule.h"
#include "value_control_schedule.h"

extern "C" char* openblas_get_corename(void);

namespace {

using namespace exocpp;

CompileOptions native() { return CompileOptions{"cc", {"-O3", "-march=native"}, true}; }

template <class T>
std::vector<T> random_vector(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> d(-1, 1);
  std::vector<T> v(static_cast<size_t>(n));
  for (T& e : v) e = d(rng);
  return v;
}

ArgValue buffer_of(const std::vector<double>& v, ScalarKind k) {
  return Buffer::from_values(k, {static_cast<int64_t>(v.size())}, v);
}

// A CSR matrix of m rows and n columns.
struct Csr {
  std::string kind;
  int m = 0, n = 0;
  std::vector<int> rowptr, col;
};

Csr banded(int m, int half) {
  Csr a{"banded", m, m, {0}, {}};
  for (int i = 0; i < m; ++i) {
    for (int j = std::max(0, i - half); j <= std::min(m - 1, i + half); ++j) a.col.push_back(j);
    a.rowptr.push_back(static_cast<int>(a.col.size()));
  }
  return a;
}

Csr uniform(int m, int per_row, uint64_t seed) {
  Csr a{"uniform", m, m, {0}, {}};
  std::mt19937_64 rng(seed);
  for (int i = 0; i < m; ++i) {
    std::vector<int> cols;
    for (int k = 0; k < per_row; ++k) cols.push_back(static_cast<int>(rng() % uint64_t(m)));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    a.col.insert(a.col.end(), cols.begin(), cols.end());
    a.rowptr.push_back(static_cast<int>(a.col.size()));
  }
  return a;
}

// Row lengths from a power law (a few rows hold thousands of nonzeros, most hold a handful).
Csr power_law(int m, uint64_t seed) {
  Csr a{"power-law", m, m, {0}, {}};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < m; ++i) {
    const int len = std::min(m, static_cast<int>(2.0 / std::pow(1.0 - u(rng), 1.0 / 1.2)));
    std::vector<int> cols;
    for (int k = 0; k < len; ++k) cols.push_back(static_cast<int>(rng() % uint64_t(m)));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    a.col.insert(a.col.end(), cols.begin(), cols.end());
    a.rowptr.push_back(static_cast<int>(a.col.size()));
  }
  return a;
}

template <class T>
void spmv(const Csr& a, const std::string& name, ScalarKind elem, int rounds) {
  const int nnz = static_cast<int>(a.col.size());
  std::vector<T> val = random_vector<T>(nnz, 3), x = random_vector<T>(a.n, 5);
  CompiledLibrary lib({value_control::scheduled(name)}, "vcb_" + name, native());
  auto ints = [](const std::vector<int>& v) {
    return Buffer::from_values(ScalarKind::I32, {static_cast<int64_t>(v.size())},
                               std::vector<double>(v.begin(), v.end()));
  };
  std::vector<ArgValue> args = {int64_t(a.m),
                                int64_t(a.n),
                                int64_t(nnz),
                                ints(a.rowptr),
                                ints(a.col),
                                buffer_of(std::vector<double>(val.begin(), val.end()), elem),
                                buffer_of(std::vector<double>(x.begin(), x.end()), elem),
                                Buffer(elem, {a.m})};
  CompiledLibrary::PreparedCall call = lib.prepare(name, args);
  Eigen::Map<const Eigen::SparseMatrix<T, Eigen::RowMajor, int>> A(a.m, a.n, nnz, a.rowptr.data(),
                                                                   a.col.data(), val.data());
  Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> xv(x.data(), a.n);
  Eigen::Matrix<T, Eigen::Dynamic, 1> y(a.m);
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    Eigen::setNbThreads(threads);
    std::vector<std::function<void()>> runs = {[&] { call.run(); }, [&] { y.noalias() = A * xv; }};
    for (auto& f : runs) f();
    std::vector<double> s = search::time_side_by_side(runs, rounds);
    const double gf = 2.0 * nnz / 1e9;
    std::printf(
        "%-6s %-9s nnz = %-8d threads %d  exocpp %6.2f GFLOP/s  Eigen %6.2f GFLOP/s  "
        "ratio %.2fx\n",
        name.c_str(), a.kind.c_str(), nnz, threads, gf / s[0], gf / s[1], s[1] / s[0]);
  }
}

// Block-sparse SGEMM at 2048^3 against exocpp's dense SGEMM (examples/blas), one thread, with
// 0%, 50%, 75% and 90% of A's 16 x 64 tiles zero (chosen at random).
void block_sparse(int rounds) {
  const int64_t n = 2048;
  CompiledLibrary lib(
      {value_control::scheduled("bs_sgemm"), blas_example::schedule_gemm(blas_example::kSingle)},
      "vcb_bs", native());
  auto filled = [&](uint64_t seed) {
    std::vector<float> v = random_vector<float>(n * n, seed);
    return Buffer::from_values(ScalarKind::F32, {n, n}, std::vector<double>(v.begin(), v.end()));
  };
  Buffer A = filled(1), B = filled(2), C(ScalarKind::F32, {n, n});
  std::vector<ArgValue> dense_args = {n, n, n, A, B, C};
  CompiledLibrary::PreparedCall dense = lib.prepare("sgemm", dense_args);
  for (int zero_percent : {0, 50, 75, 90}) {
    Buffer mask(ScalarKind::I32, {n / 16, n / 64});
    std::mt19937_64 rng(3);
    for (int64_t i = 0; i < mask.num_elements(); ++i)
      mask.set_flat(i, int(rng() % 100) >= zero_percent ? 1 : 0);
    std::vector<ArgValue> args = {n / 16, n, n / 64, A, B, C, mask};
    CompiledLibrary::PreparedCall sparse = lib.prepare("bs_sgemm", args);
    std::vector<std::function<void()>> runs = {[&] { sparse.run(); }, [&] { dense.run(); }};
    for (auto& f : runs) f();
    std::vector<double> s = search::time_side_by_side(runs, rounds);
    const double gf = 2.0 * n * n * n / 1e9;
    std::printf(
        "bs_sgemm 2048^3 zero tiles %2d%%  %7.1f ms  dense %7.1f ms (%5.1f GFLOP/s)  "
        "ratio %.2fx\n",
        zero_percent, s[0] * 1e3, s[1] * 1e3, gf / s[1], s[1] / s[0]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  unpin_openblas(argv);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 11;
  std::printf("OpenBLAS kernel %s (OPENBLAS_CORETYPE %s); Eigen %d.%d.%d; %d rounds, medians\n",
              openblas_get_corename(),
              std::getenv("OPENBLAS_CORETYPE") ? std::getenv("OPENBLAS_CORETYPE") : "unset",
              EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, rounds);
  const std::vector<std::string> parts(argv + std::min(argc, 2), argv + argc);
  auto named = [&](const char* part) {
    return std::find(parts.begin(), parts.end(), part) != parts.end();
  };
  auto run = [&](const char* part) { return parts.empty() || named(part); };
  if (named("c"))  // the scheduled kernels' C, to read what the benchmark times
    for (const char* k : {"spmv_s", "spmv_d"})
      std::printf("%s\n", compile_procs_to_c({value_control::scheduled(k)}, k).source.c_str());
  openblas_set_num_threads(1);
  omp_set_num_threads(1);
  std::printf("one core's measured f32 FMA peak: %.1f GFLOP/s\n", fma_peak_gflops<F32Lanes>());
  if (run("block_sparse")) block_sparse(rounds);
  if (run("spmv"))
    for (const Csr& a : {banded(200000, 2), uniform(100000, 10, 1), power_law(150000, 2)}) {
      spmv<float>(a, "spmv_s", ScalarKind::F32, rounds);
      spmv<double>(a, "spmv_d", ScalarKind::F64, rounds);
    }
  return 0;
}
