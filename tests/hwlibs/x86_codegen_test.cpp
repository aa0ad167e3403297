// Every x86 instruction's C template computes what its body says: its wrapper (x86_harness.h)
// is emitted as C, compiled with gcc and with clang at -Wall -Wextra -Werror, run on random
// inputs and compared with the reference interpreter, for every mask count N. Skipped, with
// the reason, on a CPU without the instruction set. The wrappers of one instruction set go into
// one library per compiler, compiled once (the machine is shared: six compiles, not 200).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <mutex>

#include "x86_harness.h"

namespace exocpp {
namespace {

// "mm512", "mm512bw", "mm512vnni", "mm512bf16", "mm256" or "mm": the instruction set, which one
// CPU may have and another lack (an AVX-512 CPU without VNNI or BW still compiles and runs the
// mm512 bank). AVX-512's 16- and 8-bit lanes (epi16, epu16: ui16; epi8, epu8: ui8) need
// AVX512-BW; AVX2's are in AVX2.
std::string bank_of(const std::string& instr_name) {
  if (instr_name.find("dpbusd") != std::string::npos) return "mm512vnni";
  if (instr_name.find("dpbf16") != std::string::npos) return "mm512bf16";
  const std::string bank = instr_name.substr(0, instr_name.find('_'));
  if (bank == "mm512")
    for (const char* lanes : {"epi16", "epu16", "epi8", "epu8"})
      if (instr_name.find(lanes) != std::string::npos) return "mm512bw";
  return bank;
}

// Why this CPU cannot run `instr_name`; "" when it can.
std::string missing_cpu_feature(const std::string& instr_name) {
  __builtin_cpu_init();
  if (instr_name.rfind("mm512_", 0) == 0 && !__builtin_cpu_supports("avx512f"))
    return "this CPU lacks AVX-512F";
  if (bank_of(instr_name) == "mm512bw" && !__builtin_cpu_supports("avx512bw"))
    return "this CPU lacks AVX512-BW";
  if (instr_name.find("dpbusd") != std::string::npos && !__builtin_cpu_supports("avx512vnni"))
    return "this CPU lacks AVX512-VNNI";
  if (instr_name.find("dpbf16") != std::string::npos && !__builtin_cpu_supports("avx512bf16"))
    return "this CPU lacks AVX512-BF16";
  if (instr_name.rfind("mm256_", 0) == 0 &&
      (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")))
    return "this CPU lacks AVX2 or FMA";
  return "";
}

CompileOptions strict(const std::string& compiler) {
  return {compiler, {"-O2", "-march=native", "-Wall", "-Wextra", "-Werror"}};
}

// The wrappers of every instruction of `instr_name`'s bank compiled by `compiler` into one
// library, built on first use (a CPU without AVX-512 still compiles and runs the AVX2 one).
const CompiledLibrary& bank_wrappers(const std::string& compiler, const std::string& instr_name) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<CompiledLibrary>> libs;
  const std::string bank = bank_of(instr_name);
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<CompiledLibrary>& lib = libs[compiler + "_" + bank];
  if (!lib) {
    std::vector<Proc> procs;
    for (const std::string& n : x86::instruction_names())
      if (bank_of(n) == bank) procs.push_back(x86_test::wrap(x86::InstrRef(n.c_str())).wrapper);
    lib =
        std::make_unique<CompiledLibrary>(procs, "x86_" + bank + "_" + compiler, strict(compiler));
  }
  return *lib;
}

// Runs the wrapper compiled and interpreted on the same random inputs (integers across their
// whole range, limits included): "" or the difference.
std::string compare_compiled(const CompiledLibrary& lib, const Proc& wrapper,
                             const std::map<std::string, int64_t>& sizes, uint64_t seed) {
  std::vector<ArgValue> interpreted = x86_test::limit_args(wrapper, sizes, seed);
  std::vector<ArgValue> compiled = deep_copy(interpreted);
  interpret(wrapper, interpreted);
  lib.call(wrapper.name(), compiled);
  return compare_args(wrapper, interpreted, compiled);
}

struct Case {
  std::string instr;
  std::string compiler;
};

class X86Codegen : public ::testing::TestWithParam<Case> {};

TEST_P(X86Codegen, CompiledTemplateMatchesTheBody) {
  const Case& c = GetParam();
  if (std::string why = missing_cpu_feature(c.instr); !why.empty()) GTEST_SKIP() << why;
  const Proc& instr = x86::InstrRef(c.instr.c_str()).get();
  x86_test::Wrapped w = x86_test::wrap(instr);
  const CompiledLibrary& lib = bank_wrappers(c.compiler, c.instr);
  for (const auto& sizes : x86_test::size_cases(instr))
    for (uint64_t seed = 1; seed <= 2; ++seed)
      EXPECT_EQ(compare_compiled(lib, w.wrapper, sizes, seed), "")
          << "N = " << (sizes.empty() ? 0 : sizes.begin()->second) << ", seed " << seed << "\n"
          << w.source;
}

// The generic check draws small integers, on which every order of summation agrees. On real
// values the order and rounding of vdpbf16ps's two additions show: the body (odd element first,
// each sum rounded to f32) must match the hardware bit for bit.
TEST(X86CodegenBf16, DotProductMatchesTheBodyOnRealValues) {
  const std::string name = "mm512_dpbf16_ps_broadcast";
  if (std::string why = missing_cpu_feature(name); !why.empty()) GTEST_SKIP() << why;
  x86_test::Wrapped w = x86_test::wrap(x86::InstrRef(name.c_str()).get());
  const CompiledLibrary& lib = bank_wrappers("gcc", name);
  RandomArgsOptions reals{.integer_valued = false, .lo = -1000, .hi = 1000};
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    std::vector<ArgValue> interpreted = random_args(w.wrapper, {}, seed, reals);
    std::vector<ArgValue> compiled = deep_copy(interpreted);
    interpret(w.wrapper, interpreted);
    lib.call(w.wrapper.name(), compiled);
    ASSERT_EQ(compare_args(w.wrapper, interpreted, compiled), "") << "seed " << seed;
  }
}

// Products past f32's range (about 2^250): vdpbf16ps fuses each multiply-add, so lane 0 sums to
// -inf and then adds a finite +2^250, staying -inf, and the other lanes to +inf. The body's f64
// temporaries say the same; products rounded to f32 would be infinite, and every lane NaN.
TEST(X86CodegenBf16, DotProductAddsProductsPastF32sRangeFused) {
  const std::string name = "mm512_dpbf16_ps_broadcast";
  if (std::string why = missing_cpu_feature(name); !why.empty()) GTEST_SKIP() << why;
  x86_test::Wrapped w = x86_test::wrap(x86::InstrRef(name.c_str()).get());
  const double big = std::ldexp(255.0, 117);  // a bf16 value near 2^125
  std::vector<double> dst(16, -3e38), b(32);
  for (int i = 0; i < 16; ++i) {
    b[size_t(2 * i + 1)] = i == 0 ? -big : big;  // added first
    b[size_t(2 * i)] = i == 0 ? big : -big;
  }
  std::vector<ArgValue> interpreted = {Buffer::from_values(ScalarKind::F32, {16}, dst),
                                       Buffer::from_values(ScalarKind::BF16, {2}, {big, big}),
                                       Buffer::from_values(ScalarKind::BF16, {16, 2}, b)};
  std::vector<ArgValue> compiled = deep_copy(interpreted);
  interpret(w.wrapper, interpreted);
  bank_wrappers("gcc", name).call(w.wrapper.name(), compiled);
  EXPECT_EQ(compare_args(w.wrapper, interpreted, compiled), "");
  EXPECT_TRUE(std::isinf(std::get<Buffer>(interpreted[0]).get({0})));
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* compiler : {"gcc", "clang"})
    for (const std::string& n : x86::instruction_names()) out.push_back({n, compiler});
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllInstructions, X86Codegen, ::testing::ValuesIn(cases()),
                         [](const auto& info) {
                           return info.param.instr + "_" + info.param.compiler;
                         });

}  // namespace
}  // namespace exocpp

namespace exocpp {
namespace {

// The memories' refusals reach the user as CodegenErrors at the statement at fault.
Proc parse_user(const std::string& text, const std::string& name) {
  x86::register_memories();
  ParseOptions opts;
  opts.procs = x86::library().procs;
  return parse_module(text, opts, "user.exo").proc(name);
}

TEST(X86CodegenErrors, RegisterArrayOfTheWrongWidthIsRefusedAtItsAllocation) {
  Proc p = parse_user(R"(
@instr("{dst_data} = _mm256_setzero_ps();")
def zero8(dst: [f32][8] @ AVX512):
    for i in seq(0, 8):
        dst[i] = 0.0

def k(x: f32[8] @ DRAM):
    r: f32[8] @ AVX512
    zero8(r)
)",
                      "k");
  try {
    compile_procs_to_c({p}, "k");
    FAIL() << "expected a CodegenError";
  } catch (const CodegenError& e) {
    EXPECT_EQ(e.loc().to_string(), "user.exo:8:5");
    EXPECT_EQ(e.reason(),
              "cannot allocate 'r' of shape [8] in AVX512: the last dimension "
              "must be the register width, 16 for f32");
  }
}

TEST(X86CodegenErrors, WindowStartingInsideARegisterIsRefusedAtTheCall) {
  Proc p = parse_user(R"(
@instr("{dst_data} = _mm256_loadu_ps(&{src_data});")
def half_load(dst: [f32][8] @ AVX512, src: [f32][8] @ DRAM):
    for i in seq(0, 8):
        dst[i] = src[i]

def k(x: f32[8] @ DRAM):
    r: f32[16] @ AVX512
    half_load(r[8:16], x)
)",
                      "k");
  try {
    compile_procs_to_c({p}, "k");
    FAIL() << "expected a CodegenError";
  } catch (const CodegenError& e) {
    EXPECT_EQ(e.loc().line, 9);
    EXPECT_EQ(e.reason(),
              "a window of 'r' in AVX512 must start at lane 0 of a register, but "
              "its last index is 8");
  }
}

}  // namespace
}  // namespace exocpp
