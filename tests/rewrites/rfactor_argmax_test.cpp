// rfactor_argmax: an argmax loop split into lanes and folded, exactly (ties, NaN, ±0).
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// i?amax's shape: the first index of the largest |x[i]|.
const char* kIamax = R"(def f(n: size, x: f32[n] @ DRAM, best: f32 @ DRAM, result: i32 @ DRAM):
    assert n <= 2147483647
    best = abs(x[0])
    result = 0
    for i in seq(1, n):
        if abs(x[i]) > best:
            best = abs(x[i])
            result = i
)";

// Data whose ties, NaN, infinities and signed zeros each decide some answer.
CompareProcsOptions with_corners() {
  CompareProcsOptions o;
  o.trials = 8;
  return o;
}

TEST(RfactorArgmax, SplitsIntoLanes) {
  Proc p = parse_proc(kIamax);
  Proc q = rfactor_argmax(p, "for i in _: _", 4);
  expect_golden(to_string(q));
  expect_equivalent(p, q, {}, with_corners());
}

TEST(RfactorArgmax, KeepsTheFirstOfEqualValuesAcrossLanes) {
  // Every element equal: the answer is index 0 (the start); with x[0] smaller, index 1.
  Proc p = parse_proc(kIamax);
  Proc q = rfactor_argmax(p, "for i in _: _", 3);
  for (int64_t n : {1, 2, 5, 7, 13}) {
    std::vector<double> xs(static_cast<size_t>(n), 2.0);
    for (double first : {2.0, 1.0, -0.0}) {
      xs[0] = first;
      auto run = [&](const Proc& proc) {
        std::vector<ArgValue> args = {n, Buffer::from_values(ScalarKind::F32, {n}, xs),
                                      Buffer::scalar(ScalarKind::F32, 0),
                                      Buffer::scalar(ScalarKind::I32, 0)};
        interpret(proc, args);
        return std::get<Buffer>(args[3]).get({});
      };
      EXPECT_EQ(run(p), run(q)) << "n = " << n << ", x[0] = " << first;
    }
  }
}

TEST(RfactorArgmax, MergesLanesBeforeTheFold) {
  Proc p = parse_proc(kIamax);
  Proc q = rfactor_argmax(p, "for i in _: _", 6, {.merge_width = 2});
  EXPECT_TRUE(has(q, "for g in seq(1, 3):"));
  EXPECT_TRUE(has(q, "if best_lanes[2 * g + l] > best_lanes[l]:"));
  expect_equivalent(p, q, {}, with_corners());
}

TEST(RfactorArgmax, RefusesAMergeWidthThatDoesNotDivideTheLanes) {
  Proc p = parse_proc(kIamax);
  expect_refused([&] { rfactor_argmax(p, "for i in _: _", 6, {.merge_width = 4}); },
                 "rfactor_argmax", ErrorCode::BadArgument, "arg.invalid", "does not divide");
}

TEST(RfactorArgmax, SplitsAnArgmin) {
  Proc p = parse_proc(R"(def f(n: size, x: f64[n] @ DRAM, best: f64 @ DRAM, at: i32 @ DRAM):
    assert n <= 1000
    for i in seq(0, n):
        if x[i] * 2.0 < best:
            at = i
            best = x[i] * 2.0
)");
  Proc q = rfactor_argmax(p, "for i in _: _", 2, {.outer = "q", .lane = "k"});
  EXPECT_TRUE(has(q, "for q in seq(0, n / 2):"));
  EXPECT_TRUE(has(q, "if x[2 * q + k] * 2.0 < best_lanes[k]:"));
  expect_equivalent(p, q, {}, with_corners());
}

TEST(RfactorArgmax, RefusesAnIndexTypeTooNarrowForTheLoop) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, best: f32 @ DRAM, result: i8 @ DRAM):
    for i in seq(0, n):
        if x[i] > best:
            best = x[i]
            result = i
)");
  expect_refused([&] { rfactor_argmax(p, "for i in _: _", 4); }, "rfactor_argmax",
                 ErrorCode::NotProved, "precision.store", "fits 'result'");
}

TEST(RfactorArgmax, RefusesAValueThatReadsTheBest) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, best: f32 @ DRAM, result: i32 @ DRAM):
    assert n <= 1000
    for i in seq(0, n):
        if x[i] + best > best:
            best = x[i] + best
            result = i
)");
  expect_refused([&] { rfactor_argmax(p, "for i in _: _", 4); }, "rfactor_argmax",
                 ErrorCode::NotProved, "dep.read_written", "reads 'best'");
}

TEST(RfactorArgmax, SplitsAnIntegerArgmax) {
  Proc p = parse_proc(R"(def f(n: size, x: i8[n] @ DRAM, best: i8 @ DRAM, result: i32 @ DRAM):
    assert n <= 1000
    for i in seq(0, n):
        if x[i] > best:
            best = x[i]
            result = i
)");
  Proc q = rfactor_argmax(p, "for i in _: _", 8);
  expect_equivalent(p, q, {}, with_corners());
}

TEST(RfactorArgmax, RefusesAnIndexOtherThanTheLoops) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, best: f32 @ DRAM, result: i32 @ DRAM):
    assert n <= 1000
    for i in seq(0, n):
        if x[i] > best:
            best = x[i]
            result = n - i
)");
  expect_refused([&] { rfactor_argmax(p, "for i in _: _", 4); }, "rfactor_argmax",
                 ErrorCode::NotProved, "stmt.form", "the index stored is 'n - i'");
}

TEST(RfactorArgmax, RefusesAnElse) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, best: f32 @ DRAM, result: i32 @ DRAM):
    assert n <= 1000
    for i in seq(0, n):
        if x[i] > best:
            best = x[i]
            result = i
        else:
            result = 0
)");
  expect_refused([&] { rfactor_argmax(p, "for i in _: _", 4); }, "rfactor_argmax",
                 ErrorCode::NotProved, "stmt.form", "has an else");
}

TEST(RfactorArgmax, RefusesABestThatMovesWithTheLoop) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, best: f32[n] @ DRAM, result: i32 @ DRAM):
    assert n <= 1000
    for i in seq(0, n):
        if x[i] > best[i]:
            best[i] = x[i]
            result = i
)");
  expect_refused([&] { rfactor_argmax(p, "for i in _: _", 4); }, "rfactor_argmax",
                 ErrorCode::NotProved, "dep.loop_variant", "changes with 'i'");
}

TEST(RfactorArgmax, RefusesAParallelLoop) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM, best: f32 @ DRAM, result: i32 @ DRAM):
    assert n <= 1000
    for i in par(0, n):
        if x[i] > best:
            best = x[i]
            result = i
)");
  expect_refused([&] { rfactor_argmax(p, "for i in _: _", 4); }, "rfactor_argmax",
                 ErrorCode::NotProved, "loop.mode", "must be seq");
}

}  // namespace
