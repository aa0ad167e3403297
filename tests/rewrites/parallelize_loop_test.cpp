// parallelize_loop: seq -> par when no two iterations conflict.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "rewrite_test_util.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "support/csr_fixture.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(ParallelizeLoop, MakesAnIndependentLoopParallel) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = B[i] + 1.0
)");
  Proc q = parallelize_loop(p, p.body_cursor()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(ParallelizeLoop, RefusesACarriedDependence) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM):
    for i in seq(0, N):
        A[i + 1] = A[i]
)");
  expect_refused([&] { parallelize_loop(p, p.body_cursor()[0]); }, "parallelize_loop",
                 ErrorCode::NotProved, "checker.par_conflict", "independent");
}

TEST(ParallelizeLoop, RefusesAReductionRace) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, s: f32 @ DRAM):
    for i in seq(0, N):
        s += A[i]
)");
  expect_refused([&] { parallelize_loop(p, p.body_cursor()[0]); }, "parallelize_loop",
                 ErrorCode::NotProved, "checker.par_conflict", "independent");
}

TEST(ParallelizeLoop, RefusesANonLoop) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    A[0] = 1.0
)");
  expect_refused([&] { parallelize_loop(p, p.body_cursor()[0]); }, "parallelize_loop",
                 ErrorCode::BadArgument, "target.wrong_kind", "expected a loop");
}

TEST(ParallelizeLoop, ForwardsTheBody) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  Cursor s = p.body_cursor()[0].body()[0];
  Proc q = parallelize_loop(p, p.body_cursor()[0]);
  EXPECT_EQ(q.forward(s).to_string(), "A[i] = 1.0");
  EXPECT_EQ(q.forward(s).stmt().get(), q.body()[0].as<ForNode>()->body[0].get());
}

TEST(ParallelizeLoop, AcceptsALoopName) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  Proc q = parallelize_loop(p, "i");
  EXPECT_EQ(q.body()[0].as<ForNode>()->mode, LoopMode::Par);
  expect_equivalent(p, q);
}

}  // namespace

namespace {

const char* kStaticInLoop =
    "def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):\n"
    "    for i in seq(0, N):\n"
    "        t: f32[64] @ DRAM_STATIC\n"
    "        for k in seq(0, 64):\n"
    "            t[k] = x[i]\n"
    "        y[i] = 0.0\n"
    "        for k in seq(0, 64):\n"
    "            y[i] += t[k]\n";

// Exo tests/test_schedules.py::test_parallelize_loop
TEST(ParallelizeLoop, ParallelizeLoop) {
  Proc foo = parse_proc(R"(def foo(A: i8[10]):
    for i in seq(0, 10):
        A[i] = 1.0
)");
  Proc q = parallelize_loop(foo, foo.find_loop("i"));
  EXPECT_EQ(to_string(q), R"(def foo(A: i8[10] @ DRAM):
    for i in par(0, 10):
        A[i] = 1.0
)");
  expect_equivalent(foo, q);
}

// Trust (emitted C): the operation refuses what codegen could not emit.
TEST(ParallelizeLoop, LoopAllocatingInStaticStorageIsRefused) {
  // redteam 15_parallelize_static_alloc
  Proc p = proc_of(kStaticInLoop, "f");
  try {
    parallelize_loop(p, "i");
    FAIL() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find("allocates 't' (DRAM_STATIC) in static storage"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(":3:"), std::string::npos) << e.what();
  }
}

// Trust (emitted C): the operation refuses what codegen could not emit.
TEST(ParallelizeLoop, LoopCallingAProcWithAStaticAllocationIsRefused) {
  Module m = parse_module(
      "def g(x: f32[4] @ DRAM):\n"
      "    t: f32[4] @ DRAM_STATIC\n"
      "    for k in seq(0, 4):\n"
      "        t[k] = x[k]\n"
      "    for k in seq(0, 4):\n"
      "        x[k] = t[3 - k]\n"
      "\n"
      "def f(N: size, x: f32[N, 4] @ DRAM):\n"
      "    for i in seq(0, N):\n"
      "        g(x[i, 0:4])\n");
  try {
    parallelize_loop(m.proc("f"), "i");
    FAIL() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find("in proc 'g'"), std::string::npos) << e.what();
  }
}

// Trust (emitted C): the operation refuses what codegen could not emit.
TEST(ParallelizeLoop, AfterMovingTheBufferToTheStackTheLoopParallelizes) {
  Proc p = proc_of(kStaticInLoop, "f");
  Proc q = parallelize_loop(set_memory(p, "t", "DRAM_STACK"), "i");
  for (int64_t n : {1, 5}) {
    EXPECT_EQ(compare_procs(p, q, {{"N", n}}), "");
    EXPECT_EQ(compare_compiled_with_interpreter(q, {{"N", n}}, 1), "");
  }
}

}  // namespace

namespace {

const char* kCsrRows = exocpp::testing::kCsrSpmv;

TEST(ParallelizeLoop, CsrRowsOverDataDependentRangesRunInParallel) {
  Proc p = parse_proc(kCsrRows);
  Proc q = parallelize_loop(p, p.body_cursor()[0]);
  EXPECT_TRUE(has(q, "for i in par(0, m):"));
  expect_equivalent(p, q);
}

TEST(ParallelizeLoop, RefusesAScatterThroughAnIndexArgumentNamingItsValues) {
  Proc p = parse_proc(R"(def scatter(n: size, k: size, dst: i32[k] @ DRAM in range(0, n),
            x: f32[k] @ DRAM, y: f32[n] @ DRAM):
    for j in seq(0, k):
        y[dst[j]] += x[j]
)");
  expect_refused([&] { parallelize_loop(p, p.body_cursor()[0]); }, "parallelize_loop",
                 ErrorCode::NotProved, "checker.par_conflict", ", dst[");
}

}  // namespace
