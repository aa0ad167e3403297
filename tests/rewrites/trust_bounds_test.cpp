// Issue 11, class 2: relations between bounds. Every loop operation proves what it assumes
// about its bounds (non-negative ranges, cut points inside the range, lo <= mid <= hi, ...) and
// refuses with the checker's counterexample otherwise. Reproduction: redteam 01 (divide_loop
// with Tail::Cut on a possibly negative range).
#include "rewrite_test_util.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kNegative = R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N - 8):
        A[i + 8] = 1.0
)";

const char* kNonNegative = R"(
def f(N: size, A: f32[N] @ DRAM):
    assert N >= 8
    for i in seq(0, N - 8):
        A[i + 8] = 1.0
)";

TEST(TrustBounds, DivideLoopCutRefusesAPossiblyNegativeRange) {  // redteam 01
  Proc p = parse_proc(kNegative);
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Cut});
      },
      "divide_loop", "is not negative");
}

TEST(TrustBounds, DivideLoopCutAndGuardRefusesAPossiblyNegativeRange) {
  Proc p = parse_proc(kNegative);
  expect_refused(
      [&] {
        divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::CutAndGuard});
      },
      "divide_loop", "counterexample: N = ");
}

TEST(TrustBounds, DivideLoopCutAcceptsAProvedNonNegativeRange) {
  Proc p = parse_proc(kNonNegative);
  Proc q = divide_loop(p, "i", 4, {"io", "ii"}, {.tail = Tail::Cut});
  for (int64_t n : {8, 9, 12, 15}) expect_equivalent(p, q, {{"N", n}});
}

TEST(TrustBounds, DivideLoopGuardAcceptsANegativeRange) {
  // (N - 8 + 3) / 4 iterations of the outer loop, all guarded: none for N < 8.
  Proc p = parse_proc(kNegative);
  Proc q = divide_loop(p, "i", 4, {"io", "ii"});
  for (int64_t n : {1, 5, 8, 9, 13}) expect_equivalent(p, q, {{"N", n}});
}

const char* kTwoLoops = R"(
def f(M: size, N: size, A: f32[N + M] @ DRAM):
    for i in seq(0, M):
        A[i] = 1.0
    for i in seq(M, N):
        A[i] = 1.0
)";

TEST(TrustBounds, JoinLoopsRefusesAMidPointBeyondTheUpperBound) {
  Proc p = parse_proc(kTwoLoops);
  expect_refused([&] { join_loops(p, "i #0", "i #1"); }, "join_loops",
                 "the second loop's range is not negative");
}

TEST(TrustBounds, JoinLoopsRefusesAMidPointBelowTheLowerBound) {
  Proc p = parse_proc(R"(
def f(M: size, N: size, A: f32[N + M + 4] @ DRAM):
    for i in seq(4, M):
        A[i] = 1.0
    for i in seq(M, N):
        A[i] = 1.0
)");
  expect_refused([&] { join_loops(p, "i #0", "i #1"); }, "join_loops",
                 "the first loop's range is not negative");
}

TEST(TrustBounds, JoinLoopsAcceptsOrderedBounds) {
  Proc p = parse_proc(R"(
def f(M: size, N: size, A: f32[N] @ DRAM):
    assert M <= N
    for i in seq(0, M):
        A[i] = 1.0
    for i in seq(M, N):
        A[i] = 1.0
)");
  Proc q = join_loops(p, "i #0", "i #1");
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {1, 2}, {3, 3}, {2, 7}})
    expect_equivalent(p, q, {{"M", m}, {"N", n}});
}

TEST(TrustBounds, CutLoopRefusesACutOfANegativeRange) {
  Proc p = parse_proc(kNegative);
  expect_refused([&] { cut_loop(p, "i", "0"); }, "cut_loop", "at most the upper bound");
}

TEST(TrustBounds, CutLoopAcceptsACutInsideTheRange) {
  Proc p = parse_proc(kNonNegative);
  Proc q = cut_loop(p, "i", "(N - 8) / 2");
  for (int64_t n : {8, 9, 12}) expect_equivalent(p, q, {{"N", n}});
}

// A loop that may run zero times is not simply unwrapped: its body stays behind a guard.
TEST(TrustBounds, RemoveLoopKeepsALoopThatMayNotRunFromRunning) {
  Proc p = parse_proc(R"(
def f(N: size, x: f32 @ DRAM):
    for i in seq(0, N - 1):
        x = 1.0
)");
  Proc q = remove_loop(p, "i");
  for (int64_t n : {1, 2}) expect_equivalent(p, q, {{"N", n}});
}

TEST(TrustBounds, ShiftLoopKeepsAnEmptyRangeEmpty) {
  Proc p = parse_proc(kNegative);
  Proc q = shift_loop(p, "i", "3");
  for (int64_t n : {1, 7, 8, 11}) expect_equivalent(p, q, {{"N", n}});
}

TEST(TrustBounds, BoundAndGuardKeepsAnEmptyRangeEmpty) {
  Proc p = parse_proc(R"(
def f(N: size, A: f32[N + 8] @ DRAM):
    assert N <= 8
    for i in seq(4, N):
        A[i] = 1.0
)");
  Proc q = bound_and_guard(p, "i", "8");
  for (int64_t n : {1, 4, 5, 8}) expect_equivalent(p, q, {{"N", n}});
}

}  // namespace
