// Tests of the C emitted for value-dependent control (docs/language.md): index arguments checked
// at entry (the function returns the position of the argument out of range and writes nothing),
// indirect reads and data-dependent loop bounds, and data comparisons, each compared with the
// interpreter bit for bit on data with ties, NaN, ±inf and ±0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen_test_util.h"
#include "support/csr_fixture.h"

namespace exocpp {
namespace {

using codegen_test::check;
using codegen_test::proc_of;

const char* kSpmv = exocpp::testing::kCsrSpmv;

const char* kAmax = R"(def amax(n: size, x: f32[n] @ DRAM, best: f32 @ DRAM, idx: i32 @ DRAM):
    best = -1.0
    idx = 0
    for i in seq(0, n):
        if abs(x[i]) > best:
            best = abs(x[i])
            idx = i
)";

TEST(ValueControlC, SpmvMatchesTheInterpreter) {
  EXPECT_EQ(check(kSpmv, "spmv", {{"m", 7}, {"n", 5}, {"nnz", 12}}, 3), "");
  EXPECT_EQ(check(kSpmv, "spmv", {{"m", 1}, {"n", 1}, {"nnz", 1}}, 2), "");
}

TEST(ValueControlC, EntryCheckReturnsTheArgumentAndWritesNothing) {
  Proc p = proc_of(kSpmv, "spmv");
  CompiledLibrary lib({p}, "vc_entry");
  using Fn = int (*)(void*, int_fast32_t, int_fast32_t, int_fast32_t, const int32_t*,
                     const int32_t*, const float*, const float*, float*);
  Fn f = reinterpret_cast<Fn>(lib.symbol("spmv"));
  int32_t rowptr[3] = {0, 1, 2}, col_ok[2] = {0, 2}, col_bad[2] = {0, 3};
  float val[2] = {1, 2}, x[3] = {1, 2, 3}, y[2] = {7, 7};
  EXPECT_EQ(f(nullptr, 2, 3, 2, rowptr, col_bad, val, x, y), 5);
  EXPECT_EQ(y[0], 7.0f);
  EXPECT_EQ(y[1], 7.0f);
  int32_t rowptr_bad[3] = {0, 3, 2};  // 3 is outside range(0, nnz + 1) = [0, 3)
  EXPECT_EQ(f(nullptr, 2, 3, 2, rowptr_bad, col_ok, val, x, y), 4);
  EXPECT_EQ(f(nullptr, 2, 3, 2, rowptr, col_ok, val, x, y), 0);
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_EQ(y[1], 6.0f);
}

TEST(ValueControlC, AProcWithParLoopsChecksOnItsThreadsAndStillWritesNothing) {
  // The check of a proc that runs on OpenMP threads is a parallel min/max reduction; a value out
  // of range anywhere (here deep inside the second thread's half) is still found first.
  Proc p = proc_of(R"(def scatter(n: size, col: i32[n] @ DRAM in range(0, 8), y: f32[8] @ DRAM):
    for i in par(0, 8):
        y[i] = 0.0
    for j in seq(0, n):
        y[col[j]] += 1.0
)",
                   "scatter");
  const CSource c = compile_procs_to_c({p}, "vc_par_entry");
  EXPECT_NE(c.source.find("#pragma omp parallel for reduction(min : exo_min)"), std::string::npos)
      << c.source;
  CompiledLibrary lib({p}, "vc_par_entry");
  using Fn = int (*)(void*, int_fast32_t, const int32_t*, float*);
  Fn f = reinterpret_cast<Fn>(lib.symbol("scatter"));
  std::vector<int32_t> col(1000, 3);
  float y[8] = {7, 7, 7, 7, 7, 7, 7, 7};
  col[777] = 8;
  EXPECT_EQ(f(nullptr, 1000, col.data(), y), 2);
  for (float v : y) EXPECT_EQ(v, 7.0f);
  col[777] = 5;
  EXPECT_EQ(f(nullptr, 1000, col.data(), y), 0);
  EXPECT_EQ(y[3], 999.0f);
  EXPECT_EQ(y[5], 1.0f);
}

TEST(ValueControlC, DataComparisonsMatchOnTiesNaNInfinitiesAndZeros) {
  Proc p = proc_of(kAmax, "amax");
  CompiledLibrary lib({p}, "vc_amax");
  const std::vector<std::vector<double>> cases = {
      {1.0, -3.0, 3.0, 2.0},          // a tie: the first wins
      {NAN, 5.0, 1.0},                // NaN first: compares false, later values win
      {2.0, NAN, 7.0, -7.0},          // NaN inside
      {-0.0, 0.0, -INFINITY, 1e38f},  // zeros, an infinity
      {}};
  for (const std::vector<double>& xs : cases) {
    const int64_t n = std::max<int64_t>(1, static_cast<int64_t>(xs.size()));
    std::vector<double> v = xs.empty() ? std::vector<double>{0.0} : xs;
    std::vector<ArgValue> args = {n, Buffer::from_values(ScalarKind::F32, {n}, v),
                                  Buffer::scalar(ScalarKind::F32, 0),
                                  Buffer::scalar(ScalarKind::I32, 0)};
    std::vector<ArgValue> c = deep_copy(args);
    interpret(p, args);
    lib.call("amax", c);
    EXPECT_EQ(compare_args(p, args, c, {.nan_equal = true, .signed_zeros = true}), "")
        << "x = " << ::testing::PrintToString(v);
  }
}

TEST(ValueControlC, LoopVariableStoredIntoNarrowDataWrapsAsInTheInterpreter) {
  EXPECT_EQ(check("def f(u: ui8[300] @ DRAM, s: i8[300] @ DRAM):\n    for i in seq(0, 300):\n"
                  "        u[i] = i - 2\n        s[i] = i + 100\n",
                  "f"),
            "");
}

TEST(ValueControlC, CudaEmissionRefusesIndexArguments) {
  try {
    compile_procs_to_cuda({proc_of(kSpmv, "spmv")}, "vc_cuda");
    ADD_FAILURE() << "CUDA emission took a proc with index arguments";
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("has index arguments (value ranges), which CUDA "
                                         "emission does not check yet"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace exocpp
