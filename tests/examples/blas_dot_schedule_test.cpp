// The dot-product GEMM schedule (examples/blas/schedule_dot.cpp), for both of its GEMMs: the
// scheduled proc against the plain one in the reference interpreter (the balanced last rows
// included: M = 7, 8, 13, 14), each tile kernel against its specification, and the kernels'
// instruction on registers. The generated kernels are run in blas_u8s8_test.cpp and
// blas_bf16_test.cpp.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "schedule_dot.h"

using namespace exocpp;

namespace {

struct DotCase {
  const blas_example::DotGemm& (*gemm)();
  std::string k_groups;     // the specification's K argument: "K4" or "K2"
  std::string instruction;  // the 6-row kernel's last call
  std::string registers;    // the 6-row kernel's accumulators
  // Draw real values (the order of float sums shows) rather than small integers.
  bool real_values;
};

class DotSchedule : public ::testing::TestWithParam<DotCase> {};

TEST_P(DotSchedule, ScheduledProcComputesThePlainOneInTheInterpreter) {
  const DotCase& c = GetParam();
  const Proc scheduled = blas_example::schedule_dot_gemm(c.gemm());
  for (auto [M, N, K] : std::vector<std::array<int, 3>>{{1, 64, 2},
                                                        {5, 64, 1},
                                                        {6, 128, 2},
                                                        {7, 64, 3},
                                                        {8, 64, 2},
                                                        {13, 128, 1},
                                                        {14, 64, 1},
                                                        {16, 64, 2}})
    EXPECT_EQ(compare_procs(blas_example::plain_dot_gemm(c.gemm()), scheduled,
                            {{"M", M}, {"NB", N / 64}, {c.k_groups, K}}),
              "")
        << "M=" << M << " N=" << N << " " << c.k_groups << "=" << K;
}

TEST_P(DotSchedule, EveryTileKernelComputesItsSpecification) {
  const DotCase& c = GetParam();
  CompareProcsOptions opts;
  if (c.real_values) {
    opts.inputs.integer_valued = false;
    opts.inputs.lo = -100;
    opts.inputs.hi = 100;
  }
  for (int rows = 1; rows <= 6; ++rows) {
    const Proc spec = blas_example::dot_tile_spec(c.gemm(), rows);
    const Proc kernel = blas_example::schedule_dot_kernel(c.gemm(), spec, rows);
    EXPECT_EQ(compare_procs(spec, kernel, {{c.k_groups, 3}}, 1, opts), "") << kernel.name();
  }
}

TEST_P(DotSchedule, TheKernelIsTheInstructionOnRegisters) {
  const DotCase& c = GetParam();
  const Proc spec = blas_example::dot_tile_spec(c.gemm(), 6);
  const std::string text = to_string(blas_example::schedule_dot_kernel(c.gemm(), spec, 6));
  EXPECT_NE(text.find(c.instruction + "(C_reg[5, 3, 0:16]"), std::string::npos) << text;
  EXPECT_NE(text.find("C_reg: " + c.registers + "[6, 4, 16] @ AVX512"), std::string::npos) << text;
}

INSTANTIATE_TEST_SUITE_P(Gemms, DotSchedule,
                         ::testing::Values(DotCase{blas_example::u8s8_gemm, "K4",
                                                   "mm512_dpbusd_epi32_broadcast", "i32", false},
                                           DotCase{blas_example::bf16_gemm, "K2",
                                                   "mm512_dpbf16_ps_broadcast", "f32", true}),
                         [](const auto& info) { return info.param.gemm().name; });

}  // namespace
