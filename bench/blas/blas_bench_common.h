// What the BLAS side-by-side benchmarks (level1_bench, level2_bench) share: opening exoblas and
// OpenBLAS each on its own (RTLD_LOCAL | RTLD_DEEPBIND: both export the same cblas_* names),
// the command line, buffers that do not 4K-alias, this core's measured load peaks, and the timing
// of two contenders in alternating batches. Header-only, for benchmark programs.
#pragma once

#include <dlfcn.h>
#include <errno.h>  // program_invocation_short_name
#include <link.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "fma_peak.h"

namespace {

[[noreturn]] __attribute__((format(printf, 1, 2))) void die(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::fflush(stdout);
  std::fprintf(stderr, "\n%s: ", program_invocation_short_name);
  std::vfprintf(stderr, fmt, args);
  std::fprintf(stderr, "\n");
  va_end(args);
  std::abort();
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A library opened on its own: RTLD_LOCAL keeps its symbols out of the global scope and
// RTLD_DEEPBIND binds its own calls inside it, so the two same-named sets never mix.
struct Library {
  const char* label;
  void* handle;
  std::string path;  // the file the loader opened
  // A cblas_* routine must be defined in the library itself, not in one it depends on.
  void* sym(const std::string& name, bool own = true) const {
    void* p = dlsym(handle, name.c_str());
    Dl_info info{};
    if (own && (p == nullptr || dladdr(p, &info) == 0 || path != info.dli_fname))
      die("%s (%s) does not define %s%s%s", label, path.c_str(), name.c_str(),
          info.dli_fname ? ": it is in " : "", info.dli_fname ? info.dli_fname : "");
    return p;
  }
};

Library open_library(const char* label, const std::vector<std::string>& candidates) {
  std::string tried;
  for (const std::string& c : candidates) {
    if (c.empty()) continue;
    if (void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)) {
      link_map* map = nullptr;
      dlinfo(h, RTLD_DI_LINKMAP, &map);
      return {label, h, map != nullptr ? map->l_name : c};
    }
    tried += "\n  " + c + ": " + dlerror();
  }
  die("cannot open %s:%s", label, tried.c_str());
}

// `count` arrays of n Ts in one block (free() the first), 64-byte aligned, each 1088 bytes
// further into its page than the one before: with arrays at the same page offset (4K aliasing)
// some runs' figures in cache came out up to ten times lower, for both contenders alike.
template <typename T>
std::vector<T*> arrays(size_t n, int count) {
  const size_t stride = (n * sizeof(T) + 4095) / 4096 * 4096 + 1088;
  char* base = static_cast<char*>(std::aligned_alloc(4096, (stride * count + 4095) / 4096 * 4096));
  if (base == nullptr) die("out of memory");
  std::vector<T*> a;
  for (int k = 0; k < count; ++k) a.push_back(reinterpret_cast<T*>(base + k * stride));
  return a;
}

// ---- this core's peaks -----------------------------------------------------------------------

// 64 bytes of floats, in zmm registers where the CPU has AVX-512, else two ymm (target_clones).
typedef float V16 __attribute__((vector_size(64), may_alias));
#define EXO_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))

// Sums n floats (a multiple of 128) as four streams, a quarter of them each, in eight chains
// of vector adds: a load loop (more streams in flight draw more from memory).
EXO_CLONES float load_loop(const float* p, size_t n) {
  V16 a0 = {}, a1 = {}, a2 = {}, a3 = {}, a4 = {}, a5 = {}, a6 = {}, a7 = {};
  const size_t q = n / 64;  // a quarter, in vectors
  const V16 *v0 = reinterpret_cast<const V16*>(p), *v1 = v0 + q, *v2 = v1 + q, *v3 = v2 + q;
  for (size_t i = 0; i < q; i += 2) {
    a0 += v0[i], a1 += v0[i + 1], a2 += v1[i], a3 += v1[i + 1];
    a4 += v2[i], a5 += v2[i + 1], a6 += v3[i], a7 += v3[i + 1];
  }
  return ((a0 + a1) + (a2 + a3) + ((a4 + a5) + (a6 + a7)))[0];  // a sink: one lane will do
}
// STREAM's copy (b = a) and triad (a = b + s c), and an update in place (a = s a, read and
// written, which this CPU's memory may serve faster than a read alone); ordinary stores.
EXO_CLONES void copy_loop(const float* a, float* b, size_t n) {
  for (size_t i = 0; i < n / 16; ++i)
    reinterpret_cast<V16*>(b)[i] = reinterpret_cast<const V16*>(a)[i];
}
EXO_CLONES void triad_loop(float* a, const float* b, const float* c, float s, size_t n) {
  for (size_t i = 0; i < n / 16; ++i)
    reinterpret_cast<V16*>(a)[i] =
        reinterpret_cast<const V16*>(b)[i] + s * reinterpret_cast<const V16*>(c)[i];
}
EXO_CLONES void update_loop(float* a, float s, size_t n) {
  for (size_t i = 0; i < n / 16; ++i) reinterpret_cast<V16*>(a)[i] *= s;
}

// Best of five trials of GB/s, each repeating pass() (which moves `bytes`) for 20 ms or more.
template <typename F>
double best_gbs(double bytes, F pass) {
  const long chunk = std::max(1L, long(4e6 / bytes));  // passes between clock reads
  double best = 0;
  for (int trial = 0; trial < 5; ++trial) {
    const double t0 = now();
    double s = 0;
    long passes = 0;
    while ((s = now() - t0) < 0.02)
      for (long k = 0; k < chunk; ++k, ++passes) pass();
    best = std::max(best, bytes * passes / s / 1e9);
  }
  return best;
}

// The data (or unified) cache of each level from sysfs, in bytes (0: none).
long cache_bytes(int level) {
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    int lv = 0;
    long kib = 0;  // "32K"
    std::string type;
    std::ifstream(dir + "level") >> lv;
    std::ifstream(dir + "type") >> type;
    std::ifstream(dir + "size") >> kib;
    if (lv == level && type != "Instruction") return kib * 1024;
  }
  return 0;
}

struct Peaks {
  long cache[4] = {0, cache_bytes(1), cache_bytes(2), cache_bytes(3)};
  double load[5] = {};  // by level, 4: memory
  double mem_copy = 0, mem_triad = 0, mem_update = 0;
  // Measured before the cases and again after them, each figure the better of the two: this
  // machine's load from other work comes and goes.
  void measure() {
    volatile float sink = 0, one = 1;
    const size_t mem = std::max(size_t(256) << 20, size_t(cache[3]) * 8) / 4;  // floats
    const std::vector<float*> abc = arrays<float>(mem, 3);
    float *a = abc[0], *b = abc[1], *c = abc[2];
    std::fill(a, a + mem, 1.0f), std::fill(b, b + mem, 1.0f), std::fill(c, c + mem, 1.0f);
    for (int level = 1; level <= 4; ++level) {
      if (level < 4 && cache[level] == 0) continue;
      const size_t n = level < 4 ? size_t(cache[level]) / 2 / 4 / 128 * 128 : mem;  // half
      load[level] = std::max(load[level], best_gbs(4.0 * n, [&] { sink = load_loop(a, n); }));
    }
    mem_copy = std::max(mem_copy, best_gbs(8.0 * mem, [&] { copy_loop(a, b, mem); }));
    mem_triad = std::max(mem_triad, best_gbs(12.0 * mem, [&] { triad_loop(a, b, c, one, mem); }));
    mem_update = std::max(mem_update, best_gbs(8.0 * mem, [&] { update_loop(a, one, mem); }));
    std::free(a);
  }
  int level_of(double bytes) const {
    for (int level = 1; level <= 3; ++level)
      if (bytes <= cache[level]) return level;
    return 4;
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The command line: --reps=N (batch pairs), --batch_ms=MS (each batch's length) and
// --filter=SUBSTRING (the cases whose names hold it).
struct Options {
  int reps = 41;
  double batch_ms = 1;
  char filter[256] = "";
  Options(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
      if (std::sscanf(argv[i], "--reps=%d", &reps) != 1 &&
          std::sscanf(argv[i], "--batch_ms=%lf", &batch_ms) != 1 &&
          std::sscanf(argv[i], "--filter=%255s", filter) != 1)
        die("unknown argument %s (--reps=N, --batch_ms=MS, --filter=SUBSTRING)", argv[i]);
    reps = std::max(reps, 1);
  }
};

// The two contenders, exoblas ([0]: EXOBLAS_LIBRARY from the environment, else the one built)
// and OpenBLAS ([1]: Debian's openblas-pthread, else whichever the loader finds), each printed
// with OpenBLAS's configuration and kernel where it has them, and set to one thread.
std::array<Library, 2> open_contenders() {
#ifdef EXOBLAS_LIBRARY
  const char* built = EXOBLAS_LIBRARY;
#else
  const char* built = "";
#endif
  const char* env = std::getenv("EXOBLAS_LIBRARY");
  if (!env && !*built) die("exoblas was not built: set EXOBLAS_LIBRARY=PATH");
  const std::array<Library, 2> libs = {
      open_library("exoblas", {env ? env : built}),
      open_library("OpenBLAS", {"/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
                                "libopenblas.so.0", "libopenblas.so"})};
  for (const Library& lib : libs) {
    std::printf("%-8s %s", lib.label, lib.path.c_str());
    if (auto threads = reinterpret_cast<void (*)(int)>(lib.sym("openblas_set_num_threads", false)))
      threads(1);
    auto config = reinterpret_cast<char* (*)()>(lib.sym("openblas_get_config", false));
    auto core = reinterpret_cast<char* (*)()>(lib.sym("openblas_get_corename", false));
    if (config && core) std::printf(": %s; kernel %s; one thread", config(), core());
    std::printf("\n");
  }
  std::printf("OPENBLAS_CORETYPE %s\n",
              std::getenv("OPENBLAS_CORETYPE") ? std::getenv("OPENBLAS_CORETYPE") : "unset");
  return libs;
}

// One case timed: run(who, count) makes `count` calls by contender `who` (0: exoblas, 1:
// OpenBLAS) and returns a value to sink. Batches of `count` calls, `count` doubled until
// exoblas's batch lasts batch_ms, a warm-up batch of OpenBLAS, then `reps` pairs alternating
// (A B, B A, ...): each one's median GB/s of `bytes` a call and the median of the pairs' ratios.
struct Timing {
  double gbs[2] = {}, ratio = 0;
  long count = 1;  // calls a batch
};
template <typename Run>
Timing time_pair(Run run, double bytes, double batch_ms, int reps) {
  volatile double sink = 0;
  auto timed = [&](int who, long count) {  // seconds for `count` calls
    const double t0 = now();
    sink = run(who, count);
    return now() - t0;
  };
  Timing t;
  while (timed(0, t.count) < batch_ms / 1e3 && t.count < (1L << 30)) t.count *= 2;
  timed(1, t.count);  // warm-up
  std::vector<double> gbs[2], ratios;
  for (int r = 0; r < reps; ++r) {
    for (int k = 0; k < 2; ++k) {
      const int who = (r + k) % 2;  // A B, B A, ...
      gbs[who].push_back(bytes * t.count / timed(who, t.count) / 1e9);
    }
    ratios.push_back(gbs[0].back() / gbs[1].back());
  }
  t.gbs[0] = median(gbs[0]), t.gbs[1] = median(gbs[1]), t.ratio = median(ratios);
  return t;
}

const char* const kLevelName[] = {"", "L1", "L2", "L3", "mem"};

void print_peaks(const Peaks& peaks) {
  std::printf(
      "\nthis core's peaks: load %.1f GB/s in L1 (%ld KiB), %.1f in L2 (%ld KiB), %.1f in "
      "L3 (%ld KiB), %.1f from memory; memory copy %.1f, triad %.1f, update in place %.1f GB/s\n",
      peaks.load[1], peaks.cache[1] >> 10, peaks.load[2], peaks.cache[2] >> 10, peaks.load[3],
      peaks.cache[3] >> 10, peaks.load[4], peaks.mem_copy, peaks.mem_triad, peaks.mem_update);
}

}  // namespace
