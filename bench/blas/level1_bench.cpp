// Level-1 BLAS side by side: every level-1 routine of the product library exoblas (blas/,
// libexoblas.so) against OpenBLAS through the CBLAS interface, in f32 (s) and f64 (d): asum,
// axpy, dot, sdsdot (s) / dsdot (d), nrm2, i?amax, rot, rotm (flag -1: the full matrix), scal,
// swap and copy at n = 4096, 262144 and 16777216, unit increments, one thread. Both libraries
// export the same cblas_* names, so neither is linked: each is dlopen'd with RTLD_LOCAL |
// RTLD_DEEPBIND and called through pointers dlsym finds in it.
//
// Each figure is GB/s of the routine's compulsory traffic, n elements for each vector read and
// each written: asum, nrm2, i?amax 1n (x read); dot, sdsdot, dsdot 2n (x, y read; f32 vectors
// in dsdot too); scal 2n (x read and written); copy 2n (x read, y written); axpy 3n (x, y read,
// y written); rot, rotm, swap 4n (x, y read and written). The write-allocate reads of a written
// vector are not counted.
//
// The peer runs at its best: OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are dropped and the program
// runs itself again (fma_peak.h), OpenBLAS gets openblas_set_num_threads(1), and the kernel it
// chose is printed. Before any timing, each case runs once in both libraries on the same inputs
// and the two must agree (swap, copy, scal and i?amax exactly; the rest within a tolerance), or
// the program aborts. Then the contenders alternate batch by batch (A B, B A, ...), each batch
// about --batch_ms long, --reps pairs. The table gives each one's median, the median of the
// pairs' ratios, the cache level the case's vectors fit in and this core's load peak there,
// measured in the same run (before the cases and after them) by a load loop over buffers in L1,
// L2, L3 and memory; memory's STREAM copy and triad and an update in place are printed above
// it. Routines that store as well as load can pass the load peak (L1 takes a store beside two
// loads each cycle; this CPU's memory serves reads and writes together faster than reads).
//
// Run (one command line; EXOBLAS_LIBRARY=PATH in the environment replaces the built library,
// e.g. /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3: OpenBLAS against itself):
//   build/bench/blas/level1_bench --reps=41 --batch_ms=1 [--filter=SUBSTRING, e.g. daxpy/4096]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "blas_bench_common.h"

namespace {

// One library's level-1 routines at precision T, with CBLAS's signatures.
template <typename T>
struct Blas1 {
  T (*asum)(int, const T*, int);
  void (*axpy)(int, T, const T*, int, T*, int);
  T (*dot)(int, const T*, int, const T*, int);
  float (*sdsdot)(int, float, const float*, int, const float*, int);
  double (*dsdot)(int, const float*, int, const float*, int);
  T (*nrm2)(int, const T*, int);
  size_t (*iamax)(int, const T*, int);  // CBLAS_INDEX
  void (*rot)(int, T*, int, T*, int, T, T);
  void (*rotm)(int, T*, int, T*, int, const T*);
  void (*scal)(int, T, T*, int);
  void (*swap)(int, T*, int, T*, int);
  void (*copy)(int, const T*, int, T*, int);
};

template <typename T>
Blas1<T> resolve(const Library& lib) {
  const std::string p = std::is_same_v<T, float> ? "s" : "d";
  Blas1<T> b;
  auto get = [&](const std::string& name, auto& fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(lib.sym("cblas_" + name));
  };
  get(p + "asum", b.asum), get(p + "axpy", b.axpy), get(p + "dot", b.dot);
  get("sdsdot", b.sdsdot), get("dsdot", b.dsdot), get(p + "nrm2", b.nrm2);
  get("i" + p + "amax", b.iamax), get(p + "rot", b.rot), get(p + "rotm", b.rotm);
  get(p + "scal", b.scal), get(p + "swap", b.swap), get(p + "copy", b.copy);
  return b;
}

const long kSizes[] = {4096, 262144, 16777216};

// x and y (shared by both contenders) and the values each check starts from: uniform in
// [-1, 1), with one element of x, unique, the largest in magnitude below each n.
template <typename T>
struct Vectors {
  const size_t n = kSizes[2];
  const std::vector<T*> a = arrays<T>(n, 4);
  T *x = a[0], *y = a[1], *x0 = a[2], *y0 = a[3];
  Vectors() {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<T> d(-1, 1);
    for (size_t i = 0; i < n; ++i) x[i] = x0[i] = d(rng), y[i] = y0[i] = d(rng);
    for (int k = 0; k < 3; ++k) x[kSizes[k] * 2 / 3] = x0[kSizes[k] * 2 / 3] = -T(1.5 + 0.25 * k);
  }
  ~Vectors() { std::free(x); }
  void reset(long m) { std::memcpy(x, x0, m * sizeof(T)), std::memcpy(y, y0, m * sizeof(T)); }
};

struct Case {
  std::string routine, name;  // "axpy", "saxpy/4096"
  int order;                  // the routine's place in the table
  char prec;
  long n;
  int traffic, footprint;  // vectors of n elements moved, and held
  size_t elem;
  std::function<void()> check;
  std::function<double(int who, long count)> run;  // `count` calls by contender `who`
  double gbs[2] = {}, ratio = 0;  // the medians, and the median of the pairs' ratios
};

template <typename F>
double sum_of(long n, F f) {
  double s = 0;
  for (long i = 0; i < n; ++i) s += f(i);
  return s;
}
// Calls so far, the k each call gets: axpy's and scal's alternating alpha goes on from one
// batch to the next.
long g_calls = 0;
template <typename F>
double repeat(long count, F f) {
  return sum_of(count, [&](long) { return f(g_calls++); });
}

// Runs `run` once for each contender from the same inputs and aborts unless the scalars agree
// within rel * scale(x, y) (exactly where rel is 0) and each element of x and y within
// elem * (1 + |value|).
template <typename B, typename Scale>
std::function<void()> checker(const std::string& name, Vectors<B>& v, long n, double rel,
                              double elem, Scale scale, std::function<double(int, long)> run) {
  return [=, &v] {
    v.reset(n);
    const double tol = rel * scale(v.x, v.y), r0 = (g_calls = 0, run(0, 1));
    const std::vector<B> x0(v.x, v.x + n), y0(v.y, v.y + n);
    v.reset(n);
    const double r1 = (g_calls = 0, run(1, 1));
    if (!(std::fabs(r0 - r1) <= tol))
      die("%s: MISMATCH, exoblas returns %.17g, OpenBLAS %.17g (tolerance %.3g)", name.c_str(), r0,
          r1, tol);
    for (long i = 0; i < n; ++i)
      for (auto [a, b, which] : {std::tuple{x0[i], v.x[i], 'x'}, std::tuple{y0[i], v.y[i], 'y'}})
        if (!(std::fabs(double(a) - double(b)) <= elem * (1 + std::fabs(double(b)))))
          die("%s: MISMATCH, %c[%ld] is %.17g from exoblas, %.17g from OpenBLAS", name.c_str(),
              which, i, double(a), double(b));
  };
}

template <typename T>
void add_cases(std::vector<Case>& cases, long n, Vectors<T>& v, Vectors<float>& vf,
               const Blas1<T>* lib) {
  const char p = std::is_same_v<T, float> ? 's' : 'd';
  const double eps = std::numeric_limits<T>::epsilon(), red = p == 's' ? 1e-4 : 1e-9;
  const int m = int(n);
  T *x = v.x, *y = v.y;
  float *xf = vf.x, *yf = vf.y;
  // What the reductions' tolerances scale with.
  auto one = [](auto*, auto*) { return 1.0; };
  auto abs_sum = [m](auto* a, auto*) { return sum_of(m, [&](long i) { return std::fabs(a[i]); }); };
  auto prod_sum = [m](auto* a, auto* b) {
    return sum_of(m, [&](long i) { return std::fabs(double(a[i]) * b[i]); });
  };
  auto norm = [m](auto* a, auto*) {
    return std::sqrt(sum_of(m, [&](long i) { return double(a[i]) * a[i]; }));
  };
  int order = 0;
  // call(b, k): the routine's k-th call in library b; its result, or 0.
  auto add = [&](const std::string& routine, int traffic, int footprint, auto& vec, double rel,
                 double elem, auto scale, auto call) {
    const std::string blas = routine == "iamax" ? std::string("i") + p + "amax"
                             : routine.find("dsdot") != std::string::npos ? routine
                                                                          : p + routine;
    const std::string name = blas + "/" + std::to_string(n);
    const auto run = [=](int w, long count) {
      return repeat(count, [&](long k) { return double(call(lib[w], k)); });
    };
    cases.push_back({routine, name, order++, p, n, traffic, footprint, sizeof(*vec.x),
                     checker(name, vec, n, rel, elem, scale, run), run});
  };
  add("asum", 1, 1, v, red, 0, abs_sum, [=](auto& b, long) { return b.asum(m, x, 1); });
  add("axpy", 3, 2, v, 0, 8 * eps, one,
      [=](auto& b, long k) { return b.axpy(m, T(k & 1 ? -0.75 : 0.75), x, 1, y, 1), 0; });
  add("dot", 2, 2, v, red, 0, prod_sum, [=](auto& b, long) { return b.dot(m, x, 1, y, 1); });
  // dsdot's products of floats are exact in double, but OpenBLAS 0.3.21's dsdot is only about
  // as exact as float (2e-9 of sum |x y| off the exact sum at n = 4096): a looser tolerance.
  if (p == 's')
    add("sdsdot", 2, 2, vf, red, 0, prod_sum,
        [=](auto& b, long) { return b.sdsdot(m, 0.25f, xf, 1, yf, 1); });
  else
    add("dsdot", 2, 2, vf, 1e-6, 0, prod_sum,
        [=](auto& b, long) { return b.dsdot(m, xf, 1, yf, 1); });
  add("nrm2", 1, 1, v, red, 0, norm, [=](auto& b, long) { return b.nrm2(m, x, 1); });
  add("iamax", 1, 1, v, 0, 0, one, [=](auto& b, long) { return b.iamax(m, x, 1); });
  add("rot", 4, 2, v, 0, 8 * eps, one,
      [=](auto& b, long) { return b.rot(m, x, 1, y, 1, T(0.6), T(0.8)), 0; });
  // flag -1: H = [h11 h12; h21 h22] = [0.6 0.8; -0.8 0.6], a rotation: x and y stay bounded.
  static const T param[5] = {T(-1), T(0.6), T(-0.8), T(0.8), T(0.6)};
  add("rotm", 4, 2, v, 0, 8 * eps, one,
      [=](auto& b, long) { return b.rotm(m, x, 1, y, 1, param), 0; });
  // Powers of two, alternately, so that x neither grows nor shrinks (and OpenBLAS's early
  // return for alpha = 1 is not taken).
  add("scal", 2, 1, v, 0, 0, one,
      [=](auto& b, long k) { return b.scal(m, T(k & 1 ? 0.5 : 2), x, 1), 0; });
  add("swap", 4, 2, v, 0, 0, one, [=](auto& b, long) { return b.swap(m, x, 1, y, 1), 0; });
  add("copy", 2, 2, v, 0, 0, one, [=](auto& b, long) { return b.copy(m, x, 1, y, 1), 0; });
}

}  // namespace

int main(int argc, char** argv) {
  unpin_openblas(argv);
  const Options opt(argc, argv);
  const int reps = opt.reps;
  const std::array<Library, 2> libs = open_contenders();
  const Blas1<float> s[2] = {resolve<float>(libs[0]), resolve<float>(libs[1])};
  const Blas1<double> d[2] = {resolve<double>(libs[0]), resolve<double>(libs[1])};

  Peaks peaks;
  peaks.measure();

  Vectors<float> vs;
  Vectors<double> vd;
  std::vector<Case> all, cases;
  for (long n : kSizes) add_cases(all, n, vs, vs, s), add_cases(all, n, vd, vs, d);
  for (Case& c : all)
    if (c.name.find(opt.filter) != std::string::npos) cases.push_back(std::move(c));
  std::stable_sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) {
    return std::tuple(a.order, a.prec == 'd', a.n) < std::tuple(b.order, b.prec == 'd', b.n);
  });
  for (const Case& c : cases) c.check();
  std::printf("checked %zu cases: exoblas and OpenBLAS agree\n\n", cases.size());

  for (Case& c : cases) {
    const double bytes = double(c.traffic) * c.n * c.elem;
    const Timing t = time_pair(c.run, bytes, opt.batch_ms, reps);
    c.gbs[0] = t.gbs[0], c.gbs[1] = t.gbs[1], c.ratio = t.ratio;
    std::printf("%-16s exoblas %8.2f GB/s  OpenBLAS %8.2f GB/s  (%ld calls a batch)\n",
                c.name.c_str(), c.gbs[0], c.gbs[1], t.count);
    std::fflush(stdout);
  }

  peaks.measure();
  print_peaks(peaks);
  std::printf(
      "GB/s of compulsory traffic, medians of %d batches each; ratio: exoblas / OpenBLAS, the\n"
      "median of the pairs' ratios; in: where the vectors fit; load peak: the load loop there\n",
      reps);
  std::printf("%-7s %4s %9s %4s %13s %14s %7s %7s %10s\n", "routine", "prec", "n", "in",
              "exoblas GB/s", "OpenBLAS GB/s", "ratio", ">=0.95", "load peak");
  int ok = 0;
  for (const Case& c : cases) {
    const int level = peaks.level_of(double(c.footprint) * c.n * c.elem);
    ok += c.ratio >= 0.95;
    std::printf("%-7s %4c %9ld %4s %13.2f %14.2f %7.3f %7s %10.1f\n", c.routine.c_str(), c.prec,
                c.n, kLevelName[level], c.gbs[0], c.gbs[1], c.ratio, c.ratio >= 0.95 ? "yes" : "NO",
                peaks.load[level]);
  }
  std::printf("%d of %zu cases at >= 0.95 of OpenBLAS\n", ok, cases.size());
  return 0;
}
