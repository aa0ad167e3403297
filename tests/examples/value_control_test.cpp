// The value-dependent kernels (examples/value_control): spmv's and bs_sgemm's schedules against
// their plain procs, and their C against the interpreter. (i?amax and ?nrm2 are exoblas's:
// tests/blas.)
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "value_control_schedule.h"

namespace {

using namespace exocpp;

// The scheduled spmv and bs_sgemm run AVX-512 (and FMA) instructions: on a CPU
// without them the compiled kernels cannot run, and their tests skip, saying so.
bool cpu_runs_the_kernels() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("fma");
}
#define SKIP_WITHOUT_AVX512()  \
  if (!cpu_runs_the_kernels()) \
  GTEST_SKIP() << "this CPU has no AVX-512F/VL or FMA: the scheduled kernels cannot run here"

// Rows long enough for both registers of lanes and a tail; rowptr is drawn anywhere in its
// range, so some rows run backwards (no nonzeros, the specialized branch that goes).
const std::map<std::string, int64_t> kSpmvSizes = {{"m", 7}, {"n", 40}, {"nnz", 150}};

TEST(ValueControlKernels, SpmvRowsInParallelComputeThePlainProc) {
  for (const char* name : {"spmv_s", "spmv_d"}) {
    Proc p = value_control::plain(name), q = value_control::scheduled(name);
    EXPECT_NE(to_string(q).find("for i in par(0, m):"), std::string::npos) << q;
    EXPECT_NE(to_string(q).find("_i32gather_p"), std::string::npos) << q;
    // Exactly: the lanes regroup each row's sum (as reals), but the drawn values keep these sums
    // exact, so any other difference shows.
    EXPECT_EQ(compare_procs(p, q, kSpmvSizes, 3), "") << name;
  }
}

TEST(ValueControlKernels, SpmvCompiledMatchesTheInterpreter) {
  SKIP_WITHOUT_AVX512();
  for (const char* name : {"spmv_s", "spmv_d"})
    EXPECT_EQ(compare_compiled_with_interpreter(value_control::scheduled(name), kSpmvSizes, 1,
                                                CompileOptions{"cc", {"-O2", "-march=native"}}),
              "")
        << name;
}

}  // namespace

namespace {

TEST(ValueControlKernels, BlockSparseSgemmComputesThePlainProc) {
  Proc p = value_control::plain("bs_sgemm"), q = value_control::scheduled("bs_sgemm");
  EXPECT_NE(to_string(q).find("if mask[it, kti + 8 * kto] > 0:"), std::string::npos) << q;
  EXPECT_NE(to_string(q).find("sgemm_tile_6_avx512("), std::string::npos) << q;
  // N = 70: full panels and a right edge; K = 512: one block of 8 tiles.
  const std::map<std::string, int64_t> sizes = {{"MT", 2}, {"N", 70}, {"KT", 8}};
  EXPECT_EQ(compare_procs(p, q, sizes, 2), "");
}

TEST(ValueControlKernels, BlockSparseSgemmCompiledMatchesTheInterpreter) {
  SKIP_WITHOUT_AVX512();
  const std::map<std::string, int64_t> sizes = {{"MT", 2}, {"N", 70}, {"KT", 8}};
  EXPECT_EQ(compare_compiled_with_interpreter(value_control::scheduled("bs_sgemm"), sizes, 1,
                                              CompileOptions{"cc", {"-O2", "-march=native"}}),
            "");
}

}  // namespace
