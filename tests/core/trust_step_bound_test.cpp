// The interpreter refuses, before running it, a loop whose iterations cannot all fit in the
// step limit, so compare_procs on a huge rewrite answers "too large" at once instead of
// running into the limit for minutes.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace exocpp {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

InterpError run_expecting_error(const Proc& p, std::vector<ArgValue> args, const InterpOptions& o) {
  try {
    interpret(p, args, o);
  } catch (const InterpError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InterpError";
  return InterpError({}, "");
}

TEST(TrustStepBound, AHugeLoopIsRefusedBeforeItRuns) {
  Proc p = parse_module(R"(
def h(A: f32[4] @ DRAM):
    for i in seq(0, 4503599627370497):
        A[0] = 1.0
)")
               .proc("h");
  auto t0 = std::chrono::steady_clock::now();
  InterpError e = run_expecting_error(p, {Buffer(ScalarKind::F32, {4})}, {});
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_NE(e.reason().find("would run 4503599627370497 iterations"), std::string::npos)
      << e.reason();
  EXPECT_NE(e.reason().find("too large to interpret"), std::string::npos) << e.reason();
  EXPECT_EQ(e.loc().line, 3);
}

TEST(TrustStepBound, NestedLiteralLoopsCountTogether) {
  Proc p = parse_module(R"(
def h(A: f32[4] @ DRAM):
    for i in seq(0, 100000):
        for j in seq(0, 100000):
            A[0] += 1.0
)")
               .proc("h");
  auto t0 = std::chrono::steady_clock::now();
  InterpError e = run_expecting_error(p, {Buffer(ScalarKind::F32, {4})}, {});
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_NE(
      e.reason().find("loop over i would run 100000 iterations of at least 100001 statements"),
      std::string::npos)
      << e.reason();
}

TEST(TrustStepBound, ALoopThatFitsExactlyRuns) {
  Proc p = parse_module(R"(
def h(A: f32[4] @ DRAM):
    for i in seq(0, 9):
        A[0] += 1.0
)")
               .proc("h");
  std::vector<ArgValue> args{Buffer(ScalarKind::F32, {4})};
  EXPECT_NO_THROW(interpret(p, args, {.max_steps = 10}));  // the loop and 9 bodies
  std::vector<ArgValue> again{Buffer(ScalarKind::F32, {4})};
  EXPECT_THROW(interpret(p, again, {.max_steps = 9}), InterpError);
}

TEST(TrustStepBound, TheBoundUsesTheValuesOfTheRun) {
  Proc p = parse_module(R"(
def h(N: size, A: f32[4] @ DRAM):
    for i in seq(0, N):
        if i < 0:
            A[0] = 1.0
            A[1] = 1.0
        else:
            A[2] = 1.0
)")
               .proc("h");
  std::vector<ArgValue> small{int64_t(10), Buffer(ScalarKind::F32, {4})};
  EXPECT_NO_THROW(interpret(p, small, {.max_steps = 1000}));
  // 600 iterations of at least 2 statements (the if and its cheaper branch) cannot fit in 1000.
  auto t0 = std::chrono::steady_clock::now();
  InterpError e =
      run_expecting_error(p, {int64_t(600), Buffer(ScalarKind::F32, {4})}, {.max_steps = 1000});
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_NE(e.reason().find("600 iterations of at least 2 statements"), std::string::npos)
      << e.reason();
}

TEST(TrustStepBound, CompareProcsOfAHugeDivisionAnswersQuickly) {
  // What dividing loop j by 2^52 + 1 with a guarded tail gives (divide_loop itself now refuses
  // divisors past 2^31 - 1).
  Module m = parse_module(R"(
def f(N: size, A: f32[N, 8] @ DRAM, B: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 8):
            B[i, j] = A[i, j] * 2.0

def g(N: size, A: f32[N, 8] @ DRAM, B: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        for a in seq(0, (8 + 4503599627370496) / 4503599627370497):
            for b in seq(0, 4503599627370497):
                if a * 4503599627370497 + b < 8:
                    B[i, a * 4503599627370497 + b] = A[i, a * 4503599627370497 + b] * 2.0
)");
  auto t0 = std::chrono::steady_clock::now();
  std::string d = compare_procs(m.proc("f"), m.proc("g"), {});
  EXPECT_LT(seconds_since(t0), 2.0);
  EXPECT_NE(d.find("too large to interpret"), std::string::npos) << d;
}

TEST(TrustStepBound, DivideLoopRefusesADivisorPastTheIntegerRange) {
  Proc p = parse_module(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)")
               .proc("f");
  for (int64_t d : {int64_t{4503599627370497}, INT64_MAX, int64_t{2147483648}}) {
    try {
      divide_loop(p, "i", d, {"a", "b"});
      ADD_FAILURE() << "accepted divisor " << d;
    } catch (const SchedulingError& e) {
      EXPECT_EQ(e.op(), "divide_loop");
      EXPECT_NE(std::string(e.what()).find("the divisor must be between 1 and 2147483647"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(divide_loop(p, "i", INT64_MIN, {"a", "b"}), SchedulingError);
}

}  // namespace
}  // namespace exocpp
