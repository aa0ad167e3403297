// The dot-product GEMMs of inference: C[M, N] += A[M, K] * B[K, N] with B packed once ahead of
// time in 64-column panels, in the order an AVX-512 dot-product instruction reads it, scheduled
// into register kernels with public operations only: 6-row by 64-column tiles (C in 6 x 4 zmm
// registers across the K loop) and one tile of the M % 6 bottom rows, each one dot-product
// instruction per row and 16 columns per group of K values (4 or 2).
//
//   u8s8 (gemm_u8s8.exo)  unsigned bytes x signed bytes into wrapping i32: vpdpbusd
//                         (AVX512-VNNI), K in groups of 4, B[k, n] = Bp[n/64, k/4, n%64, k%4]
//   bf16 (gemm_bf16.exo)  bfloat16 x bfloat16 into f32: vdpbf16ps (AVX512-BF16), K in pairs,
//                         B[k, n] = Bp[n/64, k/2, n%64, k%2]
#pragma once

#include <exocpp/exocpp.h>
#include <hwlibs/x86/x86.h>

#include <string>

namespace blas_example {

// One dot-product GEMM: its specification and the instructions its kernels use.
struct DotGemm {
  std::string name;             // "u8s8": the procs gemm_u8s8 and gemm_u8s8_rows
  std::string file;             // "gemm_u8s8.exo"
  const std::string* source;    // its text (embedded at build time)
  exocpp::x86::InstrRef dot;    // the dot product, one operand broadcast
  exocpp::x86::InstrRef load;   // C's 16 accumulators from memory
  exocpp::x86::InstrRef store;  //   and back
  std::string kernel_suffix;    // "_vnni": a kernel is named <tile spec><suffix>
};

const DotGemm& u8s8_gemm();
const DotGemm& bf16_gemm();

// The plain gemm_<name>: the specification its schedule computes.
exocpp::Proc plain_dot_gemm(const DotGemm& g);

// gemm_<name>_rows with MR fixed to `rows` (1 to 6): the specification of a tile, named
// gemm_<name>_<rows>x64.
exocpp::Proc dot_tile_spec(const DotGemm& g, int rows);

// A tile's specification scheduled into a register kernel: C's rows x 64 tile in 4 x rows zmm
// registers across the K loop, per group of K values one broadcast of A's values per row and
// one dot-product instruction per row and 16 columns. Named <spec><kernel_suffix>.
exocpp::Proc schedule_dot_kernel(const DotGemm& g, const exocpp::Proc& spec, int rows);

// The scheduled gemm_<name>: emit_c({result}, ...) writes it and its kernels. Runs only where
// the CPU has the instruction (compile with -mavx512vnni or -mavx512bf16).
exocpp::Proc schedule_dot_gemm(const DotGemm& g);

}  // namespace blas_example
