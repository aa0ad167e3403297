// The Halide 14 peer of bench/pipelines: the blur, unsharp and conv5x5 pipelines of
// exocpp_pipelines.h written in Halide, JIT-compiled for the host with the CPU schedules of
// Halide's own apps (apps/blur, apps/unsharp; the tutorials' for conv5x5, which no app has), and
// plain C++ references of the same definitions.
//
// Buffers are dense and row-major, as in exocpp_pipelines.h: blur reads (H + 2) rows of W + 2
// uint16 values and writes H rows of W; unsharp and conv5x5 read (H + 4) rows of W + 4 floats
// and write H rows of W, conv5x5 with 25 weights w[dy * 5 + dx]. Halide.h stays out of this
// header.
#ifndef EXOCPP_BENCH_PIPELINES_HALIDE_PIPELINES_H
#define EXOCPP_BENCH_PIPELINES_HALIDE_PIPELINES_H

#include <cstdint>
#include <memory>
#include <string>

namespace halide_peer {

// A schedule of any of the pipelines, in the shape of Halide's apps: the output split into
// strips of strip_rows rows run in parallel, each row vectorized by vector_width lanes.
// tile_cols > 0 also splits the columns into tiles of that many (the rows of a strip then run
// tile by tile). Blur and unsharp: with sliding, the horizontal blur is stored per strip (per
// tile) and computed one row at a time as the vertical blur needs it (Halide's sliding window:
// each of its rows computed once per strip, in a buffer folded to a few rows), as in the apps;
// without, it is computed whole for the strip (or tile) before the strip's output. conv5x5: the
// sum is computed per vector of the output, its accumulator a vector_width-lane value in
// registers; with unroll_taps its 25 taps are unrolled (else two loops of 5). Each pipeline
// ignores the options that are not its own. strict_float compiles the pipeline for the host
// target with Target::StrictFloat, which turns off the fast-math flags Halide otherwise gives
// LLVM (among them contraction: a product and a sum fused into an FMA, one rounding instead of
// two): the float pipelines then round every product and sum as their definitions write them,
// as the references below do (blur, all uint16, is the same either way).
struct Schedule {
  int strip_rows;
  int vector_width;
  int tile_cols = 0;
  bool sliding = true;
  bool unroll_taps = true;
  bool strict_float = false;
  // Not empty: none of the above, but Halide's own autoscheduler of that name ("Mullapudi2016",
  // "Adams2019", "Li2018"), loaded as a plugin from Debian's halide14 folder, schedules the
  // pipeline for an output of estimate_w x estimate_h on `parallelism` cores (the other machine
  // parameters Halide's defaults: a 16 MiB last-level cache, balance 40).
  std::string autoscheduler = {};
  int estimate_w = 1920, estimate_h = 1080, parallelism = 2;
};

std::string to_string(const Schedule& s);

// The schedules the plain functions below run, the apps' with the sizes that measured fastest
// on this machine (AMD EPYC, AVX-512; pipelines_bench --halide-sweep times the alternatives).
// Blur: Halide's apps/blur CPU schedule (split y, parallel, vectorize x, blur_x store_at the
// strip and compute_at its row), with strips of 64 rows instead of 8 and two vectors of this
// target (64 uint16 lanes on AVX-512) instead of 8 lanes.
Schedule default_blur_schedule();
// Unsharp: after Halide's apps/unsharp CPU schedule (split y, parallel, vectorize x by the
// natural width, the blurs computed per strip), with strips of 64 rows instead of 32, two
// vectors (32 float lanes on AVX-512), and blur_x computed whole per strip (compute_at the
// strip) rather than slid down it, the vertical blur inlined into the output.
Schedule default_unsharp_schedule();
// conv5x5: Halide's apps have no 5x5 convolution, so this is Halide's standard CPU schedule for
// a small reduction as its tutorials write it (lesson 9: a 5x5 local sum computed innermost in
// its consumer, the output split into strips of rows run in parallel and vectorized over x;
// lesson 18: a reduction's update scheduled on its own, here vectorized over the pure x, so no
// rfactor): the sum computed at each vector of the output (compute_at the vector loop, so its
// accumulator stays in registers), both its steps vectorized over x, its 25 taps (r.x, r.y)
// unrolled. Strips of 8 rows and two vectors (32 float lanes on AVX-512): the variants (strips
// of 8, 32, 64 rows; 1, 2, 4 vectors; column tiles; taps not unrolled) measured within a few
// percent of each other here (column tiles the slowest), 8-row strips a little ahead on two
// threads (more strips to share between them).
Schedule default_conv5x5_schedule();

// One pipeline JIT-compiled for the host (get_jit_target_from_environment(), with StrictFloat
// under a strict_float schedule) when constructed.
// Not to be run from two threads at once. Sizes: W >= vector_width, H >= strip_rows (else
// std::invalid_argument); every W and H above that works.
class BlurU16 {
 public:
  explicit BlurU16(const Schedule& schedule);
  ~BlurU16();
  BlurU16(const BlurU16&) = delete;
  BlurU16& operator=(const BlurU16&) = delete;
  void run(int W, int H, const uint16_t* in, uint16_t* out, int threads);
  // run, counting the distinct OS threads that ran its parallel tasks (a custom_do_task
  // handler in the JIT user context of this one call).
  int run_counting_threads(int W, int H, const uint16_t* in, uint16_t* out, int threads);
  // The JIT compilation in the constructor, wall clock (not the JIT runtime's: init()).
  double compile_ms() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class UnsharpF32 {
 public:
  explicit UnsharpF32(const Schedule& schedule);
  ~UnsharpF32();
  UnsharpF32(const UnsharpF32&) = delete;
  UnsharpF32& operator=(const UnsharpF32&) = delete;
  void run(int W, int H, const float* in, float* out, int threads);
  double compile_ms() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class Conv5x5F32 {
 public:
  explicit Conv5x5F32(const Schedule& schedule);
  ~Conv5x5F32();
  Conv5x5F32(const Conv5x5F32&) = delete;
  Conv5x5F32& operator=(const Conv5x5F32&) = delete;
  // w: the 25 weights, w[dy * 5 + dx].
  void run(int W, int H, const float* in, const float* w, float* out, int threads);
  double compile_ms() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The plain functions: the default schedules, each compiled on its first use (or by init()).
// threads (>= 1) is the number of threads the call runs on: 1 runs the parallel strips one
// after another on the calling thread (a serial custom_do_par_for in the call's JIT user
// context: Halide 14's halide_set_num_threads cannot shrink a pool that has grown), 2 or more
// runs them on Halide's thread pool, grown to that many threads through the JIT runtime's
// halide_set_num_threads (the pool never shrinks: after a call on 3 threads, a call on 2 may
// use 3).
void blur_u16(int W, int H, const uint16_t* in, uint16_t* out, int threads);
void unsharp_f32(int W, int H, const float* in, float* out, int threads);
void conv5x5_f32(int W, int H, const float* in, const float* w, float* out, int threads);

// Compiles the default pipelines now; the wall-clock milliseconds each compilation took
// (lowering, LLVM, JIT linking), and the JIT runtime's, made once before the first pipeline.
struct CompileTimes {
  double runtime_ms;
  double blur_ms;
  double unsharp_ms;
  double conv5x5_ms;
};
CompileTimes init();

// The target the pipelines are compiled for (Target::to_string()).
std::string target_string();

// Runs the default blur once on threads threads and returns how many distinct OS threads ran
// its parallel tasks (through a custom_do_task handler of the JIT user context): the check that
// threads = 2 really spreads the work over two threads.
int blur_threads_used(int W, int H, const uint16_t* in, uint16_t* out, int threads);

// The definitions as naive loops: blur sums in uint16 (wrapping), then / 3; unsharp's sums
// left to right in float; conv5x5's from 0.0f, dy outer, dx inner, each tap a product then a
// sum (Halide fuses them into an FMA unless strict_float: its results differ in the last bits).
void blur_u16_reference(int W, int H, const uint16_t* in, uint16_t* out);
void unsharp_f32_reference(int W, int H, const float* in, float* out);
void conv5x5_f32_reference(int W, int H, const float* in, const float* w, float* out);

}  // namespace halide_peer

#endif  // EXOCPP_BENCH_PIPELINES_HALIDE_PIPELINES_H
