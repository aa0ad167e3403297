// Whole schedules with the x86 library, from a plain loop to AVX2 code, written only with public
// operations (after Exo's tests/test_x86.py): divide the loop, stage the vectors, move the
// staging buffers into registers, and let replace_all put in the instructions. Each result
// runs like the plain proc, interpreted and (where the CPU has AVX2/FMA) compiled.
#include <gtest/gtest.h>

#include "avx2_simple_math.h"
#include "hwlibs/x86/x86.h"

namespace exocpp {
namespace {

Proc parse_plain(const std::string& text, const std::string& name) {
  x86::register_memories();
  return parse_module(text).proc(name);
}

bool cpu_has_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
CompileOptions avx2_flags() { return {"cc", {"-O2", "-mavx2", "-mfma", "-Wall", "-Werror"}}; }

// No plain loop over `lanes` lanes is left: each became an instruction.
void expect_no_lane_loops(const Proc& p, int lanes) {
  std::string text = to_string(p);
  EXPECT_EQ(text.find("in seq(0, " + std::to_string(lanes) + "):"), std::string::npos) << text;
}

// Call statements of `callee` in the printed proc.
int count_calls(const Proc& p, const std::string& callee) {
  std::string text = to_string(p), needle = " " + callee + "(";
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// x = x * y * y, eight lanes at a time with a scalar tail.
TEST(X86Schedules, ElementwiseMathBecomesAvx2LoadsMulsAndStores) {
  Proc plain = parse_plain(R"(
def simple_math(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = x[i] * y[i] * y[i]
)",
                           "simple_math");
  Proc p = testing::schedule_avx2_simple_math(plain);
  EXPECT_NO_THROW(typecheck(p)) << p;
  expect_no_lane_loops(p, 8);
  EXPECT_EQ(count_calls(p, "mm256_mul_ps"), 2) << p;
  for (int64_t n : {1, 8, 21, 32}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}), "") << "n = " << n;
    if (cpu_has_avx2()) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 1, avx2_flags()), "");
    }
  }
}

// C[6, 16] += A[6, K] * B[K, 16]: C in twelve registers, A broadcast, B loaded per k.
TEST(X86Schedules, Sgemm6x16BecomesBroadcastsAndFmas) {
  Proc plain = parse_plain(R"(
def sgemm_6x16(K: size, C: f32[6, 16] @ DRAM, A: f32[6, K] @ DRAM, B: f32[K, 16] @ DRAM):
    for i in seq(0, 6):
        for j in seq(0, 16):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)",
                           "sgemm_6x16");
  Proc p = reorder_loops(plain, "j k");
  p = reorder_loops(p, "i k");
  p = stage_mem(p, "for k in _: _", "C[0:6, 0:16]", "C_reg");
  p = stage_mem(p, "for i in _: _", "B[k, 0:16]", "B_reg");
  // Every 16-wide loop becomes two 8-lane halves.
  for (const char* loop : {"i1", "i1", "i0_1", "j"})
    p = divide_loop(p, loop, 8, {std::string(loop) + "o", std::string(loop) + "i"},
                    {.perfect = true});
  // A[i, k] broadcast into a register of its own.
  p = bind_expr(p, "A[i, k]", "a");
  p = expand_dim(p, "a", "8", "ji");
  p = lift_alloc(p, "a");
  p = fission(p, p.find("a[_] = _").after());
  // An AVX2 buffer is an array of 8-lane registers: its last dimension must be 8.
  p = divide_dim(p, "C_reg", 1, 8);
  p = divide_dim(p, "B_reg", 0, 8);
  p = simplify(p);
  for (const char* reg : {"C_reg", "B_reg", "a"}) p = set_memory(p, reg, "AVX2");
  for (const x86::InstrRef& instr :
       {x86::mm256_loadu_ps, x86::mm256_storeu_ps, x86::mm256_broadcast_ss, x86::mm256_fmadd_ps})
    p = replace_all(p, instr.get());
  EXPECT_NO_THROW(typecheck(p)) << p;
  expect_no_lane_loops(p, 8);
  EXPECT_EQ(count_calls(p, "mm256_fmadd_ps"), 1) << p;
  EXPECT_EQ(count_calls(p, "mm256_broadcast_ss"), 1) << p;
  for (int64_t K : {1, 3, 16}) {
    EXPECT_EQ(compare_procs(plain, p, {{"K", K}}), "") << "K = " << K;
    if (cpu_has_avx2()) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"K", K}}, 1, avx2_flags()), "");
    }
  }
}

// A prefetch enters a schedule by insert_noop_call (replace has no body to unify with it): the
// next vector's line is fetched while this one is computed. Where the next vector lies past the
// end, the window is refused; guarded by the loop's range it is accepted and runs.
TEST(X86Schedules, PrefetchIsInsertedAheadOfTheLoads) {
  Proc plain = parse_plain(R"(
def scale(n: size, x: f32[n] @ DRAM):
    assert n % 8 == 0
    for i in seq(0, n):
        x[i] = x[i] * 2.0
)",
                           "scale");
  Proc p = divide_loop(plain, "i", 8, {"io", "ii"}, {.perfect = true});
  const Proc& pf = x86::mm_prefetch_ps.get();
  Cursor body = p.find_loop("ii").before();
  EXPECT_THROW(insert_noop_call(p, body, pf, {"x[8 * io + 8:8 * io + 9]"}), SchedulingError);
  p = insert_noop_call(p, body, pf, {"x[8 * io:8 * io + 1]"});
  EXPECT_EQ(count_calls(p, "mm_prefetch_ps"), 1) << p;
  EXPECT_EQ(compare_procs(plain, p, {{"n", 24}}), "");
  if (cpu_has_avx2()) {
    EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", 24}}, 1, avx2_flags()), "");
  }
}

// A proc written with the instructions by hand (not scheduled): full vectors where eight lanes
// are left, plain code for the rest.
TEST(X86Schedules, HandWrittenGuardedCopyRuns) {
  x86::register_memories();
  ParseOptions opts;
  opts.procs = x86::library().procs;
  Proc p = parse_module(R"(
def memcpy_avx2(n: size, dst: f32[n] @ DRAM, src: f32[n] @ DRAM):
    for i in seq(0, (n + 7) / 8):
        if n - 8 * i >= 8:
            tmp: f32[8] @ AVX2
            mm256_loadu_ps(tmp, src[8 * i:8 * i + 8])
            mm256_storeu_ps(dst[8 * i:8 * i + 8], tmp)
        else:
            for j in seq(0, n - 8 * i):
                dst[8 * i + j] = src[8 * i + j]
)",
                        opts)
               .proc("memcpy_avx2");
  Proc plain = parse_plain(R"(
def memcpy_plain(n: size, dst: f32[n] @ DRAM, src: f32[n] @ DRAM):
    for i in seq(0, n):
        dst[i] = src[i]
)",
                           "memcpy_plain");
  for (int64_t n : {7, 9, 33}) {
    EXPECT_EQ(compare_procs(plain, p, {{"n", n}}), "") << "n = " << n;
    if (cpu_has_avx2()) {
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 1, avx2_flags()), "");
    }
  }
}

}  // namespace
}  // namespace exocpp
