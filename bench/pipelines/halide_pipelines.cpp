// The Halide 14 peer of bench/pipelines (halide_pipelines.h).
#include "halide_pipelines.h"

#include <Halide.h>

#include <cctype>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace halide_peer {
namespace {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::Pipeline;
using Halide::RDom;
using Halide::Target;
using Halide::Var;

const Target& jit_target() {
  static const Target target = Halide::get_jit_target_from_environment();
  return target;
}

// The JIT shared runtime (Halide's runtime compiled for the target), made by the first
// compile_jit: compiled here on a trivial pipeline so that the pipelines' compile times leave
// it out. Returns its wall-clock milliseconds.
double jit_runtime_ms() {
  static const double ms = [] {
    Func f("runtime_probe");
    Var x("x");
    f(x) = x;
    auto t0 = std::chrono::steady_clock::now();
    f.compile_jit(jit_target());
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }();
  return ms;
}

// The runtime's halide_set_num_threads, found in the JIT shared runtime (which exists once a
// pipeline has been compiled). In Halide 14's thread pool it only grows the pool: once a worker
// exists, a count of 1 does not keep it from taking tasks (measured: one-thread calls after
// two-thread ones ran on two threads). So threads = 1 runs the tasks on the calling thread
// through a serial custom_do_par_for instead, and threads >= 2 leaves them to the pool grown to
// that many threads.
void grow_pool(int threads) {
  static int (*set)(int) = nullptr;
  static int current = -1;
  if (threads <= current) return;
  if (!set) {
    for (const auto& m : Halide::Internal::JITSharedRuntime::get(nullptr, jit_target(), false)) {
      void* address = m.find_symbol_by_name("halide_set_num_threads").address;
      if (address) {
        set = reinterpret_cast<int (*)(int)>(address);
        break;
      }
    }
    if (!set) throw std::runtime_error("halide_peer: halide_set_num_threads not in the runtime");
  }
  set(threads);
  current = threads;
}

// A parallel loop run as a plain loop on the calling thread, each task through the context's
// task handler (Halide's default runs it; run_counting_threads counts the thread).
int serial_do_par_for(Halide::JITUserContext* ctx, int (*f)(Halide::JITUserContext*, int, uint8_t*),
                      int min, int extent, uint8_t* closure) {
  for (int idx = min; idx < min + extent; ++idx) {
    int status = ctx->handlers.custom_do_task ? ctx->handlers.custom_do_task(ctx, f, idx, closure)
                                              : f(ctx, idx, closure);
    if (status) return status;
  }
  return 0;
}

// The user context of one call on threads threads.
Halide::JITUserContext context_for(int threads) {
  if (threads < 1) throw std::invalid_argument("halide_peer: threads must be >= 1");
  Halide::JITUserContext context;
  if (threads == 1) {
    context.handlers.custom_do_par_for = serial_do_par_for;
  } else {
    grow_pool(threads);
  }
  return context;
}

void check_size(const char* what, int W, int H, const Schedule& s) {
  if (s.autoscheduler.empty() &&
      (W < s.vector_width || H < s.strip_rows || (s.tile_cols > 0 && W < s.tile_cols))) {
    throw std::invalid_argument(
        std::string("halide_peer: ") + what + " needs W >= " + std::to_string(s.vector_width) +
        " and H >= " + std::to_string(s.strip_rows) + " under schedule " + to_string(s));
  }
}

// The loops of the output that split_into_strips makes, where its producers can go: the strip
// (the tile when there are tiles), the row in it, and the vectors of the row (vectorize(x, n)
// keeps the name x for the loop over vectors, its lanes an inner loop).
struct OutputLoops {
  Var strip, row, vectors;
};

// Splits out into strips of rows run in parallel (and tiles), each row vectorized.
OutputLoops split_into_strips(Func out, const Schedule& s) {
  Var x = out.args()[0], y = out.args()[1];
  Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
  if (s.tile_cols > 0) {
    out.tile(x, y, xo, yo, xi, yi, s.tile_cols, s.strip_rows)
        .parallel(yo)
        .vectorize(xi, s.vector_width);
    return {xo, yi, xi};
  }
  out.split(y, yo, yi, s.strip_rows).parallel(yo).vectorize(x, s.vector_width);
  return {yo, yi, x};
}

// Schedules out and its horizontal blur bx (stored per strip or tile, computed row by row:
// Halide slides it down the strip; or computed whole per strip).
void schedule_pipeline(Func out, Func bx, const Schedule& s) {
  OutputLoops loops = split_into_strips(out, s);
  if (s.sliding) {
    bx.store_at(out, loops.strip).compute_at(out, loops.row);
  } else {
    bx.compute_at(out, loops.strip);
  }
  bx.vectorize(bx.args()[0], s.vector_width);
}

// Schedules out and the reduction conv it copies: conv computed per vector of out, so that its
// storage is those vector_width lanes, kept in registers through the 25 taps (Halide's default
// for a reduction is compute-innermost: here at the vector loop rather than inside its lanes),
// its pure and update steps vectorized over the same lanes, the lanes the innermost loop, the
// taps unrolled when unroll_taps.
void schedule_reduction(Func out, Func conv, const RDom& r, const Schedule& s) {
  OutputLoops loops = split_into_strips(out, s);
  Var x = conv.args()[0];
  conv.compute_at(out, loops.vectors).vectorize(x);
  conv.update().reorder(x, r.x, r.y).vectorize(x);
  if (s.unroll_taps) conv.update().unroll(r.x).unroll(r.y);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Loads Halide's autoscheduler plugin of that name once (Debian ships them beside libHalide).
void load_autoscheduler(const std::string& name) {
  static std::set<std::string> loaded;
  if (loaded.count(name)) return;
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Halide::load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_" + lower + ".so");
  loaded.insert(name);
}

// Under an autoscheduler, the manual schedule is not applied and the sizes are not limited by it.
bool manual(const Schedule& s) { return s.autoscheduler.empty(); }

// What each pipeline class keeps (its Impl adds the inputs): the schedule, and the pipeline of
// the output Func compiled for the host, with StrictFloat when the schedule asks. The target is
// kept for realize: given any other, it would compile the pipeline again.
struct CompiledPipeline {
  Schedule schedule;
  Target target;
  Pipeline pipeline;
  double compile_ms = 0;

  // Compiles out's pipeline, timing the compilation alone (the JIT runtime made before). Under
  // an autoscheduler the estimates are set and the autoscheduler runs first (its time is kept
  // apart, in autoschedule_ms).
  double autoschedule_ms = 0;
  void compile(Func out) {
    target = schedule.strict_float ? jit_target().with_feature(Target::StrictFloat) : jit_target();
    pipeline = Pipeline(out);
    if (!schedule.autoscheduler.empty()) {
      load_autoscheduler(schedule.autoscheduler);
      out.set_estimates({{0, schedule.estimate_w}, {0, schedule.estimate_h}});
      auto t0 = std::chrono::steady_clock::now();
      pipeline.auto_schedule(schedule.autoscheduler, target,
                             Halide::MachineParams(schedule.parallelism, 16 << 20, 40));
      autoschedule_ms = ms_since(t0);
    }
    jit_runtime_ms();
    auto t0 = std::chrono::steady_clock::now();
    pipeline.compile_jit(target);
    compile_ms = ms_since(t0);
  }

  // Runs the pipeline, its inputs set, into out (H rows of W) in context.
  template <typename T>
  void realize(Halide::JITUserContext& context, T* out, int W, int H) {
    Halide::Buffer<T> output(out, W, H);
    pipeline.realize(&context, output, target);
  }
};

// Thread counting for run_counting_threads: the set of threads that ran a task of the call.
std::mutex seen_mutex;
std::set<std::thread::id> seen_threads;

int counting_do_task(Halide::JITUserContext* ctx, int (*f)(Halide::JITUserContext*, int, uint8_t*),
                     int idx, uint8_t* closure) {
  {
    std::lock_guard<std::mutex> lock(seen_mutex);
    seen_threads.insert(std::this_thread::get_id());
  }
  return f(ctx, idx, closure);
}

}  // namespace

std::string to_string(const Schedule& s) {
  if (!s.autoscheduler.empty())
    return s.autoscheduler + " (estimates " + std::to_string(s.estimate_w) + "x" +
           std::to_string(s.estimate_h) + ", parallelism " + std::to_string(s.parallelism) + ")";
  std::string r = "strip_rows=" + std::to_string(s.strip_rows) +
                  " vector_width=" + std::to_string(s.vector_width);
  if (s.tile_cols > 0) r += " tile_cols=" + std::to_string(s.tile_cols);
  if (!s.sliding) r += " whole_strip";
  if (!s.unroll_taps) r += " taps_not_unrolled";
  if (s.strict_float) r += " strict_float";
  return r;
}

// apps/blur's 8 lanes and 8-row strips, and apps/unsharp's natural width, 32-row strips and
// sliding blur, each measured slower here than these (see the header).
Schedule default_blur_schedule() {
  return {.strip_rows = 64, .vector_width = 2 * jit_target().natural_vector_size<uint16_t>()};
}

Schedule default_unsharp_schedule() {
  return {.strip_rows = 64,
          .vector_width = 2 * jit_target().natural_vector_size<float>(),
          .sliding = false};
}

Schedule default_conv5x5_schedule() {
  return {.strip_rows = 8, .vector_width = 2 * jit_target().natural_vector_size<float>()};
}

struct BlurU16::Impl : CompiledPipeline {
  ImageParam in{Halide::UInt(16), 2, "in"};
};

BlurU16::BlurU16(const Schedule& schedule) : impl_(std::make_unique<Impl>()) {
  impl_->schedule = schedule;
  const ImageParam& in = impl_->in;
  Var x("x"), y("y");
  Func blur_x("blur_x"), blur_y("blur_y");
  // uint16 arithmetic throughout: the sums wrap, / 3 is unsigned division.
  blur_x(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
  blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
  if (manual(schedule)) schedule_pipeline(blur_y, blur_x, schedule);
  impl_->in.set_estimates({{0, schedule.estimate_w + 2}, {0, schedule.estimate_h + 2}});
  impl_->compile(blur_y);
}

BlurU16::~BlurU16() = default;

void BlurU16::run(int W, int H, const uint16_t* in, uint16_t* out, int threads) {
  check_size("blur_u16", W, H, impl_->schedule);
  Halide::JITUserContext context = context_for(threads);
  impl_->in.set(Halide::Buffer<uint16_t>(const_cast<uint16_t*>(in), W + 2, H + 2));
  impl_->realize(context, out, W, H);
}

int BlurU16::run_counting_threads(int W, int H, const uint16_t* in, uint16_t* out, int threads) {
  check_size("blur_u16", W, H, impl_->schedule);
  Halide::JITUserContext context = context_for(threads);
  context.handlers.custom_do_task = counting_do_task;
  {
    std::lock_guard<std::mutex> lock(seen_mutex);
    seen_threads.clear();
  }
  impl_->in.set(Halide::Buffer<uint16_t>(const_cast<uint16_t*>(in), W + 2, H + 2));
  impl_->realize(context, out, W, H);
  std::lock_guard<std::mutex> lock(seen_mutex);
  return static_cast<int>(seen_threads.size());
}

double BlurU16::compile_ms() const { return impl_->compile_ms; }

struct UnsharpF32::Impl : CompiledPipeline {
  ImageParam in{Halide::Float(32), 2, "in"};
};

UnsharpF32::UnsharpF32(const Schedule& schedule) : impl_(std::make_unique<Impl>()) {
  impl_->schedule = schedule;
  const ImageParam& in = impl_->in;
  Var x("x"), y("y");
  Func bx("blur_x"), by("blur_y"), out("unsharp");
  // Sums left to right, as written (Halide does not reassociate float arithmetic).
  bx(x, y) = 0.0625f * in(x, y) + 0.25f * in(x + 1, y) + 0.375f * in(x + 2, y) +
             0.25f * in(x + 3, y) + 0.0625f * in(x + 4, y);
  by(x, y) = 0.0625f * bx(x, y) + 0.25f * bx(x, y + 1) + 0.375f * bx(x, y + 2) +
             0.25f * bx(x, y + 3) + 0.0625f * bx(x, y + 4);
  Expr center = in(x + 2, y + 2);
  out(x, y) = center + (center - by(x, y)) * 1.5f;
  // by is inlined into out (one use per point); bx slides down each strip.
  if (manual(schedule)) schedule_pipeline(out, bx, schedule);
  impl_->in.set_estimates({{0, schedule.estimate_w + 4}, {0, schedule.estimate_h + 4}});
  impl_->compile(out);
}

UnsharpF32::~UnsharpF32() = default;

void UnsharpF32::run(int W, int H, const float* in, float* out, int threads) {
  check_size("unsharp_f32", W, H, impl_->schedule);
  Halide::JITUserContext context = context_for(threads);
  impl_->in.set(Halide::Buffer<float>(const_cast<float*>(in), W + 4, H + 4));
  impl_->realize(context, out, W, H);
}

double UnsharpF32::compile_ms() const { return impl_->compile_ms; }

struct Conv5x5F32::Impl : CompiledPipeline {
  ImageParam in{Halide::Float(32), 2, "in"};
  ImageParam w{Halide::Float(32), 2, "w"};
};

Conv5x5F32::Conv5x5F32(const Schedule& schedule) : impl_(std::make_unique<Impl>()) {
  impl_->schedule = schedule;
  const ImageParam& in = impl_->in;
  ImageParam& w = impl_->w;
  // w is always a dense 5x5 block: with its shape known, each weight is a load at a constant
  // offset.
  w.dim(0).set_bounds(0, 5);
  w.dim(1).set_bounds(0, 5).set_stride(5);
  Var x("x"), y("y");
  Func conv("conv"), out("conv5x5");
  // r.x (dx) is the inner loop of the reduction, r.y (dy) the outer, as in the definition; each
  // tap adds to the sum so far (Halide does not reassociate float arithmetic).
  RDom r(0, 5, 0, 5, "r");
  conv(x, y) = 0.0f;
  conv(x, y) += w(r.x, r.y) * in(x + r.x, y + r.y);
  out(x, y) = conv(x, y);
  if (manual(schedule)) schedule_reduction(out, conv, r, schedule);
  impl_->in.set_estimates({{0, schedule.estimate_w + 4}, {0, schedule.estimate_h + 4}});
  w.set_estimates({{0, 5}, {0, 5}});
  impl_->compile(out);
}

Conv5x5F32::~Conv5x5F32() = default;

void Conv5x5F32::run(int W, int H, const float* in, const float* w, float* out, int threads) {
  check_size("conv5x5_f32", W, H, impl_->schedule);
  Halide::JITUserContext context = context_for(threads);
  impl_->in.set(Halide::Buffer<float>(const_cast<float*>(in), W + 4, H + 4));
  impl_->w.set(Halide::Buffer<float>(const_cast<float*>(w), 5, 5));
  impl_->realize(context, out, W, H);
}

double Conv5x5F32::compile_ms() const { return impl_->compile_ms; }

namespace {

BlurU16& default_blur() {
  static BlurU16 pipeline(default_blur_schedule());
  return pipeline;
}

UnsharpF32& default_unsharp() {
  static UnsharpF32 pipeline(default_unsharp_schedule());
  return pipeline;
}

Conv5x5F32& default_conv5x5() {
  static Conv5x5F32 pipeline(default_conv5x5_schedule());
  return pipeline;
}

}  // namespace

void blur_u16(int W, int H, const uint16_t* in, uint16_t* out, int threads) {
  default_blur().run(W, H, in, out, threads);
}

void unsharp_f32(int W, int H, const float* in, float* out, int threads) {
  default_unsharp().run(W, H, in, out, threads);
}

void conv5x5_f32(int W, int H, const float* in, const float* w, float* out, int threads) {
  default_conv5x5().run(W, H, in, w, out, threads);
}

CompileTimes init() {
  return {jit_runtime_ms(), default_blur().compile_ms(), default_unsharp().compile_ms(),
          default_conv5x5().compile_ms()};
}

std::string target_string() { return jit_target().to_string(); }

int blur_threads_used(int W, int H, const uint16_t* in, uint16_t* out, int threads) {
  return default_blur().run_counting_threads(W, H, in, out, threads);
}

void blur_u16_reference(int W, int H, const uint16_t* in, uint16_t* out) {
  const size_t stride = static_cast<size_t>(W) + 2;
  auto bx = [&](int x, int y) {
    const uint16_t* r = in + y * stride + x;
    uint16_t s = static_cast<uint16_t>(r[0] + r[1] + r[2]);
    return static_cast<uint16_t>(s / 3);
  };
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      uint16_t s = static_cast<uint16_t>(bx(x, y) + bx(x, y + 1) + bx(x, y + 2));
      out[static_cast<size_t>(y) * W + x] = static_cast<uint16_t>(s / 3);
    }
  }
}

void unsharp_f32_reference(int W, int H, const float* in, float* out) {
  const size_t stride = static_cast<size_t>(W) + 4;
  auto at = [&](int x, int y) { return in[y * stride + x]; };
  auto bx = [&](int x, int y) {
    return 0.0625f * at(x, y) + 0.25f * at(x + 1, y) + 0.375f * at(x + 2, y) +
           0.25f * at(x + 3, y) + 0.0625f * at(x + 4, y);
  };
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      float by = 0.0625f * bx(x, y) + 0.25f * bx(x, y + 1) + 0.375f * bx(x, y + 2) +
                 0.25f * bx(x, y + 3) + 0.0625f * bx(x, y + 4);
      float c = at(x + 2, y + 2);
      out[static_cast<size_t>(y) * W + x] = c + (c - by) * 1.5f;
    }
  }
}

void conv5x5_f32_reference(int W, int H, const float* in, const float* w, float* out) {
  const size_t stride = static_cast<size_t>(W) + 4;
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      float sum = 0.0f;
      for (int dy = 0; dy < 5; ++dy) {
        for (int dx = 0; dx < 5; ++dx) sum = sum + w[dy * 5 + dx] * in[(y + dy) * stride + x + dx];
      }
      out[static_cast<size_t>(y) * W + x] = sum;
    }
  }
}

}  // namespace halide_peer
