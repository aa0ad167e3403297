// The integer GEMM schedule: the plain `gemm_u8s8` of gemm_u8s8.exo (unsigned bytes times
// signed bytes into 32-bit integers, B packed in 64-column panels in VNNI's order) scheduled into
// AVX512-VNNI
// kernels with public operations only: 6-row by 64-column register tiles, and one tile of the
// M % 6 bottom rows, each a vpdpbusd per row and 16 columns per 4 values of K.
#pragma once

#include <exocpp/exocpp.h>

#include <string>

namespace blas_example {

// The text of gemm_u8s8.exo (embedded at build time).
const std::string& gemm_u8s8_source();

// The plain `gemm_u8s8`: the specification its schedule computes.
exocpp::Proc plain_gemm_u8s8();

// gemm_u8s8_rows with MR fixed to `rows` (1 to 6): the specification of a tile, named
// gemm_u8s8_<rows>x64.
exocpp::Proc u8s8_tile_spec(int rows);

// A tile's specification (u8s8_tile_spec(rows)) scheduled into a register kernel: C's rows x 64
// tile in 4 x rows zmm registers across the K loop, per 4 values of K one broadcast of A's 4
// bytes per row and one vpdpbusd per row and 16 columns. Named <spec>_vnni.
exocpp::Proc schedule_u8s8_kernel(const exocpp::Proc& spec, int rows);

// The scheduled gemm_u8s8 (named gemm_u8s8): emit_c({result}, ...) writes it and its kernels.
// Needs AVX512-VNNI to run (compile with -mavx512vnni).
exocpp::Proc schedule_gemm_u8s8();

}  // namespace blas_example
