// A loop's bounds are evaluated once, before its first iteration (the interpreter's rule); the
// emitted C must not re-test a bound that reads a config field the body writes.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

using namespace exocpp;

namespace {

// The body lowers Cfg.n from 3 to 1: the interpreter still runs three iterations.
TEST(TrustBoundsOnce, ConfigBoundWrittenByTheBodyIsReadOnceInC) {
  Proc p = parse_module(R"(
config Cfg:
    n: index

def f(A: f32[8] @ DRAM):
    Cfg.n = 3
    for i in seq(0, Cfg.n):
        Cfg.n = 1
        A[i] = 7.0
)")
               .proc("f");
  EXPECT_EQ(compare_compiled_with_interpreter(p, {}, 1), "");
}

// The same inside a par loop's bound.
TEST(TrustBoundsOnce, ParLoopConfigBoundIsReadOnceInC) {
  Proc p = parse_module(R"(
config Cfg:
    n: index

def f(A: f32[8] @ DRAM):
    Cfg.n = 4
    for i in par(0, Cfg.n):
        A[i] = 2.0
    Cfg.n = 0
)")
               .proc("f");
  EXPECT_EQ(compare_compiled_with_interpreter(p, {}, 1), "");
}

}  // namespace
