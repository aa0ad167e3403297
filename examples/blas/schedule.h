// The GEMM schedule: turns the plain three-loop `gemm` of gemm.exo into an AVX-512 kernel with
// exocpp's public scheduling operations only, at either precision (SGEMM, DGEMM) from the one
// script, serial or with the row tiles of each packed block run in parallel (OpenMP). Used by
// the generator program (main.cpp), the correctness tests (tests/examples) and the benchmark
// (bench/blas).
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace blas_example {

// A precision the schedule is instantiated at. The register tile is 6 rows by four AVX-512
// registers of columns: 6 x 64 in f32, 6 x 32 in f64 (24 accumulators either way).
struct Precision {
  const char* blas_letter;  // "s" or "d": the prefix of every proc the schedule makes
  const char* type;         // the exocpp data type: "f32" or "f64"
  int lanes;                // elements per AVX-512 register
  int bytes;                // bytes per element

  int tile_rows() const { return 6; }
  int tile_columns() const { return 4 * lanes; }
  std::string name(const std::string& base) const { return blas_letter + base; }
};
inline constexpr Precision kSingle{"s", "f32", 16, 4};
inline constexpr Precision kDouble{"d", "f64", 8, 8};

struct ScheduleOptions {
  int kc = 0;          // K block (rows of a packed B panel); 0: kc_for_this_machine()
  int panels = 0;      // NR-column panels of B packed as one block (at least 2); 0: the machine's
  bool pack_b = true;  // copy each kc x (panels NR) block of B into dense panels (stage_mem)
  bool vectorize = true;  // schedule the tiles into AVX-512 (false: plain loops, for debugging)
  bool parallel = false;  // the row tiles of each packed block as a `par` loop (OpenMP threads)
};

// The size in bytes of this machine's level-`level` data cache (1, 2 or 3), as one core sees
// it: Linux's /sys/devices/system/cpu/cpu0/cache, else sysconf, made sane (sane_cache_bytes).
long cache_bytes(int level);
// A reported cache size the block sizes can trust: none (0 or negative) gives 32 KiB, 1 MiB or
// 8 MiB; a size outside what one core of an x86 part sees (L1 16-128 KiB, L2 256 KiB-4 MiB,
// L3 2-64 MiB) is clamped into that range. Virtual machines report host-wide or made-up L3
// sizes (508 MiB on one, with no /sys cache information), which would make the B blocks spill.
long sane_cache_bytes(int level, long reported);

// The K block this machine's caches call for: the largest power of two whose packed B panel
// (kc x tile_columns elements) fills at most a quarter of L2, so that the panel a row tile
// reads stays in L2 beside the block's other panels, C's tile and A's rows.
int kc_for_this_machine(const Precision& prec);

// The panels of B packed as one block: the largest power of two (2 to 64) whose block
// (kc x panels NR elements) fills at most an eighth of L3, so that a block stays in L3 while
// the row tiles sweep it and each row tile's A stays in L1 across the block's panels.
int panels_for_this_machine(const Precision& prec, int kc);

// The text of gemm.exo (embedded at build time).
const std::string& gemm_source();

// A proc of gemm.exo at `prec`: renamed with the BLAS letter (gemm_tile -> dgemm_tile), every
// data argument (written in R) set to the precision (set_precision), and the tile width NR,
// where it has one, fixed to prec.tile_columns() (partial_eval).
exocpp::Proc instantiate(const exocpp::Proc& generic, const Precision& prec);

// The plain `gemm` of gemm.exo at `prec`, named sgemm / dgemm: the specification every
// schedule of it must compute.
exocpp::Proc plain_gemm(const Precision& prec);

// The scheduled gemm, named sgemm / dgemm (sgemm_parallel / dgemm_parallel with
// opts.parallel); emit_c({result, ...}, "blas") writes it and every kernel it calls.
exocpp::Proc schedule_gemm(const Precision& prec, const ScheduleOptions& opts = {});

// The GEMM as a tuning space (search/choices.h, docs/search.md) over what the hand schedule
// derives from the caches: the K block `kc` (64 to 768) and the NR-column panels of B packed as
// one block `panels` (2 to 64), and whether B is packed at all. The register tile stays the
// precision's (6 x 4 registers: the register file decides it, not the caches). `p` must be
// plain_gemm(prec), which every candidate is checked against; each decision is recorded as the
// ScheduleOptions field it sets (Choices::note).
exocpp::Proc gemm_space(const Precision& prec, const exocpp::Proc& p, exocpp::search::Choices& c);

// The procs that make the gemm a BLAS gemm (blas_like.h), at `prec`: sgemm_scale (C = beta C),
// sgemm_copy (dst = alpha src) and sgemm_copy_transposed (dst = alpha src^T, in 16 x 16 tiles so
// that both sides of the copy stay in cache); d* in f64.
std::vector<exocpp::Proc> schedule_blas_helpers(const Precision& prec);

}  // namespace blas_example
