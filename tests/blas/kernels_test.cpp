// exoblas's kernels as procs (blas/routine.h), levels 1 and 2: every variant's schedule validated
// step by step in the interpreter, the scheduled proc against its plain spec at sizes that run
// every vector loop and tail, and its C against the interpreter bit for bit. (The library itself is
// held to the reference BLAS in the level1_*_test.cpp files and by netlib's testers.)
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "routine.h"

namespace {

using namespace exocpp;

// Every variant of every routine of levels 1 and 2.
std::vector<std::pair<exoblas::Routine, exoblas::Variant>> variants() {
  std::vector<std::pair<exoblas::Routine, exoblas::Variant>> out;
  for (auto level : {exoblas::level1, exoblas::level2})
    for (const exoblas::Routine& r : level())
      for (const exoblas::Variant& v : r.variants) out.push_back({r, v});
  return out;
}

// The spec a variant starts from, in its precision and with its name (what build() schedules).
Proc plain(const exoblas::Variant& v) {
  return rename(schedlib::with_precision(exoblas::specs().proc(v.proc), v.type), v.name);
}

// Sizes around the vector loops' steps: 1, one register, one step of several registers, and
// remainders of each kind (rotg and rotmg have no size). A level-2 proc's m (rows) runs through
// them with n a few columns more; band widths k, kl, ku are 0, 1 and 3 in turn.
std::vector<std::map<std::string, int64_t>> sizes_of(const Proc& p) {
  std::set<std::string> names;
  for (const FnArg& a : p.args()) names.insert(a.name.name());
  if (!names.count("n")) return {{}};
  const bool matrix = names.count("m") || names.count("A") || names.count("AP");
  const std::vector<int64_t> ns =
      matrix ? std::vector<int64_t>{1, 2, 9, 17, 33, 65}
             : std::vector<int64_t>{1, 2, 15, 16, 17, 63, 64, 65, 129, 200};
  std::vector<std::map<std::string, int64_t>> out;
  int band = 0;
  for (int64_t n : ns) {
    std::map<std::string, int64_t> s = {{"n", names.count("m") ? n % 7 + 1 : n}};
    if (names.count("m")) s["m"] = n;
    for (const char* k : {"k", "kl", "ku"})
      if (names.count(k)) s[k] = std::vector<int64_t>{0, 1, 3}[band++ % 3];
    out.push_back(s);
  }
  return out;
}

// "n = 17, m = 3" for a failure message.
std::string describe(const std::map<std::string, int64_t>& sizes) {
  std::string out;
  for (const auto& [name, v] : sizes)
    out += (out.empty() ? " " : ", ") + name + " = " + std::to_string(v);
  return out;
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

// A triangular solve divides by its diagonal: drawn as small positive integers (never 0), with
// the matrix no larger than 17, the solution stays far from overflow; the kernel's dot products
// regroup sums of fractions, so the two are compared to a relative 1e-4 (both NaN also agree:
// none is expected). Everything else runs on small integers, on which regrouped sums are exact.
CompareProcsOptions compare_options(const Proc& spec) {
  CompareProcsOptions o;
  if (spec.name().find("sv_") != std::string::npos) {
    o.inputs.lo = 1;
    o.compare.rtol = 1e-4;
    o.compare.nan_equal = true;
  }
  return o;
}

TEST(ExoblasKernels, EveryScheduledKernelComputesItsSpec) {
  for (const auto& [r, v] : variants()) {
    const Proc spec = plain(v), kernel = exoblas::build(r, v);
    const bool solve = spec.name().find("sv_") != std::string::npos;
    for (const auto& sizes : sizes_of(spec))
      if (!solve || sizes.at("n") <= 17) {
        EXPECT_EQ(compare_procs(spec, kernel, sizes, 3, compare_options(spec)), "")
            << v.name << describe(sizes);
      }
  }
}

TEST(ExoblasKernels, EveryScheduledKernelCompilesToWhatTheInterpreterComputes) {
  if (!cpu_runs_the_kernels())
    GTEST_SKIP() << "this CPU has no AVX-512 F/VL/BW/DQ or FMA: the kernels cannot run here";
  const CompileOptions native{"cc", {"-O2", "-march=native"}};
  for (const auto& [r, v] : variants()) {
    const Proc kernel = exoblas::build(r, v);
    // The multiply-add instructions' C rounds once, their bodies (which the interpreter runs)
    // twice: the two agree while every value is exact, as small integers keep them — but a
    // triangular solve's values grow up to 5^n on them (entries up to 4), past f32's exact
    // integers beyond n = 9.
    const bool solve = v.proc.find("sv_") != std::string::npos;
    for (const auto& sizes : sizes_of(kernel))
      if (!solve || sizes.at("n") <= 9) {
        EXPECT_EQ(compare_compiled_with_interpreter(kernel, sizes, 7, native), "")
            << v.name << describe(sizes);
      }
  }
}

TEST(ExoblasKernels, UnitStrideKernelsAreVectorized) {
  // Every routine with a vector loop keeps its plain loop for other strides and calls vector
  // instructions in the unit-stride branch.
  for (const auto& [r, v] : variants()) {
    const std::string text = to_string(exoblas::build(r, v));
    if (text.find("for i in seq(") == std::string::npos) continue;  // rotg, rotmg: no loop
    // tbmv and tbsv stay plain for now (blas/level2/banded.cpp); gbmv and sbmv do not.
    if (v.proc.starts_with("tbmv_") || v.proc.starts_with("tbsv_")) continue;
    EXPECT_NE(text.find(", 0) == 1"), std::string::npos) << v.name;
    EXPECT_NE(text.find("mm512_"), std::string::npos) << v.name;
  }
}

}  // namespace
