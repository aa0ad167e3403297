// The x86 hardware library: AVX2 and AVX-512 vector registers as memories, and SIMD
// instructions (f32 and f64; i32 and ui16 integer arithmetic, widening and narrowing, and
// AVX512-VNNI u8 x s8 dot products) as @instr procs, for use with `set_memory` and `replace`:
//
//   #include "hwlibs/x86/x86.h"
//   p = set_memory(p, "C_reg", x86::AVX512);
//   p = replace(p, "for ji in _: _ #0", x86::mm512_loadu_ps);
//
// Every instruction's body is its meaning (what the interpreter runs and `replace` unifies
// with); its C template is what codegen emits. hwlibs/x86/README.md lists them. The library
// uses only the public API. Handles are constexpr objects: nothing runs at static
// initialisation; the embedded .exo text is parsed once, on first use, thread-safely.
#pragma once

#include <exocpp/exocpp.h>

#include <ostream>
#include <string>
#include <vector>

namespace exocpp::x86 {

// Registers the AVX2, AVX512 and DRAM_ALIGNED memories (idempotent, thread-safe), so that .exo text
// mentioning `@ AVX512` parses. Using any handle below does it too.
void register_memories();

// Every instruction of the library, parsed from the embedded .exo files on first call. Pass
// `library().procs` as ParseOptions::procs to call instructions from .exo text.
const Module& library();

// A memory of this library; converts to `const Memory&` (registering the memories first).
class MemoryRef {
 public:
  constexpr explicit MemoryRef(const char* name) : name_(name) {}
  const Memory& get() const;
  operator const Memory&() const { return get(); }  // NOLINT: implicit by design
  const char* name() const { return name_; }

 private:
  const char* name_;
};

// An instruction of this library; converts to `const Proc&` (parsing the library first).
class InstrRef {
 public:
  constexpr explicit InstrRef(const char* name) : name_(name) {}
  const Proc& get() const;
  operator const Proc&() const { return get(); }  // NOLINT: implicit by design
  const char* name() const { return name_; }

 private:
  const char* name_;
};
std::ostream& operator<<(std::ostream& os, const InstrRef& instr);  // the proc, as text

// Vector registers: AVX2 holds 8 f32 (__m256) or 4 f64 (__m256d); AVX512 holds 16 f32 (__m512),
// 8 f64 (__m512d) or integers (__m512i: 16 i32, 32 ui16, 64 i8 or ui8), AVX2 half as many. A
// buffer's last dimension is one register: `f32[4, 16] @ AVX512` is four.
inline constexpr MemoryRef AVX2{"AVX2"};
inline constexpr MemoryRef AVX512{"AVX512"};
// Heap memory (like DRAM, plain code may use it) whose arrays start on a 64-byte boundary, so
// that rows of a multiple of 64 bytes keep every vector load and store within one cache line.
inline constexpr MemoryRef DRAM_ALIGNED{"DRAM_ALIGNED"};

// Every instruction, by name. The names follow Exo's x86 library (src/exo/platforms/x86.py)
// and Intel's intrinsics; `N` in a masked instruction is the count of lanes it touches.
#define EXOCPP_X86_AVX512_INSTRUCTIONS(X, ps) \
  X(mm512_setzero_##ps)                       \
  X(mm512_loadu_##ps)                         \
  X(mm512_storeu_##ps)                        \
  X(mm512_maskz_loadu_##ps)                   \
  X(mm512_mask_loadu_##ps)                    \
  X(mm512_mask_storeu_##ps)                   \
  X(mm512_set1_##ps)                          \
  X(mm512_mask_set1_##ps)                     \
  X(mm512_fmadd_##ps)                         \
  X(mm512_mask_fmadd_##ps)                    \
  X(mm512_fmadd_##ps##_broadcast)             \
  X(mm512_mask_fmadd_##ps##_broadcast)        \
  X(mm512_add_##ps)                           \
  X(mm512_reduce_add_wide_##ps)               \
  X(mm512_fma_##ps)                           \
  X(mm512_sub_##ps)                           \
  X(mm512_mul_##ps)                           \
  X(mm512_mask_add_##ps)                      \
  X(mm512_mask_mul_##ps)                      \
  X(mm512_max_##ps)                           \
  X(mm512_relu_##ps)                          \
  X(mm512_select_gt_##ps)                     \
  X(mm512_max_update_##ps)                    \
  X(mm512_add_if_gt_##ps)
#define EXOCPP_X86_AVX2_INSTRUCTIONS(X, ps, ss) \
  X(mm256_setzero_##ps)                         \
  X(mm256_loadu_##ps)                           \
  X(mm256_storeu_##ps)                          \
  X(mm256_maskz_loadu_##ps)                     \
  X(mm256_mask_storeu_##ps)                     \
  X(mm256_broadcast_##ss)                       \
  X(mm256_fmadd_##ps)                           \
  X(mm256_fmadd_##ps##_broadcast)               \
  X(mm256_add_##ps)                             \
  X(mm256_reduce_add_wide_##ps)                 \
  X(mm256_fma_##ps)                             \
  X(mm256_sub_##ps)                             \
  X(mm256_mul_##ps)                             \
  X(mm256_max_##ps)                             \
  X(mm256_relu_##ps)                            \
  X(mm256_select_gt_##ps)                       \
  X(mm256_max_update_##ps)                      \
  X(mm256_add_if_gt_##ps)
#define EXOCPP_X86_INSTRUCTIONS(X)        \
  EXOCPP_X86_AVX512_INSTRUCTIONS(X, ps)   \
  EXOCPP_X86_AVX512_INSTRUCTIONS(X, pd)   \
  EXOCPP_X86_AVX2_INSTRUCTIONS(X, ps, ss) \
  EXOCPP_X86_AVX2_INSTRUCTIONS(X, pd, sd) \
  X(mm512_reduce_argmax_ps)               \
  X(mm512_reduce_argmax_pd)               \
  X(mm512_argmax_update_ps)               \
  X(mm512_argmax_update_pd)               \
  X(mm512_argmax_merge_ps)                \
  X(mm512_argmax_merge_pd)                \
  X(mm512_abs_ps)                         \
  X(mm512_reduce_add_ps)                  \
  X(mm512_reduce_add_pd)                  \
  X(mm512_abs_pd)                         \
  X(mm512_set1_scalar_ps)                 \
  X(mm512_set1_scalar_pd)                 \
  X(mm512_set1_scalar_epi32)              \
  X(mm256_set1_scalar_epi32)              \
  X(mm256_loadu_epi32)                    \
  X(mm256_storeu_epi32)                   \
  X(mm256_set1_epi32)                     \
  X(mm512_loadu_epi32)                    \
  X(mm512_storeu_epi32)                   \
  X(mm512_mask_loadu_epi32)               \
  X(mm512_mask_storeu_epi32)              \
  X(mm512_i32gather_ps)                   \
  X(mm512_i32gather_pd)                   \
  X(mm256_i32gather_ps)                   \
  X(mm256_i32gather_pd)                   \
  X(mm512_set1_epi32)                     \
  X(mm512_add_epi32)                      \
  X(mm512_sub_epi32)                      \
  X(mm512_mullo_epi32)                    \
  X(mm512_min_epi32)                      \
  X(mm512_max_epi32)                      \
  X(mm512_loadu_epi16)                    \
  X(mm512_storeu_epi16)                   \
  X(mm512_mask_loadu_epi16)               \
  X(mm512_mask_storeu_epi16)              \
  X(mm512_set1_epi16)                     \
  X(mm512_add_epi16)                      \
  X(mm512_sub_epi16)                      \
  X(mm512_adds_epu16)                     \
  X(mm512_subs_epu16)                     \
  X(mm512_mullo_epi16)                    \
  X(mm512_mulhi_epu16)                    \
  X(mm512_avg_epu16)                      \
  X(mm512_min_epu16)                      \
  X(mm512_max_epu16)                      \
  X(mm512_srli1_epi16)                    \
  X(mm512_div3_epu16)                     \
  X(mm512_slli1_epi16)                    \
  X(mm512_srli8_epi16)                    \
  X(mm512_slli8_epi16)                    \
  X(mm512_cvtepu16_epi32)                 \
  X(mm512_cvtps_pd)                       \
  X(mm512_cvtepi32_epi16)                 \
  X(mm512_cvtusepi32_epi16)               \
  X(mm512_loadu_epi8)                     \
  X(mm512_storeu_epi8)                    \
  X(mm512_add_epi8)                       \
  X(mm512_sub_epi8)                       \
  X(mm512_adds_epu8)                      \
  X(mm512_subs_epu8)                      \
  X(mm512_avg_epu8)                       \
  X(mm512_min_epu8)                       \
  X(mm512_max_epu8)                       \
  X(mm512_cvtepu8_epi16)                  \
  X(mm512_cvtepi16_epi8)                  \
  X(mm512_dpbusd_epi32_broadcast)         \
  X(mm512_dpbf16_ps_broadcast)            \
  X(mm256_loadu_epi16)                    \
  X(mm256_storeu_epi16)                   \
  X(mm256_set1_epi16)                     \
  X(mm256_add_epi16)                      \
  X(mm256_sub_epi16)                      \
  X(mm256_adds_epu16)                     \
  X(mm256_subs_epu16)                     \
  X(mm256_mullo_epi16)                    \
  X(mm256_mulhi_epu16)                    \
  X(mm256_avg_epu16)                      \
  X(mm256_min_epu16)                      \
  X(mm256_max_epu16)                      \
  X(mm256_srli1_epi16)                    \
  X(mm256_div3_epu16)                     \
  X(mm256_slli1_epi16)                    \
  X(mm_prefetch_ps)                       \
  X(mm_prefetch_pd)

#define EXOCPP_X86_DECLARE(name) inline constexpr InstrRef name{#name};
EXOCPP_X86_INSTRUCTIONS(EXOCPP_X86_DECLARE)
#undef EXOCPP_X86_DECLARE

// The names of every handle above, in that order.
std::vector<std::string> instruction_names();

// What search::sketch_space and search::auto_schedule need to vectorize through this library on
// this CPU: every instruction, into AVX512 registers (16 lanes of f32) when the CPU has AVX-512F,
// else AVX2 (8 lanes).
search::SketchOptions sketch_options();

}  // namespace exocpp::x86
