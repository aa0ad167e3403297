// The image pipelines of pipelines.exo scheduled with the Halide-style operations of
// rewrites/composites.h (compute_and_store_at, vectorize) on AVX-512: each stage's loops cut
// into tiles, the first pass computed per tile with its halo, every innermost loop in
// registers, and the rows of tiles parallel on request. Public API only.
#pragma once

#include <exocpp/exocpp.h>

namespace pipelines_example {

struct PipelineOptions {
  // Output tiles of tile_rows x tile_cols: one tile of the first pass (with its halo) stays in
  // L1 while the second pass reads it. The partial tiles at the bottom and the right are
  // computed as two more blocks.
  int tile_rows = 32;
  int tile_cols = 0;
  // With tile_cols == 0: strips of whole rows whose first pass slides down the strip
  // (sliding_window) instead of being computed whole first.
  bool sliding = true;
  int unroll = 2;         // vectors per iteration of the vector loops
  bool parallel = false;  // the rows of tiles as a par loop (OpenMP), named <pipeline>_parallel
};

// The plain procs of pipelines.exo.
exocpp::Proc plain_blur();
exocpp::Proc plain_unsharp();
exocpp::Proc plain_conv5x5();

// The scheduled procs (same arguments, same results: each step is checked).
exocpp::Proc schedule_blur(const PipelineOptions& opts = {});
exocpp::Proc schedule_unsharp(const PipelineOptions& opts = {});
exocpp::Proc schedule_conv5x5(const PipelineOptions& opts = {});

}  // namespace pipelines_example
