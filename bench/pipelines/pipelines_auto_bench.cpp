// The image pipelines of examples/pipelines (blur u16, unsharp f32, conv5x5 f32) scheduled
// without a template: exocpp's auto_schedule (search/sketch.h over the x86 library, every
// candidate proved and verified) against Halide 14's own autoschedulers (Mullapudi2016 and
// Adams2019, Debian's plugins) on the same pipelines, and against exocpp's hand schedules
// (examples/pipelines, parallel), all at 1920x1080 on two threads, timed side by side in
// interleaved rounds (medians). exocpp's procs are compiled alike (the driver's compiler,
// -O3 -march=native, OpenMP for `par`); Halide's JIT for the host.
//
//   pipelines_auto_bench [TRIALS [MINUTES_PER_PIPELINE]]      (defaults: 30 trials, 8 minutes)
//
// Halide's autoscheduled pipelines are checked against the plain references first (blur bit for
// bit, the float ones to a relative error of 1e-5), exocpp's by the search itself.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gomp_spin.h"
#include "halide_pipelines.h"
#include "hwlibs/x86/x86.h"
#include "pipelines_schedule.h"

using namespace exocpp;

namespace {

using Clock = std::chrono::steady_clock;
constexpr int W = 1920, H = 1080, kThreads = 2;

template <typename T>
bool close(const std::vector<T>& got, const std::vector<T>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (got[i] != want[i]) return false;
    } else if (std::abs(double(got[i]) - double(want[i])) >
               1e-5 * std::max(1.0, std::abs(double(want[i])))) {
      return false;
    }
  }
  return true;
}

struct Contender {
  std::string name;
  std::function<void()> run;
  std::string note;
};

// A proc compiled for timing, on its own random arguments.
struct ExocppCall {
  std::unique_ptr<CompiledLibrary> lib;
  CompiledLibrary::PreparedCall call;
};
ExocppCall compile_exocpp(const Proc& p, const std::string& lib_name) {
  const search::MeasureOptions m;
  auto lib = std::make_unique<CompiledLibrary>(std::vector<Proc>{p}, lib_name, m.compile);
  CompiledLibrary::PreparedCall call =
      lib->prepare(p.name(), random_args(p, {{"H", H}, {"W", W}}, 1));
  return {std::move(lib), std::move(call)};
}

// Every contender once more to warm up, then 15 interleaved rounds (search::time_side_by_side).
void time_side_by_side(const std::string& pipeline, std::vector<Contender>& cs) {
  std::vector<std::function<void()>> runs;
  for (Contender& c : cs) {
    c.run();
    runs.push_back(c.run);
  }
  const std::vector<double> t = search::time_side_by_side(runs, 15);
  const double auto_ms = t[0] * 1e3;
  for (size_t i = 0; i < cs.size(); ++i)
    std::printf("RESULT %s %-26s %8.3f ms   speed of exocpp auto against it %.2fx%s%s\n",
                pipeline.c_str(), cs[i].name.c_str(), t[i] * 1e3, t[i] * 1e3 / auto_ms,
                cs[i].note.empty() ? "" : "   ", cs[i].note.c_str());
  std::fflush(stdout);
}

search::TuneResult tune_pipeline(const Proc& plain, int trials, double minutes) {
  search::TuneOptions o;
  o.seed = 1;
  o.trials = trials;
  o.max_seconds = minutes * 60;
  o.sizes = {{"H", H}, {"W", W}};
  o.verify_sizes = {{"H", 11}, {"W", 37}};
  o.progress = [&](const search::Progress& at) {
    std::printf("  %s: trial %d: %.3f ms (best %.3f ms)\n", plain.name().c_str(), at.trial,
                at.seconds * 1e3, at.best_seconds * 1e3);
    std::fflush(stdout);
  };
  search::TuneResult r = search::auto_schedule(plain, x86::sketch_options(), o);
  std::printf("%s\n%s\n", r.report().c_str(), r.script().c_str());
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  rerun_with_short_gomp_spin(argv, "pipelines_auto_bench");
  const int trials = argc > 1 ? std::atoi(argv[1]) : 30;
  const double minutes = argc > 2 ? std::atof(argv[2]) : 8;
  std::printf("CPU: %s; Halide target %s; %d threads; %dx%d; GOMP_SPINCOUNT %s\n",
              search::cpu_model().c_str(), halide_peer::target_string().c_str(), kThreads, W, H,
              std::getenv("GOMP_SPINCOUNT"));
  std::mt19937 rng(3);
  std::vector<uint16_t> in16(size_t(W + 2) * (H + 2)), out16(size_t(W) * H), ref16(out16.size());
  for (uint16_t& v : in16) v = uint16_t(rng());
  std::vector<float> inf(size_t(W + 4) * (H + 4)), outf(size_t(W) * H), reff(outf.size());
  std::uniform_real_distribution<float> d(-1, 1);
  for (float& v : inf) v = d(rng);
  std::vector<float> weights(25);
  for (float& v : weights) v = d(rng);

  for (const std::string pipeline : {"blur", "unsharp", "conv5x5"}) {
    const Proc plain = pipeline == "blur"      ? pipelines_example::plain_blur()
                       : pipeline == "unsharp" ? pipelines_example::plain_unsharp()
                                               : pipelines_example::plain_conv5x5();
    const Clock::time_point t0 = Clock::now();
    search::TuneResult r = tune_pipeline(plain, trials, minutes);
    const double search_s = std::chrono::duration<double>(Clock::now() - t0).count();
    pipelines_example::PipelineOptions hand_opts;
    hand_opts.parallel = true;
    const Proc hand = pipeline == "blur"      ? pipelines_example::schedule_blur(hand_opts)
                      : pipeline == "unsharp" ? pipelines_example::schedule_unsharp(hand_opts)
                                              : pipelines_example::schedule_conv5x5(hand_opts);
    ExocppCall found = compile_exocpp(r.best, "auto_" + pipeline);
    ExocppCall by_hand = compile_exocpp(hand, "hand_" + pipeline);

    std::vector<Contender> cs;
    cs.push_back({"exocpp auto_schedule", [&] { found.call.run(); },
                  "search " + std::to_string(int(search_s)) + " s, " +
                      std::to_string(r.timed.size()) + " timed"});
    cs.push_back({"exocpp by hand", [&] { by_hand.call.run(); }, ""});
    std::vector<std::unique_ptr<halide_peer::BlurU16>> blurs;
    std::vector<std::unique_ptr<halide_peer::UnsharpF32>> unsharps;
    std::vector<std::unique_ptr<halide_peer::Conv5x5F32>> convs;
    for (const char* as : {"Mullapudi2016", "Adams2019"}) {
      halide_peer::Schedule s{.strip_rows = 1, .vector_width = 1};
      s.autoscheduler = as;
      s.parallelism = kThreads;
      bool ok = false;
      std::function<void()> run;
      if (pipeline == "blur") {
        blurs.push_back(std::make_unique<halide_peer::BlurU16>(s));
        auto* b = blurs.back().get();
        run = [b, &in16, &out16] { b->run(W, H, in16.data(), out16.data(), kThreads); };
        run();
        halide_peer::blur_u16_reference(W, H, in16.data(), ref16.data());
        ok = close(out16, ref16);
      } else if (pipeline == "unsharp") {
        unsharps.push_back(std::make_unique<halide_peer::UnsharpF32>(s));
        auto* u = unsharps.back().get();
        run = [u, &inf, &outf] { u->run(W, H, inf.data(), outf.data(), kThreads); };
        run();
        halide_peer::unsharp_f32_reference(W, H, inf.data(), reff.data());
        ok = close(outf, reff);
      } else {
        convs.push_back(std::make_unique<halide_peer::Conv5x5F32>(s));
        auto* c = convs.back().get();
        run = [c, &inf, &weights, &outf] {
          c->run(W, H, inf.data(), weights.data(), outf.data(), kThreads);
        };
        run();
        halide_peer::conv5x5_f32_reference(W, H, inf.data(), weights.data(), reff.data());
        ok = close(outf, reff);
      }
      if (!ok) {
        std::printf("CHECK %s Halide %s: output differs from the reference\n", pipeline.c_str(),
                    as);
        return 1;
      }
      cs.push_back({std::string("Halide ") + as, run, ""});
    }
    time_side_by_side(pipeline, cs);
  }
  return 0;
}
