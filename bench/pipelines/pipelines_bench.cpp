// bench/pipelines: three image pipelines as exocpp schedules them (exocpp_pipelines.h) against
// Halide 14 running the CPU schedules of its own apps (of its tutorials for conv5x5), sizes
// tuned for this machine (halide_pipelines.h), on one and two threads:
//   blur     3x3 box blur of uint16 images (Halide's apps/blur), sums wrapping in uint16;
//   unsharp  5x5 binomial unsharp mask of one-channel float images (after apps/unsharp);
//   conv5x5  dense 5x5 convolution of one-channel float images with 25 given weights.
// Each contender runs on the same random input at 1920x1080 and 3840x2160; both outputs are
// checked against a naive C++ reference (blur bit for bit, unsharp and conv5x5 to a relative
// error of 1e-5, relative to max(|reference|, 1)), then each is timed over --reps runs (9 by
// default), the two contenders in alternating blocks (see time_pair; GOMP_SPINCOUNT, see
// gomp_spin.h). One line per pipeline, thread count and size:
//   RESULT <pipeline> threads=<t> size=<WxH> exocpp_ms=<x> halide_ms=<y>     (medians)
//   BEST <pipeline> threads=<t> size=<WxH> exocpp_ms=<x> halide_ms=<y>       (best runs)
// and, for unsharp and conv5x5, the same against Halide compiled with Target::StrictFloat (the
// same schedule), its output checked equal to the reference's (a max relative error of 0):
//   CHECK_STRICT <pipeline> threads=<t> size=<WxH> halide_strict_max_rel_err=<e>
//   RESULT_STRICT <pipeline> threads=<t> size=<WxH> exocpp_ms=<x> halide_strict_ms=<y>
//   BEST_STRICT <pipeline> threads=<t> size=<WxH> exocpp_ms=<x> halide_strict_ms=<y>
// exocpp's float pipelines round every product and sum as the definitions write them; Halide by
// default lets LLVM fuse a product and a sum into an FMA (faster, and rounded differently). The
// strict lines compare the two at the same rounding: what remains of the gap is not the FMAs.
// All this after a header with the Halide target, the CPU, the JIT compile times and the count of
// threads Halide's thread pool really ran on, and the load average at start and end (other
// work on a two-core machine skews the two-thread figures most). Exits 1 when a check fails.
//
//   pipelines_bench [--reps N] [--quick] [--halide-sweep]
// --quick: 640x480 only, 3 repetitions (a smoke run). --halide-sweep: also times Halide under
// other schedules of the same shape (strip height, vector width, column tiles, conv5x5's taps
// unrolled or not), the evidence for the defaults.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "exocpp_pipelines.h"
#include "gomp_spin.h"
#include "halide_pipelines.h"

namespace {

struct Size {
  int w, h;
};

struct Options {
  int reps = 9;
  bool reps_given = false;
  bool quick = false;
  bool sweep = false;
};

// 64-byte aligned storage (Halide's apps align their buffers so too).
template <typename T>
class Aligned {
 public:
  explicit Aligned(size_t n) : n_(n) {
    size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    p_ = static_cast<T*>(std::aligned_alloc(64, bytes));
    if (!p_) throw std::bad_alloc();
  }
  ~Aligned() { std::free(p_); }
  Aligned(const Aligned&) = delete;
  Aligned& operator=(const Aligned&) = delete;
  T* data() { return p_; }
  const T* data() const { return p_; }
  size_t size() const { return n_; }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }

 private:
  T* p_;
  size_t n_;
};

// /proc/loadavg's first three fields: other work on the machine skews the two-thread figures.
std::string load_average() {
  std::ifstream f("/proc/loadavg");
  std::string a, b, c;
  f >> a >> b >> c;
  return a + " " + b + " " + c;
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
}

double time_ms(const std::function<void()>& fn) {
  auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The median and the best of reps timed runs of a and of b. The runs go in blocks, a's then
// b's, alternating which goes first; the first run of a block is not timed: it wakes that side's
// thread pool while the other side's may still be spinning (OpenMP's and Halide's workers spin
// a while before they sleep), so each side is timed in its own steady state, as one program
// calling it repeatedly would run it. On a shared machine the noise only ever adds time, so the
// best is the steadier figure; both are printed.
struct PairTimes {
  double a_median, b_median, a_best, b_best;
};
PairTimes time_pair(int reps, const std::function<void()>& a, const std::function<void()>& b) {
  constexpr int kBlock = 3;  // timed runs per block
  std::vector<double> ta, tb;
  auto block = [&](const std::function<void()>& fn, std::vector<double>& times) {
    fn();
    for (int k = 0; k < kBlock && static_cast<int>(times.size()) < reps; ++k)
      times.push_back(time_ms(fn));
  };
  for (int round = 0; static_cast<int>(ta.size()) < reps || static_cast<int>(tb.size()) < reps;
       ++round) {
    if (round % 2 == 0) {
      block(a, ta);
      block(b, tb);
    } else {
      block(b, tb);
      block(a, ta);
    }
  }
  return {median(ta), median(tb), *std::min_element(ta.begin(), ta.end()),
          *std::min_element(tb.begin(), tb.end())};
}

// The number of outputs that differ from the reference (blur: bit for bit).
size_t blur_mismatches(const Aligned<uint16_t>& got, const Aligned<uint16_t>& ref) {
  size_t bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) bad += got[i] != ref[i];
  return bad;
}

// max |got - ref| / max(|ref|, 1) (NaN counts as infinite).
double max_relative_error(const Aligned<float>& got, const Aligned<float>& ref) {
  double worst = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double e =
        std::fabs(double(got[i]) - double(ref[i])) / std::max(std::fabs(double(ref[i])), 1.0);
    if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
  }
  return worst;
}

// Of the float pipelines: each side may contract a product and a sum into an FMA, or not.
constexpr double kFloatTolerance = 1e-5;

std::string size_str(Size s) { return std::to_string(s.w) + "x" + std::to_string(s.h); }

void random_blur_input(Size s, Aligned<uint16_t>& in, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, 65535);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint16_t>(d(rng));
  (void)s;
}

void random_float_input(Size s, Aligned<float>& in, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(0.0f, 1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = d(rng);
  (void)s;
}

// conv5x5's weights, w[dy * 5 + dx], the same in every run: random in [-1, 1), of both signs, so
// that the sums cancel in part (the rounding errors then weigh more against the result).
const std::array<float, 25>& conv5x5_weights() {
  static const std::array<float, 25> w = [] {
    std::array<float, 25> r;
    std::mt19937 rng(2525);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (float& v : r) v = d(rng);
    return r;
  }();
  return w;
}

// The RESULT (medians) and BEST (best runs) lines of one pipeline, size and thread count; with
// strict, RESULT_STRICT and BEST_STRICT (Halide's side compiled with StrictFloat).
void print_times(const char* pipeline, Size s, int threads, const PairTimes& t,
                 bool strict = false) {
  const char* tag = strict ? "_STRICT" : "";
  const char* halide = strict ? "halide_strict_ms" : "halide_ms";
  std::printf("RESULT%s %s threads=%d size=%s exocpp_ms=%.3f %s=%.3f\n", tag, pipeline, threads,
              size_str(s).c_str(), t.a_median, halide, t.b_median);
  std::printf("BEST%s %s threads=%d size=%s exocpp_ms=%.3f %s=%.3f\n", tag, pipeline, threads,
              size_str(s).c_str(), t.a_best, halide, t.b_best);
  std::fflush(stdout);
}

// Runs and checks one pipeline at one size and thread count; false when a check fails.
bool bench_blur(Size s, int threads, int reps) {
  const size_t n_in = size_t(s.w + 2) * (s.h + 2), n_out = size_t(s.w) * s.h;
  Aligned<uint16_t> in(n_in), ref(n_out), oe(n_out), oh(n_out);
  random_blur_input(s, in, 1234u + s.w);
  halide_peer::blur_u16_reference(s.w, s.h, in.data(), ref.data());
  auto exo = [&] { exocpp_blur_u16(s.w, s.h, in.data(), oe.data(), threads); };
  auto hal = [&] { halide_peer::blur_u16(s.w, s.h, in.data(), oh.data(), threads); };
  std::fill_n(oe.data(), n_out, uint16_t(0xdead));
  std::fill_n(oh.data(), n_out, uint16_t(0xbeef));
  exo();
  hal();
  size_t bad_e = blur_mismatches(oe, ref), bad_h = blur_mismatches(oh, ref);
  std::printf("CHECK blur threads=%d size=%s exocpp_mismatches=%zu halide_mismatches=%zu %s\n",
              threads, size_str(s).c_str(), bad_e, bad_h, bad_e || bad_h ? "FAIL" : "ok");
  if (bad_e || bad_h) return false;
  print_times("blur", s, threads, time_pair(reps, exo, hal));
  return true;
}

// A float pipeline from (H + 4) rows of W + 4 to H rows of W, its other arguments bound.
using FloatPipeline = std::function<void(const float* in, float* out)>;

// bench_blur's steps for a float pipeline, checked to kFloatTolerance, then the same against
// halide_strict (Halide with StrictFloat), which must match the reference exactly.
bool bench_float(const char* pipeline, Size s, int threads, int reps, uint32_t seed,
                 const FloatPipeline& reference, const FloatPipeline& exocpp,
                 const FloatPipeline& halide, const FloatPipeline& halide_strict) {
  const size_t n_in = size_t(s.w + 4) * (s.h + 4), n_out = size_t(s.w) * s.h;
  Aligned<float> in(n_in), ref(n_out), oe(n_out), oh(n_out);
  random_float_input(s, in, seed);
  reference(in.data(), ref.data());
  auto exo = [&] { exocpp(in.data(), oe.data()); };
  auto hal = [&] { halide(in.data(), oh.data()); };
  std::fill_n(oe.data(), n_out, NAN);
  std::fill_n(oh.data(), n_out, NAN);
  exo();
  hal();
  double err_e = max_relative_error(oe, ref), err_h = max_relative_error(oh, ref);
  bool ok = err_e <= kFloatTolerance && err_h <= kFloatTolerance;
  std::printf("CHECK %s threads=%d size=%s exocpp_max_rel_err=%.3g halide_max_rel_err=%.3g %s\n",
              pipeline, threads, size_str(s).c_str(), err_e, err_h, ok ? "ok" : "FAIL");
  if (!ok) return false;
  print_times(pipeline, s, threads, time_pair(reps, exo, hal));
  // The strict variant writes into oh, the default's output being checked and timed.
  auto strict = [&] { halide_strict(in.data(), oh.data()); };
  std::fill_n(oh.data(), n_out, NAN);
  strict();
  double err_s = max_relative_error(oh, ref);
  std::printf("CHECK_STRICT %s threads=%d size=%s halide_strict_max_rel_err=%.3g %s\n", pipeline,
              threads, size_str(s).c_str(), err_s, err_s == 0 ? "ok" : "FAIL");
  if (err_s != 0) return false;
  print_times(pipeline, s, threads, time_pair(reps, exo, strict), true);
  return true;
}

// s with strict_float set: the float pipelines' default schedules compiled with StrictFloat are
// the strict variants the *_STRICT lines time.
halide_peer::Schedule strict_float_schedule(halide_peer::Schedule s) {
  s.strict_float = true;
  return s;
}

// strict: the default schedule compiled with StrictFloat (strict_float_schedule).
bool bench_unsharp(Size s, int threads, int reps, halide_peer::UnsharpF32& strict) {
  return bench_float(
      "unsharp", s, threads, reps, 4321u + s.w,
      [&](const float* in, float* out) { halide_peer::unsharp_f32_reference(s.w, s.h, in, out); },
      [&](const float* in, float* out) { exocpp_unsharp_f32(s.w, s.h, in, out, threads); },
      [&](const float* in, float* out) { halide_peer::unsharp_f32(s.w, s.h, in, out, threads); },
      [&](const float* in, float* out) { strict.run(s.w, s.h, in, out, threads); });
}

bool bench_conv5x5(Size s, int threads, int reps, halide_peer::Conv5x5F32& strict) {
  const float* w = conv5x5_weights().data();
  return bench_float(
      "conv5x5", s, threads, reps, 5555u + s.w,
      [&](const float* in, float* out) {
        halide_peer::conv5x5_f32_reference(s.w, s.h, in, w, out);
      },
      [&](const float* in, float* out) { exocpp_conv5x5_f32(s.w, s.h, in, w, out, threads); },
      [&](const float* in, float* out) { halide_peer::conv5x5_f32(s.w, s.h, in, w, out, threads); },
      [&](const float* in, float* out) { strict.run(s.w, s.h, in, w, out, threads); });
}

// --halide-sweep: Halide alone under other schedules of the apps' shape.
template <typename T, typename Pipeline, typename Reference>
bool sweep_one(const char* name, int halo, const std::vector<halide_peer::Schedule>& schedules,
               const std::vector<Size>& sizes, int reps, Reference reference,
               const std::function<void(Aligned<T>&)>& fill,
               const std::function<bool(const Aligned<T>&, const Aligned<T>&)>& same) {
  bool ok = true;
  for (const auto& sched : schedules) {
    Pipeline p(sched);
    std::printf("SWEEP %s [%s] compile_ms=%.1f\n", name, halide_peer::to_string(sched).c_str(),
                p.compile_ms());
    for (Size s : sizes) {
      const size_t n_in = size_t(s.w + halo) * (s.h + halo), n_out = size_t(s.w) * s.h;
      Aligned<T> in(n_in), ref(n_out), out(n_out);
      fill(in);
      reference(s.w, s.h, in.data(), ref.data());
      for (int threads : {1, 2}) {
        auto run = [&] { p.run(s.w, s.h, in.data(), out.data(), threads); };
        run();
        bool good = same(out, ref);
        ok &= good;
        std::vector<double> times;
        for (int r = 0; r < reps; ++r) times.push_back(time_ms(run));
        double t = median(times);
        std::printf("SWEEP %s [%s] threads=%d size=%s halide_ms=%.3f%s\n", name,
                    halide_peer::to_string(sched).c_str(), threads, size_str(s).c_str(), t,
                    good ? "" : " FAIL");
        std::fflush(stdout);
      }
    }
  }
  return ok;
}

// Conv5x5F32 with conv5x5_weights() bound, run as sweep_one runs the others.
class Conv5x5WithWeights {
 public:
  explicit Conv5x5WithWeights(const halide_peer::Schedule& s) : pipeline_(s) {}
  void run(int W, int H, const float* in, float* out, int threads) {
    pipeline_.run(W, H, in, conv5x5_weights().data(), out, threads);
  }
  double compile_ms() const { return pipeline_.compile_ms(); }

 private:
  halide_peer::Conv5x5F32 pipeline_;
};

bool sweep(const std::vector<Size>& sizes, int reps) {
  using halide_peer::Schedule;
  // Natural vector widths (the defaults take two vectors).
  const int vb = halide_peer::default_blur_schedule().vector_width / 2;
  const int vu = halide_peer::default_unsharp_schedule().vector_width / 2;
  const int vc = halide_peer::default_conv5x5_schedule().vector_width / 2;
  // First apps/blur's own (8-row strips, 8 lanes) and apps/unsharp's (32-row strips, natural
  // width, sliding), then variations, the defaults among them.
  std::vector<Schedule> blur = {
      {8, 8},       {8, vb},      {32, vb},     {64, vb},           {8, 2 * vb},
      {32, 2 * vb}, {64, 2 * vb}, {8, vb, 512}, {32, vb, 0, false}, {64, 2 * vb, 0, false}};
  std::vector<Schedule> unsharp = {{32, vu},
                                   {8, vu},
                                   {64, vu},
                                   {32, 2 * vu},
                                   {64, 2 * vu},
                                   {32, vu, 512},
                                   {32, vu, 0, false},
                                   {32, 2 * vu, 0, false},
                                   {64, 2 * vu, 0, false},
                                   {16, 2 * vu, 0, false}};
  // conv5x5: the tutorials' shape (strips, vectors, the sum per vector) with 8-, 32- and 64-row
  // strips and one, two or four vectors, then the default's with column tiles and with the taps
  // not unrolled.
  std::vector<Schedule> conv5x5 = {{8, vc},
                                   {32, vc},
                                   {64, vc},
                                   {8, 2 * vc},
                                   {32, 2 * vc},
                                   {64, 2 * vc},
                                   {8, 4 * vc},
                                   {8, 2 * vc, 512},
                                   {8, vc, 0, true, false},
                                   {8, 2 * vc, 0, true, false}};
  bool ok = sweep_one<uint16_t, halide_peer::BlurU16>(
      "blur", 2, blur, sizes, reps, halide_peer::blur_u16_reference,
      [](Aligned<uint16_t>& in) { random_blur_input({}, in, 99); },
      [](const Aligned<uint16_t>& a, const Aligned<uint16_t>& r) {
        return blur_mismatches(a, r) == 0;
      });
  auto fill_float = [](Aligned<float>& in) { random_float_input({}, in, 99); };
  auto same_float = [](const Aligned<float>& a, const Aligned<float>& r) {
    return max_relative_error(a, r) <= kFloatTolerance;
  };
  ok &= sweep_one<float, halide_peer::UnsharpF32>("unsharp", 4, unsharp, sizes, reps,
                                                  halide_peer::unsharp_f32_reference, fill_float,
                                                  same_float);
  ok &= sweep_one<float, Conv5x5WithWeights>(
      "conv5x5", 4, conv5x5, sizes, reps,
      [](int W, int H, const float* in, float* out) {
        halide_peer::conv5x5_f32_reference(W, H, in, conv5x5_weights().data(), out);
      },
      fill_float, same_float);
  return ok;
}

int usage(const char* argv0) {
  std::fprintf(stderr, "usage: %s [--reps N] [--quick] [--halide-sweep]\n", argv0);
  return 2;
}

int run(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      opt.reps = std::atoi(argv[++i]);
      opt.reps_given = true;
      if (opt.reps < 1) return usage(argv[0]);
    } else if (!std::strcmp(argv[i], "--quick")) {
      opt.quick = true;
    } else if (!std::strcmp(argv[i], "--halide-sweep")) {
      opt.sweep = true;
    } else {
      return usage(argv[0]);
    }
  }
  if (opt.quick && !opt.reps_given) opt.reps = 3;
  std::vector<Size> sizes =
      opt.quick ? std::vector<Size>{{640, 480}} : std::vector<Size>{{1920, 1080}, {3840, 2160}};

  halide_peer::CompileTimes ct = halide_peer::init();
  std::printf("# GOMP_SPINCOUNT=%s OMP_WAIT_POLICY=%s\n", std::getenv("GOMP_SPINCOUNT"),
              std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : "(unset)");
  std::printf("# pipelines_bench: halide_target=%s cpu=\"%s\" cpus_online=%u reps=%d\n",
              halide_peer::target_string().c_str(), cpu_model().c_str(),
              std::thread::hardware_concurrency(), opt.reps);
  std::printf("# load average at start: %s\n", load_average().c_str());
  std::printf(
      "# halide_jit_compile_ms blur=%.1f unsharp=%.1f conv5x5=%.1f (runtime, once before them: "
      "%.1f)\n",
      ct.blur_ms, ct.unsharp_ms, ct.conv5x5_ms, ct.runtime_ms);
  std::printf("# halide schedules: blur [%s] unsharp [%s] conv5x5 [%s]\n",
              halide_peer::to_string(halide_peer::default_blur_schedule()).c_str(),
              halide_peer::to_string(halide_peer::default_unsharp_schedule()).c_str(),
              halide_peer::to_string(halide_peer::default_conv5x5_schedule()).c_str());
  const halide_peer::Schedule unsharp_strict_schedule =
      strict_float_schedule(halide_peer::default_unsharp_schedule());
  const halide_peer::Schedule conv5x5_strict_schedule =
      strict_float_schedule(halide_peer::default_conv5x5_schedule());
  halide_peer::UnsharpF32 unsharp_strict(unsharp_strict_schedule);
  halide_peer::Conv5x5F32 conv5x5_strict(conv5x5_strict_schedule);
  std::printf("# halide strict variants: unsharp [%s] conv5x5 [%s] (jit_compile_ms %.1f, %.1f)\n",
              halide_peer::to_string(unsharp_strict_schedule).c_str(),
              halide_peer::to_string(conv5x5_strict_schedule).c_str(), unsharp_strict.compile_ms(),
              conv5x5_strict.compile_ms());
  {
    // Does threads=2 run on two threads? Count the OS threads that ran the blur's tasks.
    Size s = {1920, 1080};
    Aligned<uint16_t> in(size_t(s.w + 2) * (s.h + 2)), out(size_t(s.w) * s.h);
    random_blur_input(s, in, 7);
    int used[3] = {0, 0, 0};
    for (int t : {1, 2}) {
      for (int r = 0; r < 10 && used[t] < t; ++r) {  // a busy machine may leave one idle
        used[t] =
            std::max(used[t], halide_peer::blur_threads_used(s.w, s.h, in.data(), out.data(), t));
      }
    }
    std::printf("# halide threads ran: threads=1 -> %d thread(s), threads=2 -> %d thread(s)%s\n",
                used[1], used[2],
                used[1] == 1 && used[2] == 2 ? "" : " (UNEXPECTED: is the machine busy?)");
  }
  std::fflush(stdout);

  bool ok = true;
  for (int threads : {1, 2}) {
    for (Size s : sizes) ok &= bench_blur(s, threads, opt.reps);
  }
  for (int threads : {1, 2}) {
    for (Size s : sizes) ok &= bench_unsharp(s, threads, opt.reps, unsharp_strict);
  }
  for (int threads : {1, 2}) {
    for (Size s : sizes) ok &= bench_conv5x5(s, threads, opt.reps, conv5x5_strict);
  }
  if (opt.sweep) ok &= sweep(sizes, opt.reps);
  std::printf("# load average at end: %s\n", load_average().c_str());
  if (!ok) std::printf("pipelines_bench: a check FAILED\n");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  rerun_with_short_gomp_spin(argv, "pipelines_bench");
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pipelines_bench: %s\n", e.what());
    return 1;
  }
}
