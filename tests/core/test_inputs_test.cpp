// Tests of the random-input and comparison helpers (core/test_inputs.h) that rewrite and codegen
// tests use to check two procs agree.
#include "core/test_inputs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "core/parser.h"

namespace exocpp {
namespace {

const char* kCopy = R"(
def copy(N: size, M: size, x: f32[N, M] @ DRAM, y: f32[N, M] @ DRAM):
    assert N % 4 == 0
    assert M >= N
    for i in seq(0, N):
        for j in seq(0, M):
            y[i, j] = x[i, j]
)";

std::string random_args_error(const Proc& p, const std::map<std::string, int64_t>& sizes,
                              const RandomArgsOptions& opts = {}) {
  try {
    random_args(p, sizes, 1, opts);
  } catch (const InterpError& e) {
    return e.reason();
  }
  return "(no error)";
}

TEST(RandomArgs, FreeSizesSatisfyTheAsserts) {
  Proc p = parse_module(kCopy).proc("copy");
  std::set<int64_t> seen;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    auto args = random_args(p, {}, seed, {.max_size = 16});
    int64_t N = std::get<int64_t>(args[0]), M = std::get<int64_t>(args[1]);
    EXPECT_EQ(N % 4, 0) << "seed " << seed;
    EXPECT_GE(M, N) << "seed " << seed;
    EXPECT_EQ(std::get<Buffer>(args[2]).shape(), (std::vector<int64_t>{N, M}));
    seen.insert(N);
  }
  EXPECT_GE(seen.size(), 2u);  // the sizes are drawn, not fixed
}

TEST(RandomArgs, GivenSizesAreUsedAndShapesFollow) {
  Proc p = parse_module(kCopy).proc("copy");
  auto args = random_args(p, {{"N", 8}}, 3);
  EXPECT_EQ(std::get<int64_t>(args[0]), 8);
  EXPECT_GE(std::get<int64_t>(args[1]), 8);
  EXPECT_EQ(std::get<Buffer>(args[3]).shape()[0], 8);
}

TEST(RandomArgs, UnsatisfiableGivenSizesFailAtOnce) {
  Proc p = parse_module(kCopy).proc("copy");
  EXPECT_EQ(random_args_error(p, {{"N", 6}, {"M", 6}}),
            "random_args: no argument values for proc 'copy' found in 1 try: `assert N % 4 == 0` "
            "does not hold for N = 6, M = 6 (every control argument was given)");
}

TEST(RandomArgs, UnsatisfiableFreeSizesFailAfterMaxTries) {
  // (No `%` assert: with one, the last draws are multiples of its modulus and could reach M.)
  Proc p = parse_module(R"(
def copy(N: size, M: size, x: f32[N, M] @ DRAM):
    assert M >= N
    pass
)")
               .proc("copy");
  std::string msg = random_args_error(p, {{"N", 8}}, {.max_size = 1, .max_tries = 50});
  EXPECT_THAT(msg,
              ::testing::StartsWith("random_args: no argument values for proc 'copy' found in "
                                    "50 tries: `assert M >= N` does not hold for N = 8, M = "));
}

TEST(RandomArgs, SizesWidenWhenSmallOnesCannotMeetTheAsserts) {
  Proc p = parse_module(R"(
def k(N: size, x: f32[N] @ DRAM):
    assert N % 16 == 0
    pass
)")
               .proc("k");
  auto args = random_args(p, {}, 1, {.max_size = 8});
  int64_t N = std::get<int64_t>(args[0]);
  EXPECT_EQ(N % 16, 0);
  EXPECT_LE(N, 32);
}

TEST(RandomArgs, LargeModuliAreMetByTheLastDraws) {
  Proc p = parse_module(R"(
def k(N: size, M: size, x: f32[N, M] @ DRAM):
    assert N % 64 == 0
    assert M % 48 == 0
    pass
)")
               .proc("k");
  auto args = random_args(p, {}, 1, {.max_size = 2, .max_tries = 60});
  EXPECT_EQ(std::get<int64_t>(args[0]) % 64, 0);
  EXPECT_EQ(std::get<int64_t>(args[1]) % 48, 0);
}

TEST(RandomArgs, AssertsReadingConfigsSeeTheGivenState) {
  Proc p = parse_module(R"(
config Cfg:
    n: size

def k(N: size, x: f32[N] @ DRAM):
    assert N == Cfg.n
    pass
)")
               .proc("k");
  ConfigState cfg;
  cfg.set("Cfg", "n", int64_t(5));
  auto args = random_args(p, {}, 1, {.configs = &cfg});
  EXPECT_EQ(std::get<int64_t>(args[0]), 5);
}

TEST(RandomArgs, UnknownSizeNameListsTheArguments) {
  Proc p = parse_module(kCopy).proc("copy");
  EXPECT_EQ(random_args_error(p, {{"K", 8}}),
            "random_args: proc 'copy' has no argument named 'K' (its arguments: N, M, x, y)");
}

TEST(RandomArgs, SameSeedSameValuesOtherSeedOtherValues) {
  Proc p = parse_module(kCopy).proc("copy");
  auto a = random_args(p, {{"N", 4}, {"M", 4}}, 7);
  auto b = random_args(p, {{"N", 4}, {"M", 4}}, 7);
  auto c = random_args(p, {{"N", 4}, {"M", 4}}, 8);
  EXPECT_EQ(compare_args(p, a, b), "");
  EXPECT_NE(compare_args(p, a, c), "");
}

TEST(RandomArgs, IntegerValuesLieInRangeAndUnsignedAreNonNegative) {
  Proc p = parse_module(R"(
def k(N: size, x: f32[N] @ DRAM, u: ui8[N] @ DRAM):
    pass
)")
               .proc("k");
  auto args = random_args(p, {{"N", 64}}, 5, {.lo = -3, .hi = 3});
  std::set<double> xs;
  for (double v : std::get<Buffer>(args[1]).to_vector()) {
    EXPECT_EQ(v, std::trunc(v));
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 3);
    xs.insert(v);
  }
  EXPECT_GE(xs.size(), 5u);
  for (double v : std::get<Buffer>(args[2]).to_vector()) {
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 3);
  }
}

TEST(RandomArgs, RealValuesAreRoundedToTheBufferType) {
  Proc p = parse_module(R"(
def k(N: size, x: f16[N] @ DRAM):
    pass
)")
               .proc("k");
  auto args = random_args(p, {{"N", 32}}, 5, {.integer_valued = false});
  bool any_fraction = false;
  for (double v : std::get<Buffer>(args[1]).to_vector()) {
    EXPECT_EQ(v, round_to_kind(ScalarKind::F16, v));
    any_fraction = any_fraction || v != std::trunc(v);
  }
  EXPECT_TRUE(any_fraction);
}

TEST(DeepCopy, CopiesAreIndependent) {
  Proc p = parse_module(kCopy).proc("copy");
  auto a = random_args(p, {{"N", 4}, {"M", 4}}, 1);
  auto b = deep_copy(a);
  std::get<Buffer>(b[2]).set({0, 0}, 1000.0);
  EXPECT_EQ(compare_args(p, a, b),
            "x[0, 0] differs: " +
                std::to_string(static_cast<int>(std::get<Buffer>(a[2]).get({0, 0}))) + " vs 1000");
}

const char* kGemms = R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]

def gemm_ikj(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for k in seq(0, K):
            for j in seq(0, M):
                C[i, j] += A[i, k] * B[k, j]

def gemm_wrong(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] = A[i, k] * B[k, j]

def gemm_oob(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K + 1):
                C[i, j] += A[i, k] * B[k, j]
)";

TEST(CompareProcs, EquivalentLoopOrdersAgree) {
  Module m = parse_module(kGemms);
  EXPECT_EQ(compare_procs(m.proc("gemm"), m.proc("gemm_ikj"), {}), "");
}

TEST(CompareProcs, WrongRewriteIsReportedWithSeedAndElement) {
  Module m = parse_module(kGemms);
  std::string d =
      compare_procs(m.proc("gemm"), m.proc("gemm_wrong"), {{"N", 3}, {"M", 3}, {"K", 4}}, 5);
  EXPECT_THAT(
      d, ::testing::StartsWith("'gemm' vs 'gemm_wrong' with seed 5 (N = 3, M = 3, K = 4): C["));
  EXPECT_THAT(d, ::testing::HasSubstr("differs"));
}

TEST(CompareProcs, FaultInSecondProcIsReported) {
  Module m = parse_module(kGemms);
  std::string d = compare_procs(m.proc("gemm"), m.proc("gemm_oob"), {{"N", 2}, {"M", 2}, {"K", 2}});
  EXPECT_THAT(d, ::testing::HasSubstr("running 'gemm_oob' failed: "));
  EXPECT_THAT(d, ::testing::HasSubstr("out-of-bounds read: A[0, 2] is outside A of shape [2, 2]"));
}

TEST(CompareProcs, ConfigStateIsCompared) {
  Module m = parse_module(R"(
config Cfg:
    n: index

def a(N: size, x: f32[N] @ DRAM):
    Cfg.n = N

def b(N: size, x: f32[N] @ DRAM):
    Cfg.n = N + 1
)");
  EXPECT_EQ(compare_procs(m.proc("a"), m.proc("b"), {{"N", 4}}, 1, {.trials = 1}),
            "'a' vs 'b' with seed 1 (N = 4): config Cfg.n differs: 4 vs 5");
}

TEST(CompareProcs, ConfigComparisonCanBeTurnedOff) {
  Module m = parse_module(R"(
config Cfg:
    n: index

def a(N: size, x: f32[N] @ DRAM):
    Cfg.n = N

def b(N: size, x: f32[N] @ DRAM):
    pass
)");
  CompareProcsOptions opts;
  EXPECT_THAT(compare_procs(m.proc("a"), m.proc("b"), {}, 1, opts),
              ::testing::HasSubstr("is written only in the first run"));
  opts.compare_configs = false;
  EXPECT_EQ(compare_procs(m.proc("a"), m.proc("b"), {}, 1, opts), "");
}

TEST(CompareProcs, ParLoopWithCarriedDependenceIsCaught) {
  Module m = parse_module(R"(
def prefix_seq(N: size, x: f32[N + 1] @ DRAM):
    for i in seq(0, N):
        x[i + 1] += x[i]

def prefix_par(N: size, x: f32[N + 1] @ DRAM):
    for i in par(0, N):
        x[i + 1] += x[i]
)");
  EXPECT_THAT(compare_procs(m.proc("prefix_seq"), m.proc("prefix_par"), {{"N", 6}}),
              ::testing::HasSubstr("x["));
  CompareProcsOptions in_order;
  in_order.reverse_par_in_b = false;
  EXPECT_EQ(compare_procs(m.proc("prefix_seq"), m.proc("prefix_par"), {{"N", 6}}, 1, in_order), "");
}

const char* kRealAndFloat = R"(
def dot_r(N: size, x: R[N] @ DRAM, y: R[N] @ DRAM, r: R[1] @ DRAM):
    t: R[1] @ DRAM
    t[0] = 0.0
    for i in seq(0, N):
        t[0] += x[i] * y[i]
    r[0] = t[0]

def dot_f32(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM, r: f32[1] @ DRAM):
    t: f32[1] @ DRAM
    t[0] = 0.0
    for i in seq(0, N):
        t[0] += x[i] * y[i]
    r[0] = t[0]
)";

TEST(CompareProcs, RealAsF32MirrorsTheF32Proc) {
  Module m = parse_module(kRealAndFloat);
  CompareProcsOptions opts;
  opts.inputs = {.integer_valued = false, .real_as = ScalarKind::F32};
  opts.interp.real_as = ScalarKind::F32;
  EXPECT_EQ(compare_procs(m.proc("dot_r"), m.proc("dot_f32"), {{"N", 50}}, 1, opts), "");
}

TEST(CompareProcs, ExactRDiffersFromF32OnRealValues) {
  Module m = parse_module(kRealAndFloat);
  CompareProcsOptions opts;
  opts.inputs = {.integer_valued = false, .real_as = ScalarKind::F32};
  opts.trials = 5;  // deterministic seeds; float rounding shows in at least one of them
  EXPECT_THAT(compare_procs(m.proc("dot_r"), m.proc("dot_f32"), {{"N", 200}}, 1, opts),
              ::testing::HasSubstr("r[0] differs"));
}

// Every proc of the printer's corpus (tests/corpus/*.exo) runs on random inputs; the only
// procs allowed to fail (with an InterpError, never another exception) are those whose asserts
// read config state no one has written.
TEST(RandomArgs, EveryCorpusProcRunsOrFailsCleanly) {
  int ran = 0, total = 0;
  std::string failures;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EXOCPP_TEST_DATA_DIR) + "/corpus")) {
    if (entry.path().extension() != ".exo") continue;
    Module m = parse_file(entry.path().string());
    for (const Proc& p : m.procs) {
      ++total;
      try {
        auto args = random_args(p, {}, 1, {.max_size = 6});
        interpret(p, args, {.max_steps = 10'000'000});
        ++ran;
      } catch (const InterpError& e) {
        if (e.reason().find("is read before it was ever written") == std::string::npos)
          failures += entry.path().filename().string() + ": " + p.name() + ": " + e.reason() + "\n";
      }
    }
  }
  EXPECT_GT(total, 0);
  EXPECT_GT(ran, 0);
  EXPECT_EQ(failures, "");
}

}  // namespace
}  // namespace exocpp
