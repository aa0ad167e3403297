// Level-2 BLAS side by side: the level-2 routines of the product library exoblas (blas/,
// libexoblas.so) against OpenBLAS through the CBLAS interface, in f32 (s) and f64 (d),
// column-major, unit increments, square n x n at n = 256, 1024 and 4096, alpha 0.5 (its sign
// alternating call by call in the rank updates, so that A stays bounded), beta 1.5, one thread:
// gemv (NoTrans, Trans), ger, symv (Upper), syr, syr2 (Upper), trmv and trsv (Upper/NoTrans and
// Lower/Trans, NonUnit), gbmv (kl = ku = 8), sbmv (Upper, k = 8), tbmv and tbsv (k = 8, both
// triangles as trmv), spmv, spr (Upper), tpmv and tpsv (both triangles as trmv). Both libraries
// export the same cblas_* names, so neither is linked: each is dlopen'd with RTLD_LOCAL |
// RTLD_DEEPBIND and called through pointers dlsym finds in it (blas_bench_common.h).
//
// Each figure is GB/s of the matrix elements the routine touches, each counted once (read, or
// read and updated: n^2 for gemv and ger, n (n + 1) / 2 for the symmetric, triangular and
// packed ones, the band's elements for the banded ones), plus n elements for each vector read
// and each written: 3n (x read, y read and written) for gemv, symv, gbmv, sbmv and spmv; 2n (x
// read and written) for the triangular ones; 2n (x, y read) for ger and syr2; 1n for syr, spr.
//
// The triangular matrices are diagonally dominant (diagonal about 2, each row's and column's
// other elements summing to at most 1) so that trsv is well conditioned; the other matrices and
// the vectors are uniform in [-1, 1). The vector a routine writes (y = 0.5 A x + 1.5 y, x = A x,
// x = A^-1 x) is put back every 16 calls, in both contenders alike, so it neither overflows nor
// sinks into subnormals.
//
// The peer runs at its best as in level1_bench: OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are
// dropped (fma_peak.h), OpenBLAS runs on one thread, and the kernel it chose is printed. Each
// case first runs once in both libraries on the same inputs, and the vector written (the matrix,
// for ger, syr, syr2 and spr) must agree within 1e-3 (f32) or 1e-9 (f64) of its largest
// magnitude in OpenBLAS, or the program aborts; then the contenders alternate batch by batch
// (A B, B A, ...), each batch about --batch_ms long, --reps pairs. The table gives each one's
// median, the median of the pairs' ratios, the cache level the counted bytes fit in and this
// core's load peak there (measured before the cases and after them).
//
// Run (one command line; EXOBLAS_LIBRARY=PATH in the environment replaces the built library):
//   build/bench/blas/level2_bench --reps=41 --batch_ms=1 [--filter=SUBSTRING, e.g. dgemv_n/4096]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "blas_bench_common.h"

namespace {

// CBLAS's enumerators (cblas.h), passed as the ints they are.
enum : int {
  kColMajor = 102,
  kNoTrans = 111,
  kTrans = 112,
  kUpper = 121,
  kLower = 122,
  kNonUnit = 131,
};

// One library's level-2 routines at precision T, with CBLAS's signatures.
template <typename T>
struct Blas2 {
  void (*gemv)(int, int, int, int, T, const T*, int, const T*, int, T, T*, int);
  void (*gbmv)(int, int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);
  void (*symv)(int, int, int, T, const T*, int, const T*, int, T, T*, int);
  void (*sbmv)(int, int, int, int, T, const T*, int, const T*, int, T, T*, int);
  void (*spmv)(int, int, int, T, const T*, const T*, int, T, T*, int);
  void (*trmv)(int, int, int, int, int, const T*, int, T*, int);
  void (*trsv)(int, int, int, int, int, const T*, int, T*, int);
  void (*tbmv)(int, int, int, int, int, int, const T*, int, T*, int);
  void (*tbsv)(int, int, int, int, int, int, const T*, int, T*, int);
  void (*tpmv)(int, int, int, int, int, const T*, T*, int);
  void (*tpsv)(int, int, int, int, int, const T*, T*, int);
  void (*ger)(int, int, int, T, const T*, int, const T*, int, T*, int);
  void (*syr)(int, int, int, T, const T*, int, T*, int);
  void (*syr2)(int, int, int, T, const T*, int, const T*, int, T*, int);
  void (*spr)(int, int, int, T, const T*, int, T*);
};

template <typename T>
Blas2<T> resolve(const Library& lib) {
  const std::string p = std::is_same_v<T, float> ? "s" : "d";
  Blas2<T> b;
  auto get = [&](const std::string& name, auto& fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(lib.sym("cblas_" + p + name));
  };
  get("gemv", b.gemv), get("gbmv", b.gbmv), get("symv", b.symv), get("sbmv", b.sbmv);
  get("spmv", b.spmv), get("trmv", b.trmv), get("trsv", b.trsv), get("tbmv", b.tbmv);
  get("tbsv", b.tbsv), get("tpmv", b.tpmv), get("tpsv", b.tpsv), get("ger", b.ger);
  get("syr", b.syr), get("syr2", b.syr2), get("spr", b.spr);
  return b;
}

const long kSizes[] = {256, 1024, 4096};
const long kMaxN = 4096;
const int kBand = 8;      // gbmv's kl and ku, sbmv's, tbmv's and tbsv's k
const int kRestore = 16;  // calls between restores of the vector written

// Uniform in [-1, 1) from the index alone (splitmix64): any matrix is filled again, the same,
// in a fraction of the time a std:: engine takes.
double uniform(uint64_t i) {
  uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e5dull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1p-52 - 1;
}

// The matrix (n x n at most: full, packed and banded storage all fit), x and y, and the values
// x and y are put back to, shared by both contenders.
template <typename T>
struct Store {
  const std::vector<T*> m = arrays<T>(size_t(kMaxN) * kMaxN, 1);
  const std::vector<T*> v = arrays<T>(kMaxN, 4);
  T *a = m[0], *x = v[0], *y = v[1], *x0 = v[2], *y0 = v[3];
  Store() {
    for (long i = 0; i < kMaxN; ++i) x0[i] = T(uniform(2 * i)), y0[i] = T(uniform(2 * i + 1));
  }
  ~Store() { std::free(a), std::free(x); }
  // The first `count` elements of the matrix uniform in [-scale, scale), and x and y back.
  void fill(long n, long count, double scale) {
    for (long i = 0; i < count; ++i) a[i] = T(scale * uniform(uint64_t(i) + (1ull << 40)));
    std::memcpy(x, x0, n * sizeof(T)), std::memcpy(y, y0, n * sizeof(T));
  }
};

// How a case's matrix is stored and filled.
enum class Kind { kFull, kFullTri, kPacked, kPackedTri, kBand, kBandTri };

template <typename T>
void prepare(Store<T>& s, Kind kind, int uplo, long n) {
  const long k = kBand, packed = n * (n + 1) / 2;
  auto dominant = [&](long i) { s.a[i] += T(2); };  // the other elements sum to 1 at most
  switch (kind) {
    case Kind::kFull:
      return s.fill(n, n * n, 1);
    case Kind::kFullTri:
      s.fill(n, n * n, 1.0 / double(n - 1));
      for (long j = 0; j < n; ++j) dominant(j * n + j);
      return;
    case Kind::kPacked:
      return s.fill(n, packed, 1);
    case Kind::kPackedTri:
      s.fill(n, packed, 1.0 / double(n - 1));
      for (long j = 0; j < n; ++j)
        dominant(uplo == kUpper ? j * (j + 3) / 2 : j * n - j * (j - 1) / 2);
      return;
    case Kind::kBand:  // gbmv's 2k + 1 rows, or sbmv's k + 1: all fit in 2k + 1
      return s.fill(n, (2 * k + 1) * n, 1);
    case Kind::kBandTri:
      s.fill(n, (k + 1) * n, 1.0 / double(k));
      for (long j = 0; j < n; ++j) dominant(j * (k + 1) + (uplo == kUpper ? k : 0));
      return;
  }
}

struct Case {
  std::string routine, name;  // "gemv_n", "sgemv_n/256"
  int order;                  // the routine's place in the table
  char prec;
  long n;
  double bytes;  // counted a call
  std::function<void()> check;
  std::function<double(int who, long count)> run;  // `count` calls by contender `who`
  Timing t;
};

// Calls so far, the k each call gets: the restores every kRestore calls and the rank updates'
// alternating alpha go on from one batch to the next.
long g_calls = 0;

// The elements a band of kl subdiagonals and ku superdiagonals holds in an n x n matrix.
long band_elements(long n, long kl, long ku) {
  long e = 0;
  for (long j = 0; j < n; ++j) e += std::min(n - 1, j + kl) - std::max(0L, j - ku) + 1;
  return e;
}

template <typename T>
void add_cases(std::vector<Case>& cases, long n, Store<T>& s, const Blas2<T>* lib) {
  const char p = std::is_same_v<T, float> ? 's' : 'd';
  const double rel = p == 's' ? 1e-3 : 1e-9;
  const int m = int(n), k = kBand, kb = k + 1, kg = 2 * k + 1;
  const T alpha = T(0.5), beta = T(1.5);
  T *a = s.a, *x = s.x, *y = s.y, *x0 = s.x0, *y0 = s.y0;
  const long full = n * n, tri = n * (n + 1) / 2, gband = band_elements(n, k, k),
             tband = band_elements(n, 0, k);
  int order = 0;
  // out: 'y' (the vector written, put back every kRestore calls), 'x' (likewise) or 'a' (the
  // matrix: a rank update, alpha's sign alternating); elements: the matrix elements counted,
  // vectors: the vectors of n counted; stored: the matrix elements the check compares.
  auto add = [&](const std::string& routine, Kind kind, int uplo, char out, long elements,
                 int vectors, long stored, auto call) {
    const std::string name = p + routine + "/" + std::to_string(n);
    const auto run = [=](int w, long count) {
      for (long c = 0; c < count; ++c) {
        const long kc = g_calls++;
        if (kc % kRestore == 0 && out == 'y') std::memcpy(y, y0, n * sizeof(T));
        if (kc % kRestore == 0 && out == 'x') std::memcpy(x, x0, n * sizeof(T));
        call(lib[w], out == 'a' && kc % 2 ? -alpha : alpha);
      }
      return double(out == 'a' ? a[0] : out == 'x' ? x[0] : y[0]);
    };
    auto check = [=, &s] {
      T* const o = out == 'a' ? a : out == 'x' ? x : y;
      const long len = out == 'a' ? stored : n;
      prepare(s, kind, uplo, n);
      g_calls = 0, run(0, 1);
      const std::vector<T> mine(o, o + len);
      prepare(s, kind, uplo, n);
      g_calls = 0, run(1, 1);
      double big = 0;
      for (long i = 0; i < len; ++i) big = std::max(big, std::fabs(double(o[i])));
      const double tol = rel * big;
      for (long i = 0; i < len; ++i)
        if (!(std::fabs(double(mine[i]) - double(o[i])) <= tol))
          die("%s: MISMATCH, %c[%ld] is %.17g from exoblas, %.17g from OpenBLAS (tolerance %.3g)",
              name.c_str(), out, i, double(mine[i]), double(o[i]), tol);
    };
    const auto prep = [=, &s] { prepare(s, kind, uplo, n); };
    cases.push_back({routine,
                     name,
                     order++,
                     p,
                     n,
                     double(elements + vectors * n) * sizeof(T),
                     [=] { check(), prep(); },
                     run,
                     {}});
  };
  const Kind full_k = Kind::kFull, tri_k = Kind::kFullTri, pk = Kind::kPacked,
             ptri = Kind::kPackedTri, band = Kind::kBand, btri = Kind::kBandTri;
  add("gemv_n", full_k, kUpper, 'y', full, 3, 0,
      [=](auto& b, T al) { b.gemv(kColMajor, kNoTrans, m, m, al, a, m, x, 1, beta, y, 1); });
  add("gemv_t", full_k, kUpper, 'y', full, 3, 0,
      [=](auto& b, T al) { b.gemv(kColMajor, kTrans, m, m, al, a, m, x, 1, beta, y, 1); });
  add("ger", full_k, kUpper, 'a', full, 2, full,
      [=](auto& b, T al) { b.ger(kColMajor, m, m, al, x, 1, y, 1, a, m); });
  add("symv_u", full_k, kUpper, 'y', tri, 3, 0,
      [=](auto& b, T al) { b.symv(kColMajor, kUpper, m, al, a, m, x, 1, beta, y, 1); });
  add("syr_u", full_k, kUpper, 'a', tri, 1, full,
      [=](auto& b, T al) { b.syr(kColMajor, kUpper, m, al, x, 1, a, m); });
  add("syr2_u", full_k, kUpper, 'a', tri, 2, full,
      [=](auto& b, T al) { b.syr2(kColMajor, kUpper, m, al, x, 1, y, 1, a, m); });
  // The triangular ones: Upper/NoTrans ("_un") and Lower/Trans ("_lt"), NonUnit.
  for (auto [uplo, trans, tag] : {std::tuple{int(kUpper), int(kNoTrans), "_un"},
                                  std::tuple{int(kLower), int(kTrans), "_lt"}}) {
    const std::string t = tag;
    add("trmv" + t, tri_k, uplo, 'x', tri, 2, 0,
        [=](auto& b, T) { b.trmv(kColMajor, uplo, trans, kNonUnit, m, a, m, x, 1); });
    add("trsv" + t, tri_k, uplo, 'x', tri, 2, 0,
        [=](auto& b, T) { b.trsv(kColMajor, uplo, trans, kNonUnit, m, a, m, x, 1); });
  }
  add("gbmv_n", band, kUpper, 'y', gband, 3, 0,
      [=](auto& b, T al) { b.gbmv(kColMajor, kNoTrans, m, m, k, k, al, a, kg, x, 1, beta, y, 1); });
  add("sbmv_u", band, kUpper, 'y', tband, 3, 0,
      [=](auto& b, T al) { b.sbmv(kColMajor, kUpper, m, k, al, a, kb, x, 1, beta, y, 1); });
  for (auto [uplo, trans, tag] : {std::tuple{int(kUpper), int(kNoTrans), "_un"},
                                  std::tuple{int(kLower), int(kTrans), "_lt"}}) {
    const std::string t = tag;
    add("tbmv" + t, btri, uplo, 'x', tband, 2, 0,
        [=](auto& b, T) { b.tbmv(kColMajor, uplo, trans, kNonUnit, m, k, a, kb, x, 1); });
    add("tbsv" + t, btri, uplo, 'x', tband, 2, 0,
        [=](auto& b, T) { b.tbsv(kColMajor, uplo, trans, kNonUnit, m, k, a, kb, x, 1); });
  }
  add("spmv_u", pk, kUpper, 'y', tri, 3, 0,
      [=](auto& b, T al) { b.spmv(kColMajor, kUpper, m, al, a, x, 1, beta, y, 1); });
  add("spr_u", pk, kUpper, 'a', tri, 1, tri,
      [=](auto& b, T al) { b.spr(kColMajor, kUpper, m, al, x, 1, a); });
  for (auto [uplo, trans, tag] : {std::tuple{int(kUpper), int(kNoTrans), "_un"},
                                  std::tuple{int(kLower), int(kTrans), "_lt"}}) {
    const std::string t = tag;
    add("tpmv" + t, ptri, uplo, 'x', tri, 2, 0,
        [=](auto& b, T) { b.tpmv(kColMajor, uplo, trans, kNonUnit, m, a, x, 1); });
    add("tpsv" + t, ptri, uplo, 'x', tri, 2, 0,
        [=](auto& b, T) { b.tpsv(kColMajor, uplo, trans, kNonUnit, m, a, x, 1); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  unpin_openblas(argv);
  const Options opt(argc, argv);
  const std::array<Library, 2> libs = open_contenders();
  const Blas2<float> s[2] = {resolve<float>(libs[0]), resolve<float>(libs[1])};
  const Blas2<double> d[2] = {resolve<double>(libs[0]), resolve<double>(libs[1])};

  Peaks peaks;
  peaks.measure();

  Store<float> ss;
  Store<double> sd;
  std::vector<Case> all, cases;
  for (long n : kSizes) add_cases(all, n, ss, s), add_cases(all, n, sd, d);
  for (Case& c : all)
    if (c.name.find(opt.filter) != std::string::npos) cases.push_back(std::move(c));
  std::stable_sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) {
    return std::tuple(a.order, a.prec == 'd', a.n) < std::tuple(b.order, b.prec == 'd', b.n);
  });

  // Each case is checked (which leaves its inputs in place) just before it is timed: the cases
  // share one matrix.
  for (Case& c : cases) {
    c.check();
    c.t = time_pair(c.run, c.bytes, opt.batch_ms, opt.reps);
    std::printf("%-16s checked; exoblas %8.2f GB/s  OpenBLAS %8.2f GB/s  (%ld calls a batch)\n",
                c.name.c_str(), c.t.gbs[0], c.t.gbs[1], c.t.count);
    std::fflush(stdout);
  }
  std::printf("checked %zu cases: exoblas and OpenBLAS agree\n", cases.size());

  peaks.measure();
  print_peaks(peaks);
  std::printf(
      "GB/s of the matrix elements touched (each once) and the vectors, medians of %d batches\n"
      "each; ratio: exoblas / OpenBLAS, the median of the pairs' ratios; in: where the counted\n"
      "bytes fit; load peak: the load loop there\n",
      opt.reps);
  std::printf("%-8s %4s %5s %4s %13s %14s %7s %7s %10s\n", "routine", "prec", "n", "in",
              "exoblas GB/s", "OpenBLAS GB/s", "ratio", ">=0.95", "load peak");
  int ok = 0;
  for (const Case& c : cases) {
    const int level = peaks.level_of(c.bytes);
    ok += c.t.ratio >= 0.95;
    std::printf("%-8s %4c %5ld %4s %13.2f %14.2f %7.3f %7s %10.1f\n", c.routine.c_str(), c.prec,
                c.n, kLevelName[level], c.t.gbs[0], c.t.gbs[1], c.t.ratio,
                c.t.ratio >= 0.95 ? "yes" : "NO", peaks.load[level]);
  }
  std::printf("%d of %zu cases at >= 0.95 of OpenBLAS\n", ok, cases.size());
  return 0;
}
