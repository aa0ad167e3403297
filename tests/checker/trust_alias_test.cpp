// Issue 11, class 4: a call may not pass a buffer the callee writes overlapping another buffer
// argument (checker::check_calls, AliasError).
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

namespace exocpp::checker {
namespace {

const char* kSrc = R"(
def g(x: [f32][1] @ DRAM, y: [f32][1] @ DRAM):
    x[0] = y[0] + 1.0

def rd(x: [f32][1] @ DRAM, y: [f32][1] @ DRAM):
    pass

def same(A: f32[4] @ DRAM):
    g(A[0:1], A[0:1])

def apart(A: f32[4] @ DRAM):
    g(A[0:1], A[1:2])

def maybe(i: index, j: index, A: f32[4] @ DRAM):
    assert i >= 0 and i < 4 and j >= 0 and j < 4
    g(A[i:i + 1], A[j:j + 1])

def readonly(A: f32[4] @ DRAM):
    rd(A[0:1], A[0:1])

def through_window(A: f32[4] @ DRAM):
    w = A[0:2]
    g(w[1:2], A[1:2])
)";

TEST(TrustAlias, RefusesSameWindowWritten) {
  Module m = parse_module(kSrc);
  try {
    check_calls(m.proc("same"));
    ADD_FAILURE() << "accepted";
  } catch (const AliasError& e) {
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
}

TEST(TrustAlias, AcceptsDisjointWindows) {
  EXPECT_NO_THROW(check_calls(parse_module(kSrc).proc("apart")));
}

TEST(TrustAlias, RefusesPossiblyOverlappingWithCounterexample) {
  try {
    check_calls(parse_module(kSrc).proc("maybe"));
    ADD_FAILURE() << "accepted";
  } catch (const AliasError& e) {
    EXPECT_FALSE(e.counterexample().empty()) << e.what();
  }
}

TEST(TrustAlias, AcceptsOverlapOfReadOnlyArguments) {
  EXPECT_NO_THROW(check_calls(parse_module(kSrc).proc("readonly")));
}

TEST(TrustAlias, SeesOverlapThroughWindowStatement) {
  EXPECT_THROW(check_calls(parse_module(kSrc).proc("through_window")), AliasError);
}

}  // namespace
}  // namespace exocpp::checker
