// Shared by the ports of Exo's tests/test_schedules.py (the operations' test files in
// tests/rewrites/): the memories Exo's procs name and the AVX2 instructions the
// replace_* cases use, written in the port since this test binary does not link hwlibs/x86.
#pragma once

#include "rewrite_test_util.h"

namespace exocpp::exo_port {

using namespace exocpp::testing;

// Exo's GEMM_SCRATCH (exo.libs.memories): an accelerator scratchpad plain code may not touch.
class GemmScratch : public Memory {
 public:
  std::string name() const override { return "GEMM_SCRATCH"; }
  bool can_read() const override { return false; }
};

// Exo's AVX2 register memory (exo.platforms.x86), for the replace_* cases. Registered under the
// name Exo's procs use; the real one lives in hwlibs/x86, which this test binary does not link.
class Avx2Regs : public Memory {
 public:
  std::string name() const override { return "AVX2"; }
  bool can_read() const override { return false; }
};

inline void register_port_memories() {
  static bool done = (register_memory(std::make_shared<GemmScratch>()),
                      register_memory(std::make_shared<Avx2Regs>()), true);
  (void)done;
}

// The three AVX2 instructions the replace_* cases use, with Exo's signatures and bodies.
inline constexpr char kAvx2[] = R"(@instr("{dst_data} = _mm256_loadu_ps(&{src_data});")
def mm256_loadu_ps(dst: [f32][8] @ AVX2, src: [f32][8] @ DRAM):
    assert stride(src, 0) == 1
    assert stride(dst, 0) == 1
    for i in seq(0, 8):
        dst[i] = src[i]

@instr("_mm256_storeu_ps(&{dst_data}, {src_data});")
def mm256_storeu_ps(dst: [f32][8] @ DRAM, src: [f32][8] @ AVX2):
    assert stride(src, 0) == 1
    assert stride(dst, 0) == 1
    for i in seq(0, 8):
        dst[i] = src[i]

@instr("{out_data} = _mm256_mul_ps({x_data}, {y_data});")
def mm256_mul_ps(out: [f32][8] @ AVX2, x: [f32][8] @ AVX2, y: [f32][8] @ AVX2):
    assert stride(out, 0) == 1
    assert stride(x, 0) == 1
    assert stride(y, 0) == 1
    for i in seq(0, 8):
        out[i] = x[i] * y[i]
)";

inline Proc avx2(const std::string& name) {
  register_port_memories();
  static Module m = parse_module(kAvx2);
  return m.proc(name);
}

// The load/store loop pair of test_replace_once and the replace_all cases. Exo writes `dst`
// @ AVX2 in the source; our type checker refuses a parsed proc whose plain code touches a
// memory only instructions may access, so the proc is built as a schedule builds it: parsed
// with dst in DRAM, then set_memory (which, as in Exo, leaves that rule to codegen and to the
// check of the finished proc).
inline Proc load_store() {
  register_port_memories();
  Proc p = parse_proc(R"(def bar(src: f32[8] @ DRAM):
    dst: f32[8] @ DRAM
    for i in seq(0, 8):
        dst[i] = src[i]
    for i in seq(0, 8):
        src[i] = dst[i]
)");
  return set_memory(p, "dst : _", "AVX2");
}

}  // namespace exocpp::exo_port
