// The front-end checks: bounds of every access and window, satisfiable asserts, calls against
// their callee's asserts, extents and sizes. Errors are pinned by class and message.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

// Runs check_proc on the last proc of `src`; returns the error's reason, location and
// counterexample, or "" when it passed.
template <class E>
std::string failure(const std::string& src, std::string* cex = nullptr, SrcInfo* loc = nullptr) {
  Proc p = parse_proc(src);
  try {
    check_proc(p);
  } catch (const E& e) {
    if (cex) *cex = e.counterexample();
    if (loc) *loc = e.loc();
    return e.reason();
  }
  return "";
}

TEST(BoundsCheck, GemmIsInBounds) {
  EXPECT_NO_THROW(check_proc(parse_proc(R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)")));
}

TEST(BoundsCheck, ReadPastTheEndIsAnErrorAtTheRead) {
  std::string cex;
  SrcInfo loc;
  std::string reason = failure<BoundsError>(R"(
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = x[i + 1]
)",
                                            &cex, &loc);
  EXPECT_EQ(
      reason,
      "the read `x[i + 1]` is out of bounds: index `i + 1` of dimension 0 is 1, outside [0, 1)");
  EXPECT_EQ(cex, "with n = 1, i = 0");
  EXPECT_EQ(loc.line, 4);
  EXPECT_EQ(loc.col, 16);
}

TEST(BoundsCheck, WriteBelowZeroIsAnError) {
  std::string cex;
  std::string reason = failure<BoundsError>(R"(
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i - 1] = 0.0
)",
                                            &cex);
  std::vector<long> v = captures(
      reason,
      R"(^the write to `x\[i - 1\]` is out of bounds: index `i - 1` of dimension 0 is -(\d+), outside \[0, (\d+)\)$)");
  ASSERT_EQ(v.size(), 2u) << reason;
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(cex.rfind("with n = ", 0), 0u);
  EXPECT_NE(cex.find("i = 0"), std::string::npos);
}

TEST(BoundsCheck, ReductionIsChecked) {
  std::string reason = failure<BoundsError>(R"(
def f(x: f32[4] @ DRAM):
    for i in seq(0, 5):
        x[i] += 1.0
)");
  EXPECT_EQ(
      reason,
      "the reduction into `x[i]` is out of bounds: index `i` of dimension 0 is 4, outside [0, 4)");
}

TEST(BoundsCheck, GuardedAccessIsInBounds) {
  EXPECT_NO_THROW(check_proc(parse_proc(R"(
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        if i + 1 < n:
            x[i] = x[i + 1]
)")));
}

TEST(BoundsCheck, AssertMakesAccessInBounds) {
  EXPECT_NO_THROW(check_proc(parse_proc(R"(
def f(n: size, x: f32[16] @ DRAM):
    assert n <= 16
    for i in seq(0, n):
        x[i] = 0.0
)")));
}

TEST(BoundsCheck, WindowRangePastTheEndIsAnError) {
  std::string cex;
  std::string reason = failure<BoundsError>(R"(
def f(n: size, x: f32[n, 8] @ DRAM):
    for i in seq(0, n):
        w = x[i, 4:12]
        w[0] = 1.0
)",
                                            &cex);
  EXPECT_EQ(
      reason,
      "the window `x[i, 4:12]` is out of bounds: range `4:12` of dimension 1 is 4:12, outside 0:8");
  EXPECT_EQ(cex, "with n = 1, i = 0");
}

TEST(BoundsCheck, AccessThroughAWindowUsesTheWindowsShape) {
  std::string reason = failure<BoundsError>(R"(
def f(x: f32[16] @ DRAM):
    w = x[4:8]
    for i in seq(0, 5):
        w[i] = 1.0
)");
  EXPECT_EQ(reason,
            "the write to `w[i]` is out of bounds: index `i` of dimension 0 is 4, outside [0, 4)");
}

TEST(BoundsCheck, AllocatedBufferIsChecked) {
  std::string reason = failure<BoundsError>(R"(
def f(x: f32[16] @ DRAM):
    t: f32[8] @ DRAM
    for i in seq(0, 16):
        t[i / 2 + 1] = x[i]
)");
  EXPECT_EQ(reason,
            "the write to `t[i / 2 + 1]` is out of bounds: index `i / 2 + 1` of dimension 0 is 8, "
            "outside [0, 8)");
}

TEST(BoundsCheck, IndexOutsideTheFragmentIsAnErrorSayingWhy) {
  std::string reason = failure<BoundsError>(R"(
config Cfg:
    k: index
def f(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[Cfg.k] = 1.0
)");
  EXPECT_EQ(reason,
            "cannot prove that the write to `x[Cfg.k]` is in bounds: `Cfg.k` reads a config field, "
            "whose value is not modelled");
}

TEST(AssertCheck, ContradictoryAssertIsAnErrorAtThatAssert) {
  SrcInfo loc;
  std::string reason = failure<AssertError>(R"(
def f(n: size, x: f32[n] @ DRAM):
    assert n >= 4
    assert n < 3
    pass
)",
                                            nullptr, &loc);
  EXPECT_EQ(reason,
            "the asserts of f can never hold together: `n < 3` contradicts the sizes and the "
            "asserts before it");
  EXPECT_EQ(loc.line, 4);
}

TEST(AssertCheck, AssertContradictingPositiveSizeIsAnError) {
  std::string reason = failure<AssertError>(R"(
def f(n: size):
    assert n < 1
    pass
)");
  EXPECT_EQ(reason,
            "the asserts of f can never hold together: `n < 1` contradicts the sizes and the "
            "asserts before it");
}

TEST(AssertCheck, SatisfiableAssertsPass) {
  EXPECT_NO_THROW(check_asserts_satisfiable(parse_proc(R"(
def f(n: size, m: size):
    assert n % 4 == 0
    assert m > n
    pass
)")));
}

const char* kCallee = R"(
def g(n: size, x: [f32][n] @ DRAM):
    assert n % 4 == 0
    pass
)";

TEST(CallCheck, CallViolatingTheCalleesAssertIsAnError) {
  std::string cex;
  SrcInfo loc;
  std::string reason = failure<AssertError>(std::string(kCallee) + R"(
def f(n: size, x: f32[n] @ DRAM):
    g(n, x[0:n])
)",
                                            &cex, &loc);
  EXPECT_EQ(reason, "the call to g may violate the assert `n % 4 == 0` of g (here `n % 4 == 0`)");
  std::vector<long> v = captures(cex, R"(^with n = (\d+)$)");
  ASSERT_EQ(v.size(), 1u) << cex;
  EXPECT_NE(v[0] % 4, 0);
  EXPECT_EQ(loc.line, 7);
}

TEST(CallCheck, CallerAssertDischargesTheCalleesAssert) {
  EXPECT_NO_THROW(check_proc(parse_proc(std::string(kCallee) + R"(
def f(n: size, x: f32[n] @ DRAM):
    assert n % 8 == 0
    g(n, x[0:n])
)")));
}

TEST(CallCheck, CalleeAssertInTermsOfAnExpressionArgument) {
  std::string reason = failure<AssertError>(std::string(kCallee) + R"(
def f(n: size, x: f32[4 * n + 2] @ DRAM):
    g(4 * n + 2, x[0:4 * n + 2])
)");
  EXPECT_EQ(reason,
            "the call to g may violate the assert `n % 4 == 0` of g (here `(4 * n + 2) % 4 == 0`)");
}

TEST(CallCheck, WindowOfTheWrongExtentIsAnError) {
  std::string reason = failure<AssertError>(R"(
def g(x: [f32][4] @ DRAM):
    pass
def f(x: f32[8] @ DRAM):
    g(x[0:5])
)");
  EXPECT_EQ(
      reason,
      "the call to g passes extent `5` for dimension 0 of argument x of g, which has extent `4`");
}

TEST(CallCheck, NonPositiveSizeArgumentIsAnError) {
  std::string cex;
  std::string reason = failure<AssertError>(R"(
def g(m: size, x: [f32][4] @ DRAM):
    pass
def f(n: size, x: f32[8] @ DRAM):
    g(n - 1, x[0:4])
)",
                                            &cex);
  EXPECT_EQ(reason,
            "the call to g may pass a non-positive size: the size argument m = `n - 1` of g");
  EXPECT_EQ(cex, "with n = 1");
}

TEST(CallCheck, CalleeStrideAssertHoldsForADenseRow) {
  EXPECT_NO_THROW(check_proc(parse_proc(R"(
def g(x: [f32][4] @ DRAM):
    assert stride(x, 0) == 1
    pass
def f(n: size, A: f32[n, 4] @ DRAM):
    for i in seq(0, n):
        g(A[i, 0:4])
)")));
}

TEST(CallCheck, CalleeStrideAssertFailsForAColumn) {
  std::string cex;
  std::string reason = failure<AssertError>(R"(
def g(x: [f32][4] @ DRAM):
    assert stride(x, 0) == 1
    pass
def f(A: f32[4, 4] @ DRAM):
    g(A[0:4, 1])
)",
                                            &cex);
  EXPECT_EQ(
      reason,
      "the call to g may violate the assert `stride(x, 0) == 1` of g (here `stride(A, 0) == 1`)");
  EXPECT_EQ(cex, "for any values");
}

// A window stands for a tensor parameter (a plain pointer) only when it is dense.
TEST(CallCheck, DenseBlockOfRowsMayStandForATensor) {
  EXPECT_NO_THROW(check_proc(parse_proc(R"(
def g(x: f32[2, 4] @ DRAM):
    pass
def f(n: size, A: f32[n, 4] @ DRAM):
    assert n >= 3
    g(A[1:3, 0:4])
)")));
}

TEST(CallCheck, ColumnGivenForATensorIsAnError) {
  std::string cex;
  std::string reason = failure<AssertError>(R"(
def g(x: f32[4] @ DRAM):
    pass
def f(A: f32[4, 4] @ DRAM):
    g(A[0:4, 1])
)",
                                            &cex);
  EXPECT_EQ(
      reason,
      "the call to g may pass a strided window: the window `A[0:4, 1]` given for the tensor "
      "parameter x of g must be dense (row-major, no gaps), because a tensor parameter is a plain "
      "pointer; declare the parameter as a window [f32][...] to accept strides");
  EXPECT_EQ(cex, "for any values");
}

// A window argument of the caller is dense where its asserts say so.
TEST(CallCheck, WindowArgumentWithAUnitStrideAssertMayStandForATensor) {
  EXPECT_NO_THROW(check_proc(parse_proc(R"(
def g(x: f32[8] @ DRAM):
    pass
def f(y: [f32][8] @ DRAM):
    assert stride(y, 0) == 1
    g(y)
)")));
  EXPECT_NE(failure<AssertError>(R"(
def g(x: f32[8] @ DRAM):
    pass
def f(y: [f32][8] @ DRAM):
    g(y)
)"),
            "");
}

// Config fields in asserts: a proc's asserts speak of the values the fields hold on entry; at a
// call, a callee's assert reads what the field holds there (the last write, or the entry value).
const char* kConfigLoad = R"(
config ConfigLoad:
    src_stride: stride

def bar(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    pass
)";

TEST(ConfigCheck, AssertOnAConfigFieldIsDecided) {
  EXPECT_NO_THROW(check_proc(parse_module(kConfigLoad).proc("bar")));
}

TEST(ConfigCheck, CallersAssertOnTheEntryValueDischargesTheCallees) {
  EXPECT_NO_THROW(check_proc(parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    bar(n, src)
)")
                                 .proc("foo")));
}

TEST(ConfigCheck, WriteBeforeTheCallDischargesTheCalleesAssert) {
  EXPECT_NO_THROW(check_proc(parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, src: [i8][n] @ DRAM):
    ConfigLoad.src_stride = stride(src, 0)
    bar(n, src)
)")
                                 .proc("foo")));
}

TEST(ConfigCheck, UnknownFieldValueAtTheCallIsAnError) {
  Proc foo = parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, src: [i8][n] @ DRAM):
    bar(n, src)
)")
                 .proc("foo");
  try {
    check_proc(foo);
    ADD_FAILURE() << "the call was accepted";
  } catch (const AssertError& e) {
    EXPECT_EQ(
        e.reason(),
        "the call to bar may violate the assert `stride(src, 0) == ConfigLoad.src_stride` of bar "
        "(here `stride(src, 0) == ConfigLoad.src_stride`)");
    EXPECT_NE(e.counterexample().find("ConfigLoad.src_stride = "), std::string::npos)
        << e.counterexample();
  }
}

// The entry value is only what the field holds before any write: after a write of another value
// the caller's assert about the entry value says nothing.
TEST(ConfigCheck, EntryAssertDoesNotOutliveAWrite) {
  Proc foo = parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    ConfigLoad.src_stride = 2
    bar(n, src)
)")
                 .proc("foo");
  EXPECT_THROW(check_proc(foo), AssertError);
}

}  // namespace
}  // namespace exocpp::checker::testing
