// The Gemmini library (hwlibs/gemmini): every instruction's body (run by the interpreter) against
// its C template running on the functional model, on random inputs and on edge values of the
// store path's rounding and saturation; a plain read of the scratchpad refused with a location.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hwlibs/gemmini/gemmini.h"

namespace exocpp {
namespace {

Proc parse_test_proc(const std::string& src, const std::string& name) {
  gemmini::register_library();
  ParseOptions opts;
  opts.procs = gemmini::library().procs;
  opts.configs = gemmini::library().configs;
  return parse_module(src, opts).proc(name);
}

// Runs `p` in the interpreter and as C on the model, on the same arguments; "" when every
// argument agrees afterwards.
std::string interpreter_vs_model(const Proc& p, const std::map<std::string, int64_t>& sizes,
                                 uint64_t seed, int lo, int hi) {
  std::vector<ArgValue> args =
      random_args(p, sizes, seed, {.integer_valued = true, .lo = lo, .hi = hi});
  std::vector<ArgValue> copy = deep_copy(args);
  interpret(p, args);
  CompiledLibrary lib({p}, "gemmini_check", gemmini::model_compile_options());
  lib.call(p.name(), copy);
  return compare_args(p, args, copy);
}

// An installed exocpp has no source tree: the model's header and C source come from the copies
// embedded in the library, written into a temporary folder.
TEST(GemminiLibrary, ModelCompileOptionsNeedNoSourceTree) {
  namespace fs = std::filesystem;
  CompileOptions opts = gemmini::model_compile_options({.compiler = "cc", .flags = {"-O1"}});
  ASSERT_EQ(opts.flags.size(), 3u);
  EXPECT_EQ(opts.flags[0], "-O1");
  ASSERT_EQ(opts.flags[1].rfind("-I", 0), 0u);
  fs::path dir = opts.flags[1].substr(2);
  EXPECT_EQ(dir.parent_path(), fs::temp_directory_path());
  EXPECT_EQ(fs::path(opts.flags[2]), dir / "gemmini_model.c");
  ASSERT_TRUE(fs::exists(dir / "gemmini_model.h"));
  std::ifstream c(opts.flags[2]);
  std::stringstream text;
  text << c.rdbuf();
  EXPECT_NE(text.str().find("#include \"gemmini_model.h\""), std::string::npos);
  // A second call reuses the folder.
  EXPECT_EQ(gemmini::model_compile_options().flags.back(), opts.flags[2]);
}

TEST(GemminiLibrary, EveryInstructionParsesWithItsTemplate) {
  std::vector<std::string> names = gemmini::instruction_names();
  EXPECT_GE(names.size(), 20u);
  for (const std::string& n : names) EXPECT_TRUE(gemmini::instr(n)->instr) << n;
}

TEST(GemminiLibrary, Int8LoadAndStoreRoundTripPartialTiles) {
  Proc p = parse_test_proc(R"(
def t(n: size, m: size, A: i8[n, m] @ DRAM, B: i8[n, m] @ DRAM):
    assert n <= 16
    assert m <= 16
    a: i8[16, 16] @ GEMM_SCRATCH
    ld_i8(n, m, A, a[0:n, :])
    st_i8(n, m, a[0:n, :], B)
)",
                           "t");
  for (int64_t n : {1, 7, 16})
    for (int64_t m : {1, 9, 16})
      EXPECT_EQ(interpreter_vs_model(p, {{"n", n}, {"m", m}}, 3, -128, 127), "") << n << "x" << m;
}

TEST(GemminiLibrary, ConfigFormLoadsThroughBothSlots) {
  Proc p = parse_test_proc(R"(
def t(A: i8[16, 40] @ DRAM, B: i8[16, 40] @ DRAM, X: i8[16, 16] @ DRAM, Y: i8[16, 16] @ DRAM):
    a: i8[16, 16] @ GEMM_SCRATCH
    b: i8[16, 16] @ GEMM_SCRATCH
    config_ld_i8(stride(A, 0))
    config_ld_i8_id1(stride(B, 0))
    do_ld_i8(16, 16, A[:, 3:19], a)
    do_ld_i8_id1(16, 16, B[:, 20:36], b)
    st_i8(16, 16, a, X)
    st_i8(16, 16, b, Y)
)",
                           "t");
  EXPECT_EQ(interpreter_vs_model(p, {}, 5, -128, 127), "");
}

TEST(GemminiLibrary, BlockLoadLandsBlockMajor) {
  Proc p = parse_test_proc(R"(
def t(A: i8[16, 64] @ DRAM, X: i8[4, 16, 16] @ DRAM):
    a: i8[4, 16, 16] @ GEMM_SCRATCH
    config_ld_i8_id1(stride(A, 0))
    do_ld_i8_block_id1(16, 4, A, a)
    st_i8(16, 16, a[0, :, :], X[0, :, :])
    st_i8(16, 16, a[1, :, :], X[1, :, :])
    st_i8(16, 16, a[2, :, :], X[2, :, :])
    st_i8(16, 16, a[3, :, :], X[3, :, :])
)",
                           "t");
  EXPECT_EQ(interpreter_vs_model(p, {}, 7, -128, 127), "");
}

TEST(GemminiLibrary, MatmulAccumulatesAndOverwritesLikeItsBody) {
  Proc p = parse_test_proc(R"(
def t(N: size, M: size, K: size, A: i8[N, K] @ DRAM, B: i8[K, M] @ DRAM, C0: i32[N, M] @ DRAM, C: i32[N, M] @ DRAM, D: i32[N, M] @ DRAM):
    assert N <= 16
    assert M <= 16
    assert K <= 16
    a: i8[16, 16] @ GEMM_SCRATCH
    b: i8[16, 16] @ GEMM_SCRATCH
    c: i32[16, 16] @ GEMM_ACCUM
    d: i32[16, 16] @ GEMM_ACCUM
    ld_i8(N, K, A, a[0:N, :])
    ld_i8(K, M, B, b[0:K, :])
    ld_acc_i32(N, M, C0, c[0:N, :])
    config_matmul()
    do_matmul_acc_i8(N, M, K, a[0:N, :], b[0:K, :], c[0:N, :])
    do_matmul_i8(N, M, K, a[0:N, :], b[0:K, :], d[0:N, :])
    st_acc_i32(N, M, c[0:N, :], C)
    st_acc_i32(N, M, d[0:N, :], D)
)",
                           "t");
  EXPECT_EQ(interpreter_vs_model(p, {{"N", 16}, {"M", 16}, {"K", 16}}, 11, -128, 127), "");
  EXPECT_EQ(interpreter_vs_model(p, {{"N", 5}, {"M", 9}, {"K", 7}}, 12, -128, 127), "");
}

TEST(GemminiLibrary, AccumulatorWrapsAroundLikeTheInterpreter) {
  Proc p = parse_test_proc(R"(
def t(A: i8[16, 16] @ DRAM, B: i8[16, 16] @ DRAM, C0: i32[16, 16] @ DRAM, C: i32[16, 16] @ DRAM):
    a: i8[16, 16] @ GEMM_SCRATCH
    b: i8[16, 16] @ GEMM_SCRATCH
    c: i32[16, 16] @ GEMM_ACCUM
    ld_i8(16, 16, A, a)
    ld_i8(16, 16, B, b)
    ld_acc_i32(16, 16, C0, c)
    matmul_acc_i8(16, 16, 16, a, b, c)
    st_acc_i32(16, 16, c, C)
)",
                           "t");
  EXPECT_EQ(interpreter_vs_model(p, {}, 13, INT_MIN, INT_MAX), "");
}

TEST(GemminiLibrary, ScaledStoreRoundsHalfToEvenSaturatesAndRelus) {
  Proc p = parse_test_proc(R"(
def t(act: bool, s: f32 @ DRAM, C0: i32[16, 16] @ DRAM, X: i8[16, 16] @ DRAM, Y: i8[16, 16] @ DRAM):
    c: i32[16, 16] @ GEMM_ACCUM
    ld_acc_i32(16, 16, C0, c)
    st_acc_i8(16, 16, s, act, c, X)
    config_st_acc_i8(s, stride(Y, 0), act)
    do_st_acc_i8(16, 16, c, Y)
)",
                           "t");
  // Halves of small odd values exercise ties to even; the extremes saturate.
  std::vector<ArgValue> args = random_args(p, {}, 17, {.integer_valued = true, .lo = -9, .hi = 9});
  Buffer& c0 = std::get<Buffer>(args[2]);
  std::vector<double> edges = {INT_MAX, INT_MIN, 255, 256, 257, -255, -256, -257, 253, -253};
  for (size_t i = 0; i < edges.size(); ++i) c0.set_flat(static_cast<int64_t>(i), edges[i]);
  for (bool act : {false, true}) {
    for (double scale : {0.5, 1.0, 0.25, -0.5, 3.0, 1e30, -1e30, std::nan(""), double(INFINITY)}) {
      std::vector<ArgValue> a = deep_copy(args);
      a[0] = act;
      std::get<Buffer>(a[1]).set_flat(0, scale);
      std::vector<ArgValue> b = deep_copy(a);
      interpret(p, a);
      CompiledLibrary lib({p}, "gemmini_store", gemmini::model_compile_options());
      lib.call(p.name(), b);
      // (The outputs X and Y: the scale argument itself is NaN in both runs at one point.)
      for (size_t out : {3, 4})
        EXPECT_EQ(compare_buffers(std::get<Buffer>(b[out]), std::get<Buffer>(a[out]), "out"), "")
            << "act " << act << " scale " << scale;
    }
  }
}

TEST(GemminiLibrary, BiasBroadcastAndZeroingLoads) {
  Proc p = parse_test_proc(R"(
def t(n: size, bias: i32[16] @ DRAM, C: i32[16, 16] @ DRAM, Z: i32[16, 16] @ DRAM, W: i8[16, 16] @ DRAM):
    assert n <= 16
    c: i32[16, 16] @ GEMM_ACCUM
    z: i32[16, 16] @ GEMM_ACCUM
    w: i8[16, 16] @ GEMM_SCRATCH
    ld_acc_i32_vector(16, 16, bias, c)
    zero_acc_i32(16, 16, z)
    zero_i8(16, 16, w)
    config_ld_acc_i32(0)
    do_ld_acc_i32_vector(n, 16, bias, c[0:n, :])
    st_acc_i32(16, 16, c, C)
    st_acc_i32(16, 16, z, Z)
    st_i8(16, 16, w, W)
)",
                           "t");
  EXPECT_EQ(interpreter_vs_model(p, {{"n", 5}}, 19, INT_MIN, INT_MAX), "");
}

TEST(GemminiLibrary, PlainCodeReadingTheScratchpadIsALocatedError) {
  gemmini::register_library();
  ParseOptions opts;
  opts.procs = gemmini::library().procs;
  opts.configs = gemmini::library().configs;
  try {
    parse_module(R"(
def t(A: i8[16, 16] @ DRAM, X: i8[16] @ DRAM):
    a: i8[16, 16] @ GEMM_SCRATCH
    ld_i8(16, 16, A, a)
    for j in seq(0, 16):
        X[j] = a[0, j]
)",
                 opts, "scratch.exo");
    FAIL() << "a plain read of GEMM_SCRATCH was accepted";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("scratch.exo:6:"), std::string::npos) << what;
    EXPECT_NE(what.find("GEMM_SCRATCH"), std::string::npos) << what;
  }
}

TEST(GemminiLibrary, SlotZeroBlockLoadAndAccumulatorLoadMatchTheirBodies) {
  Proc p = parse_test_proc(R"(
def t(A: i8[16, 64] @ DRAM, C0: i32[16, 16] @ DRAM, X: i8[4, 16, 16] @ DRAM, C: i32[16, 16] @ DRAM):
    a: i8[4, 16, 16] @ GEMM_SCRATCH
    c: i32[16, 16] @ GEMM_ACCUM
    config_ld_i8(stride(A, 0))
    config_ld_acc_i32(stride(C0, 0))
    do_ld_i8_block(16, 4, A, a)
    do_ld_acc_i32(16, 16, C0, c)
    st_i8(16, 16, a[0, :, :], X[0, :, :])
    st_i8(16, 16, a[1, :, :], X[1, :, :])
    st_i8(16, 16, a[2, :, :], X[2, :, :])
    st_i8(16, 16, a[3, :, :], X[3, :, :])
    st_acc_i32(16, 16, c, C)
)",
                           "t");
  EXPECT_EQ(interpreter_vs_model(p, {}, 23, INT_MIN, INT_MAX), "");
}

TEST(GemminiLibrary, AScheduleLeavingPlainCodeOnTheScratchpadIsRefusedAtEmission) {
  Proc p = parse_test_proc(R"(
def t(A: i8[16, 16] @ DRAM, B: i8[16, 16] @ DRAM):
    for i in seq(0, 16):
        for j in seq(0, 16):
            B[i, j] = A[i, j]
)",
                           "t");
  p = stage_mem(p, p.find_loop("i"), "A[0:16, 0:16]", "a");
  p = set_memory(p, "a", gemmini::GEMM_SCRATCH());  // the copy and the loop still read it
  try {
    compile_procs_to_c({p}, "t");
    FAIL() << "C that reads the scratchpad from plain code was emitted";
  } catch (const CodegenError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("GEMM_SCRATCH"), std::string::npos) << what;
    EXPECT_NE(what.find("<string>:"), std::string::npos) << what;  // located
  }
}

}  // namespace
}  // namespace exocpp
