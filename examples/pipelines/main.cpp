// pipelines_gen: schedules the pipelines of pipelines.exo (serial and parallel) and writes
// pipelines.c / pipelines.h into the given folder.
//
//   pipelines_gen OUT_DIR [--print] [--tile ROWSxCOLS]
//
// The emitted functions take row-major dense images (see pipelines.exo):
//   void blur(void *ctxt, int_fast32_t H, int_fast32_t W, const uint16_t *inp, uint16_t *out);
//   void unsharp(void *ctxt, int_fast32_t H, int_fast32_t W, const float *inp, float *out);
// and blur_parallel / unsharp_parallel on OpenMP's threads. AVX-512 (BW for blur) is needed to
// run them.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "pipelines_schedule.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::cerr << "usage: pipelines_gen OUT_DIR [--print] [--tile ROWSxCOLS]\n"
                 "Schedules examples/pipelines/pipelines.exo (a uint16 3x3 blur and an f32 "
                 "unsharp mask) for AVX-512\nand writes OUT_DIR/pipelines.c and pipelines.h.\n";
    return argc < 2 ? 2 : 0;
  }
  bool print = false;
  pipelines_example::PipelineOptions opts;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--print") == 0) {
      print = true;
    } else if (std::strcmp(argv[i], "--unroll") == 0 && i + 1 < argc) {
      opts.unroll = std::stoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--tile") == 0 && i + 1 < argc &&
               std::sscanf(argv[i + 1], "%dx%d", &opts.tile_rows, &opts.tile_cols) == 2) {
      ++i;
    } else {
      std::cerr << "pipelines_gen: unknown argument '" << argv[i] << "'\n";
      return 2;
    }
  }
  try {
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::vector<exocpp::Proc> procs;
    for (bool parallel : {false, true}) {
      opts.parallel = parallel;
      for (auto schedule : {pipelines_example::schedule_blur, pipelines_example::schedule_unsharp,
                            pipelines_example::schedule_conv5x5}) {
        auto t0 = std::chrono::steady_clock::now();
        procs.push_back(schedule(opts));
        std::cerr << "pipelines_gen: " << procs.back().name() << " scheduled in "
                  << ms(std::chrono::steady_clock::now() - t0) << " ms\n";
      }
    }
    exocpp::emit_c(procs, "pipelines", argv[1]);
    std::cerr << "pipelines_gen: wrote " << argv[1] << "/pipelines.c, pipelines.h\n";
    if (print)
      for (const exocpp::Proc& p : procs) std::cout << p << "\n";
    return 0;
  } catch (const exocpp::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
