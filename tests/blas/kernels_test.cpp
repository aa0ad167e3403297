// exoblas's kernels as procs (blas/routine.h): every variant's schedule validated step by step in
// the interpreter, the scheduled proc against its plain spec at sizes that run every vector loop
// and tail, and its C against the interpreter bit for bit. (The library itself is held to the
// reference BLAS in the level1_*_test.cpp files and by netlib's testers.)
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "routine.h"

namespace {

using namespace exocpp;

// Every variant of every level-1 routine.
std::vector<std::pair<exoblas::Routine, exoblas::Variant>> variants() {
  std::vector<std::pair<exoblas::Routine, exoblas::Variant>> out;
  for (const exoblas::Routine& r : exoblas::level1())
    for (const exoblas::Variant& v : r.variants) out.push_back({r, v});
  return out;
}

// The spec a variant starts from, in its precision and with its name (what build() schedules).
Proc plain(const exoblas::Variant& v) {
  return rename(schedlib::with_precision(exoblas::specs().proc(v.proc), v.type), v.name);
}

// Sizes around the vector loops' steps: 1, one register, one step of several registers, and
// remainders of each kind (rotg and rotmg have no size).
std::vector<std::map<std::string, int64_t>> sizes_of(const Proc& p) {
  for (const FnArg& a : p.args())
    if (a.name.name() == "n") {
      std::vector<std::map<std::string, int64_t>> out;
      for (int64_t n : {1, 2, 15, 16, 17, 63, 64, 65, 129, 200}) out.push_back({{"n", n}});
      return out;
    }
  return {{}};
}

bool cpu_runs_the_kernels() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("fma");
}

TEST(ExoblasKernels, EveryScheduleStepIsValidatedInTheInterpreter) {
  ValidationScope on;
  for (const auto& [r, v] : variants()) EXPECT_NO_THROW(exoblas::build(r, v)) << v.name;
}

TEST(ExoblasKernels, EveryScheduledKernelComputesItsSpec) {
  for (const auto& [r, v] : variants()) {
    const Proc spec = plain(v), kernel = exoblas::build(r, v);
    for (const auto& sizes : sizes_of(spec))
      EXPECT_EQ(compare_procs(spec, kernel, sizes, 3), "")
          << v.name << (sizes.empty() ? "" : " n = " + std::to_string(sizes.at("n")));
  }
}

TEST(ExoblasKernels, EveryScheduledKernelCompilesToWhatTheInterpreterComputes) {
  if (!cpu_runs_the_kernels())
    GTEST_SKIP() << "this CPU has no AVX-512 F/VL/BW/DQ or FMA: the kernels cannot run here";
  const CompileOptions native{"cc", {"-O2", "-march=native"}};
  for (const auto& [r, v] : variants()) {
    const Proc kernel = exoblas::build(r, v);
    for (const auto& sizes : sizes_of(kernel))
      EXPECT_EQ(compare_compiled_with_interpreter(kernel, sizes, 7, native), "")
          << v.name << (sizes.empty() ? "" : " n = " + std::to_string(sizes.at("n")));
  }
}

TEST(ExoblasKernels, UnitStrideKernelsAreVectorized) {
  // Every routine with a vector loop keeps its plain loop for other strides and calls vector
  // instructions in the unit-stride branch.
  for (const auto& [r, v] : variants()) {
    const std::string text = to_string(exoblas::build(r, v));
    if (text.find("for i in seq(") == std::string::npos) continue;  // rotg, rotmg: no loop
    EXPECT_NE(text.find("stride(x, 0) == 1"), std::string::npos) << v.name;
    EXPECT_NE(text.find("mm512_"), std::string::npos) << v.name;
  }
}

}  // namespace
