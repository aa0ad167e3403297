// loops_can_interchange, can_fission and can_fuse: proved, refuted with a checked
// counterexample, and unknown cases.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

const char* kGemm = R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)";

TEST(Interchange, GemmLoopsInterchange) {
  Proc p = parse_proc(kGemm);
  for (const char* it : {"i", "j"}) {
    Stmt l = loop(p, it);
    EXPECT_TRUE(loops_can_interchange(Context::at(p, l), l).proved()) << it;
  }
}

TEST(Interchange, AntiDiagonalDependenceIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, m: size, x: f32[n + 1, m + 1] @ DRAM):
    for i in seq(1, n):
        for j in seq(0, m):
            x[i, j] = x[i - 1, j + 1]
)");
  Stmt l = loop(p, "i");
  Answer ans = loops_can_interchange(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(^iteration \(i = (\d+), j = (\d+)\) (?:writes|reads) x\[(\d+), (\d+)\] at line 5, then iteration \(i = (\d+), j = (\d+)\) (?:writes|reads) x\[(\d+), (\d+)\] at line 5)");
  ASSERT_EQ(v.size(), 8u) << ans.counterexample;
  EXPECT_LT(v[0], v[4]);  // i1 < i2
  EXPECT_GT(v[1], v[5]);  // j1 > j2
  EXPECT_EQ(v[2], v[6]);
  EXPECT_EQ(v[3], v[7]);
}

TEST(Interchange, TriangularBoundsAreRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, n] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, i):
            x[i, j] = 0.0
)");
  Stmt l = loop(p, "i");
  Answer ans = loops_can_interchange(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the bounds of loop j depend on i");
}

TEST(Interchange, ImperfectNestIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n, n] @ DRAM):
    for i in seq(0, n):
        x[i, 0] = 1.0
        for j in seq(0, n):
            x[i, j] = 0.0
)");
  Stmt l = loop(p, "i");
  Answer ans = loops_can_interchange(Context::at(p, l), l);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "loop i does not hold exactly one loop");
}

TEST(Interchange, ConfigIndexIsUnknown) {
  Proc p = parse_proc(R"(
config Cfg:
    k: index
def f(n: size, x: f32[n, n] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, n):
            x[Cfg.k, j] = 0.0
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(loops_can_interchange(Context::at(p, l), l).unknown());
}

// ---- fission -------------------------------------------------------------------------------

TEST(Fission, ProducerBeforeConsumerOfSameIterationIsProved) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
        y[i] = x[i]
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(can_fission(Context::at(p, l), l, 1).proved());
}

TEST(Fission, ReadOfNextIterationsWriteIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n + 1] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
        y[i] = x[i + 1]
)");
  Stmt l = loop(p, "i");
  Answer ans = can_fission(Context::at(p, l), l, 1);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(^iteration i = (\d+) \(after the gap\) reads x\[(\d+)\] at line 5, then iteration i = (\d+) \(before the gap\) writes x\[(\d+)\] at line 4)");
  ASSERT_EQ(v.size(), 4u) << ans.counterexample;
  EXPECT_EQ(v[1], v[0] + 1);
  EXPECT_EQ(v[2], v[0] + 1);
  EXPECT_EQ(v[3], v[1]);
}

TEST(Fission, AllocationUsedAcrossTheGapIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        t: f32 @ DRAM
        t = x[i]
        y[i] = t
)");
  Stmt l = loop(p, "i");
  Answer ans = can_fission(Context::at(p, l), l, 2);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "`t` is defined before the gap and used after it");
}

TEST(Fission, GapOutsideTheBodyIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(can_fission(Context::at(p, l), l, 1).refuted());
}

TEST(Fission, ConfigIndexIsUnknown) {
  Proc p = parse_proc(R"(
config Cfg:
    k: index
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[Cfg.k] = 1.0
        y[i] = x[i]
)");
  Stmt l = loop(p, "i");
  EXPECT_TRUE(can_fission(Context::at(p, l), l, 1).unknown());
}

// ---- fission of a loop-invariant, idempotent first part -----------------------------------

// Exo's x86 matmul: every jo rewrites the broadcast register t with the same values, which
// jo = 0's second part read before jo = 1 rewrote it. can_fission refuses the reordering; the
// rewrite is the same work each time, so the split is sound.
const char* kBroadcast = R"(
def f(x: f32[4] @ DRAM, y: f32[2, 8] @ DRAM):
    t: f32[8] @ DRAM
    for jo in seq(0, 2):
        for ji in seq(0, 8):
            t[ji] = x[1]
        for ji in seq(0, 8):
            y[jo, ji] += t[ji] * x[ji % 4]
)";

TEST(FissionSameWork, LoopInvariantRewriteOfABufferIsProved) {
  Proc p = parse_proc(kBroadcast);
  Stmt l = loop(p, "jo");
  EXPECT_TRUE(can_fission(Context::at(p, l), l, 1).refuted());
  EXPECT_TRUE(fission_first_part_idempotent(Context::at(p, l), l, 1).proved());
}

TEST(FissionSameWork, FirstPartMentioningTheIteratorIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[2, 8] @ DRAM):
    t: f32[8] @ DRAM
    for jo in seq(0, 2):
        for ji in seq(0, 8):
            t[ji] = x[jo]
        for ji in seq(0, 8):
            y[jo, ji] += t[ji]
)");
  Stmt l = loop(p, "jo");
  Answer ans = fission_first_part_idempotent(Context::at(p, l), l, 1);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the statements before the gap depend on jo");
}

TEST(FissionSameWork, FirstPartReducingIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[2] @ DRAM):
    s: f32 @ DRAM
    s = 0.0
    for jo in seq(0, 2):
        s += x[0]
        y[jo] = s
)");
  Stmt l = loop(p, "jo");
  Answer ans = fission_first_part_idempotent(Context::at(p, l), l, 1);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the part before the gap reduces into s, so running it twice adds twice");
}

TEST(FissionSameWork, FirstPartReadingWhatItWritesIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[2] @ DRAM):
    t: f32[2] @ DRAM
    t[1] = 0.0
    for jo in seq(0, 2):
        t[0] = t[1]
        t[1] = x[0]
        y[jo] = t[0]
)");
  Stmt l = loop(p, "jo");
  Answer ans = fission_first_part_idempotent(Context::at(p, l), l, 2);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason,
            "the part before the gap both reads and writes one location, so a second run may "
            "see the first run's writes");
}

TEST(FissionSameWork, SecondPartWritingWhatTheFirstReadsIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[2] @ DRAM):
    t: f32 @ DRAM
    for jo in seq(0, 2):
        t = x[0]
        x[0] = t + 1.0
        y[jo] = t
)");
  Stmt l = loop(p, "jo");
  Answer ans = fission_first_part_idempotent(Context::at(p, l), l, 1);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_NE(ans.counterexample.find("writes x[0]"), std::string::npos) << ans.counterexample;
}

TEST(FissionSameWork, SecondPartWritingWhatTheFirstWritesIsRefuted) {
  Proc p = parse_proc(R"(
def f(x: f32[4] @ DRAM, y: f32[2] @ DRAM):
    t: f32 @ DRAM
    for jo in seq(0, 2):
        t = x[0]
        y[jo] = t
        t = x[1]
)");
  Stmt l = loop(p, "jo");
  Answer ans = fission_first_part_idempotent(Context::at(p, l), l, 1);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  EXPECT_NE(ans.counterexample.find("writes t"), std::string::npos) << ans.counterexample;
}

// ---- fusion --------------------------------------------------------------------------------

TEST(Fuse, ElementwiseProducerConsumerIsProved) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
    for j in seq(0, n):
        y[j] = x[j]
)");
  Stmt a = loop(p, "i"), b = loop(p, "j");
  EXPECT_TRUE(can_fuse(Context::at(p, a), a, b).proved());
}

TEST(Fuse, ConsumerReadingALaterProducerIterationIsRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n + 1] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
    for j in seq(0, n):
        y[j] = x[j + 1]
)");
  Stmt a = loop(p, "i"), b = loop(p, "j");
  Answer ans = can_fuse(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.refuted()) << to_string(ans);
  std::vector<long> v = captures(
      ans.counterexample,
      R"(^iteration i = (\d+) of the first loop writes x\[(\d+)\] at line 4, then iteration j = (\d+) of the second loop reads x\[(\d+)\] at line 6)");
  ASSERT_EQ(v.size(), 4u) << ans.counterexample;
  EXPECT_EQ(v[1], v[0]);
  EXPECT_EQ(v[3], v[2] + 1);
  EXPECT_EQ(v[1], v[3]);
}

TEST(Fuse, DifferentBoundsAreRefuted) {
  Proc p = parse_proc(R"(
def f(n: size, x: f32[n + 1] @ DRAM, y: f32[n + 1] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
    for j in seq(0, n + 1):
        y[j] = 2.0
)");
  Stmt a = loop(p, "i"), b = loop(p, "j");
  Answer ans = can_fuse(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.refuted());
  EXPECT_EQ(ans.reason, "the loops have different bounds");
}

TEST(Fuse, BoundsEqualUnderAnAssertAreAccepted) {
  Proc p = parse_proc(R"(
def f(n: size, m: size, x: f32[n] @ DRAM, y: f32[m] @ DRAM):
    assert n == m
    for i in seq(0, n):
        x[i] = 1.0
    for j in seq(0, m):
        y[j] = 2.0
)");
  Stmt a = loop(p, "i"), b = loop(p, "j");
  EXPECT_TRUE(can_fuse(Context::at(p, a), a, b).proved());
}

TEST(Fuse, ConfigBoundIsUnknown) {
  Proc p = parse_proc(R"(
config Cfg:
    k: index
def f(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, Cfg.k):
        x[i] = 1.0
    for j in seq(0, Cfg.k):
        y[j] = 2.0
)");
  Stmt a = loop(p, "i"), b = loop(p, "j");
  Answer ans = can_fuse(Context::at(p, a), a, b);
  ASSERT_TRUE(ans.unknown()) << to_string(ans);
  EXPECT_EQ(ans.reason, "`Cfg.k` reads a config field, whose value is not modelled");
}

}  // namespace
}  // namespace exocpp::checker::testing
