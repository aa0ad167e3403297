// The tiny instruction library the replace tests unify against (DRAM only, plus a test memory
// VEC for the memory checks), written as a user would write one.
#pragma once

#include "rewrite_test_util.h"
#include "rewrites/replace.h"

namespace exocpp::testing {

// A register-like memory that plain code may still read (so the interpreter can check).
class VecMemory : public Memory {
 public:
  std::string name() const override { return "VEC"; }
};

inline const char* kReplaceLib = R"(@instr("vld({dst_data}, {src_data});")
def vld(dst: [f32][16] @ DRAM, src: [f32][16] @ DRAM):
    assert stride(src, 0) == 1
    assert stride(dst, 0) == 1
    for i in seq(0, 16):
        dst[i] = src[i]

@instr("vfma({dst_data}, {a_data}, {b_data});")
def vfma(dst: [f32][16] @ DRAM, a: [f32][16] @ DRAM, b: [f32][16] @ DRAM):
    assert stride(a, 0) == 1
    assert stride(b, 0) == 1
    assert stride(dst, 0) == 1
    for i in seq(0, 16):
        dst[i] += a[i] * b[i]

@instr("vfma_bcast({dst_data}, {a_data}, {b_data});")
def vfma_bcast(dst: [f32][16] @ DRAM, a: [f32][1] @ DRAM, b: [f32][16] @ DRAM):
    assert stride(b, 0) == 1
    assert stride(dst, 0) == 1
    for i in seq(0, 16):
        dst[i] += a[0] * b[i]

@instr("vfma_scalar({dst_data}, {a_data}, {b_data});")
def vfma_scalar(dst: [f32][16] @ DRAM, a: f32 @ DRAM, b: [f32][16] @ DRAM):
    for i in seq(0, 16):
        dst[i] += a * b[i]

@instr("viota({base}, {dst_data});")
def viota(base: index, dst: [i32][16] @ DRAM):
    for i in seq(0, 16):
        dst[i] = base + i

@instr("vcopy_n({n}, {dst_data}, {src_data});")
def vcopy_n(n: size, dst: [f32][n] @ DRAM, src: [f32][n] @ DRAM):
    assert n <= 16
    for i in seq(0, n):
        dst[i] = src[i]

@instr("vmasked({m}, {dst_data}, {src_data});")
def vmasked(m: index, dst: [f32][16] @ DRAM, src: [f32][16] @ DRAM):
    assert m <= 16
    for i in seq(0, 16):
        if i < m:
            dst[i] = src[i]

@instr("vmaskz({N}, {dst_data}, {src_data});")
def vmaskz(N: size, dst: [f32][16] @ DRAM, src: [f32][N] @ DRAM):
    assert stride(src, 0) == 1
    assert N <= 16
    for i in seq(0, 16):
        if i < N:
            dst[i] = src[i]
        else:
            dst[i] = 0.0

@instr("vmask_copy({N}, {dst_data}, {src_data});")
def vmask_copy(N: size, dst: [f32][N] @ DRAM, src: [f32][N] @ DRAM):
    assert stride(src, 0) == 1
    assert stride(dst, 0) == 1
    assert N <= 16
    for i in seq(0, 16):
        if i < N:
            dst[i] = src[i]

@instr("tile_copy({dst_data}, {src_data});")
def tile_copy(dst: [f32][4, 4] @ DRAM, src: [f32][4, 4] @ DRAM):
    assert stride(src, 1) == 1
    assert stride(dst, 1) == 1
    for i in seq(0, 4):
        for j in seq(0, 4):
            dst[i, j] = src[i, j]

@instr("vzero({dst_data});")
def vzero(dst: [f32][16] @ DRAM):
    for i in seq(0, 16):
        dst[i] = 0.0

@instr("vld_vec({dst_data}, {src_data});")
def vld_vec(dst: [f32][16] @ VEC, src: [f32][16] @ DRAM):
    for i in seq(0, 16):
        dst[i] = src[i]
)";

// The instruction library, parsed once (the VEC memory registered first).
inline const Module& replace_lib() {
  static Module m = [] {
    register_memory(std::make_shared<VecMemory>());
    return parse_module(kReplaceLib, {}, "<lib>");
  }();
  return m;
}
inline Proc instr(const std::string& name) { return replace_lib().proc(name); }

}  // namespace exocpp::testing
