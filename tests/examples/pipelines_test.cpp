// examples/pipelines: the scheduled blur, unsharp mask and 5x5 convolution compute what the plain
// procs compute
// (interpreted, on inputs across the whole uint16 range so the sums wrap), the emitted C agrees
// with the interpreter, and the generated library's entry points (exocpp_pipelines.h) agree
// with the plain procs, serial and parallel.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <vector>

#include "exocpp_pipelines.h"
#include "pipelines_schedule.h"

namespace {

using namespace exocpp;
using pipelines_example::PipelineOptions;

bool has_avx512bw() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}

// Inputs across the whole uint16 range (blur) or small floats (unsharp).
CompareProcsOptions whole_range(bool u16) {
  CompareProcsOptions o;
  o.trials = 2;
  o.inputs.lo = u16 ? 0 : -4;
  o.inputs.hi = u16 ? 65535 : 4;
  return o;
}

TEST(Pipelines, BlurScheduleComputesThePlainBlur) {
  for (bool parallel : {false, true}) {
    Proc q = pipelines_example::schedule_blur({.parallel = parallel});
    for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {33, 70}, {70, 129}})
      EXPECT_EQ(compare_procs(pipelines_example::plain_blur(), q, {{"H", h}, {"W", w}}, 1,
                              whole_range(true)),
                "")
          << h << "x" << w << (parallel ? " parallel" : "");
  }
}

TEST(Pipelines, UnsharpScheduleComputesThePlainUnsharpMask) {
  for (bool parallel : {false, true}) {
    Proc q = pipelines_example::schedule_unsharp({.parallel = parallel});
    for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {33, 40}})
      EXPECT_EQ(compare_procs(pipelines_example::plain_unsharp(), q, {{"H", h}, {"W", w}}, 1,
                              whole_range(false)),
                "")
          << h << "x" << w << (parallel ? " parallel" : "");
  }
}

// Real-valued inputs in [-1, 1]: every product and partial sum rounds, so only a schedule that
// keeps the order of the 25 additions agrees bit for bit.
TEST(Pipelines, Conv5x5ScheduleComputesThePlainConvolutionInOrder) {
  CompareProcsOptions reals;
  reals.trials = 2;
  reals.inputs.integer_valued = false;
  reals.inputs.lo = -1;
  reals.inputs.hi = 1;
  for (bool parallel : {false, true}) {
    Proc q = pipelines_example::schedule_conv5x5({.parallel = parallel});
    for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {33, 47}})
      EXPECT_EQ(
          compare_procs(pipelines_example::plain_conv5x5(), q, {{"H", h}, {"W", w}}, 1, reals), "")
          << h << "x" << w << (parallel ? " parallel" : "");
  }
}

// Another shape of schedule: tiles of rows and columns, no sliding, no unrolling.
TEST(Pipelines, TiledBlurComputesThePlainBlur) {
  Proc q = pipelines_example::schedule_blur(
      {.tile_rows = 8, .tile_cols = 64, .sliding = false, .unroll = 1});
  EXPECT_EQ(compare_procs(pipelines_example::plain_blur(), q, {{"H", 19}, {"W", 150}}, 1,
                          whole_range(true)),
            "");
}

TEST(Pipelines, EmittedBlurAgreesWithTheInterpreter) {
  if (!has_avx512bw()) GTEST_SKIP() << "this CPU has no AVX-512 BW: the kernels cannot run";
  CompileOptions native{"cc", {"-O2", "-march=native", "-Wall", "-Werror"}};
  for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {40, 97}})
    EXPECT_EQ(compare_compiled_with_interpreter(pipelines_example::schedule_blur(),
                                                {{"H", h}, {"W", w}}, 3, native),
              "");
}

// The generated library's entry points on a 67 x 45 image (a partial strip and a partial
// vector) against the interpreted plain procs.
TEST(Pipelines, GeneratedEntryPointsAgreeWithThePlainProcs) {
  if (!has_avx512bw()) GTEST_SKIP() << "this CPU has no AVX-512 BW: the kernels cannot run";
  const int W = 67, H = 45;
  RandomArgsOptions u16;
  u16.lo = 0;
  u16.hi = 65535;
  std::vector<ArgValue> blur_args =
      random_args(pipelines_example::plain_blur(), {{"H", H}, {"W", W}}, 7, u16);
  interpret(pipelines_example::plain_blur(), blur_args);
  const Buffer &in = std::get<Buffer>(blur_args[2]), &want = std::get<Buffer>(blur_args[3]);
  std::vector<uint16_t> pixels((H + 2) * (W + 2)), out(H * W);
  for (int y = 0; y < H + 2; ++y)
    for (int x = 0; x < W + 2; ++x) pixels[y * (W + 2) + x] = uint16_t(in.get({y, x}));
  for (int threads : {1, 2}) {
    exocpp_blur_u16(W, H, pixels.data(), out.data(), threads);
    int bad = 0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) bad += out[y * W + x] != want.get({y, x});
    EXPECT_EQ(bad, 0) << threads << " thread(s)";
  }

  std::vector<ArgValue> sharp_args =
      random_args(pipelines_example::plain_unsharp(), {{"H", H}, {"W", W}}, 8);
  Buffer &img = std::get<Buffer>(sharp_args[2]);
  interpret(pipelines_example::plain_unsharp(), sharp_args);
  const Buffer &sharp = std::get<Buffer>(sharp_args[3]);
  std::vector<float> fin((H + 4) * (W + 4)), fout(H * W);
  for (int y = 0; y < H + 4; ++y)
    for (int x = 0; x < W + 4; ++x) fin[y * (W + 4) + x] = float(img.get({y, x}));
  for (int threads : {1, 2}) {
    exocpp_unsharp_f32(W, H, fin.data(), fout.data(), threads);
    int bad = 0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) bad += fout[y * W + x] != float(sharp.get({y, x}));
    EXPECT_EQ(bad, 0) << threads << " thread(s)";
  }

  RandomArgsOptions reals;
  reals.integer_valued = false;
  reals.lo = -1;
  reals.hi = 1;
  std::vector<ArgValue> conv_args =
      random_args(pipelines_example::plain_conv5x5(), {{"H", H}, {"W", W}}, 9, reals);
  const Buffer &cin = std::get<Buffer>(conv_args[2]), &cw = std::get<Buffer>(conv_args[3]);
  std::vector<float> weights(25);
  for (int k = 0; k < 25; ++k) weights[k] = float(cw.get({k / 5, k % 5}));
  for (int y = 0; y < H + 4; ++y)
    for (int x = 0; x < W + 4; ++x) fin[y * (W + 4) + x] = float(cin.get({y, x}));
  interpret(pipelines_example::plain_conv5x5(), conv_args);
  const Buffer &conv = std::get<Buffer>(conv_args[4]);
  for (int threads : {1, 2}) {
    exocpp_conv5x5_f32(W, H, fin.data(), weights.data(), fout.data(), threads);
    int bad = 0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) bad += fout[y * W + x] != float(conv.get({y, x}));
    EXPECT_EQ(bad, 0) << "conv5x5, " << threads << " thread(s)";
  }
}

}  // namespace
