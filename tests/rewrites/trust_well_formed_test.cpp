// Every accepted rewrite returns a proc the front end accepts (rw::require_well_formed, run by
// run_op), and a call's buffer argument is a location that no operation binds to a value
// (rw::is_call_buffer_argument). Issue 11, findings F6 and F9 of the random-schedule generator.
#include "config_test_lib.h"
#include "rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kConfigWrite = R"(
config Cfg:
    n: index

def f(N: size, A: f32[N] @ DRAM):
    Cfg.n = 3
    for i in seq(0, N):
        A[i] = 1.0
)";

// add_loop with a guard would put the config write under `for a: if a == 0:`, which the type
// checker refuses (config writes must not depend on loop variables): add_loop refuses it.
TEST(TrustWellFormed, AddLoopRefusesToPutAConfigWriteUnderALoop) {
  Proc p = parse_proc(kConfigWrite, "f");
  expect_refused([&] { add_loop(p, "Cfg.n = _", "a", "N", {.guard = true}); }, "add_loop",
                 "the rewritten proc would not be valid");
}

// The same operation on a plain statement is still accepted and keeps the results.
TEST(TrustWellFormed, AddLoopOfAPlainStatementIsStillAccepted) {
  Proc p = parse_proc(kConfigWrite, "f");
  Proc q = add_loop(p, "A[_] = _", "a", "N", {.guard = true});
  for (int64_t n : {1, 2, 5}) expect_equivalent(p, q, {{"N", n}});
}

const char* kCallWritesScalar = R"(
config Cfg:
    v: f32

def sub(s: f32 @ DRAM):
    s = 2.0

def f(s: f32 @ DRAM):
    sub(s)
)";

// `sub(s)` passes s's location: binding it to a config field would cut sub's write off.
TEST(TrustWellFormed, BindConfigRefusesACallsBufferArgument) {
  Module m = parse_module(kCallWritesScalar);
  Proc p = m.proc("f");
  Cursor arg = p.find("sub(_)").args()[0];
  expect_refused([&] { bind_config(p, arg, m.config("Cfg"), "v"); }, "bind_config",
                 "is a buffer argument of the call");
}

const char* kCallReadsIndex = R"(
config Cfg:
    k: index

def g(k: index, A: [f32][4] @ DRAM):
    assert k >= 0 and k < 4
    A[k] = 2.0

def f(A: f32[4] @ DRAM):
    g(1, A[0:4])
)";

// A control argument is a value: binding it is still accepted.
TEST(TrustWellFormed, BindConfigOfAControlArgumentIsStillAccepted) {
  Module m = parse_module(kCallReadsIndex);
  Proc p = m.proc("f");
  Cursor arg = p.find("g(_)").args()[0];
  Proc q = bind_config(p, arg, m.config("Cfg"), "k");
  expect_equivalent(p, q, {}, ignoring_final_configs());  // Cfg.k is left written: it is new
}

}  // namespace

namespace {

// bind_expr of the same buffer argument: refused for the same reason.
TEST(TrustWellFormed, BindExprRefusesACallsBufferArgument) {
  Module m = parse_module(kCallWritesScalar);
  Proc p = m.proc("f");
  Cursor arg = p.find("sub(_)").args()[0];
  expect_refused([&] { bind_expr(p, arg, "t"); }, "bind_expr", "is a buffer argument of the call");
}

}  // namespace

namespace {

// Lifting `t: f32[N - 8]` out of `for i in seq(0, N - 8)` would allocate a negative extent
// where the loop runs no iteration (N < 8): refused.
TEST(TrustWellFormed, LiftAllocRefusesANegativeExtentBeforeAnEmptyLoop) {
  Proc p = parse_proc(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N - 8):
        t: f32[N - 8] @ DRAM
        t[i] = 1.0
        A[i + 8] = t[i]
)");
  expect_refused([&] { lift_alloc(p, "t"); }, "lift_alloc", "is not negative");
}

// The same lift is accepted where the extent is known non-negative.
TEST(TrustWellFormed, LiftAllocOfANonNegativeExtentIsAccepted) {
  Proc p = parse_proc(R"(
def f(N: size, A: f32[N] @ DRAM):
    assert N >= 8
    for i in seq(0, N - 8):
        t: f32[N - 8] @ DRAM
        t[i] = 1.0
        A[i + 8] = t[i]
)");
  Proc q = lift_alloc(p, "t");
  for (int64_t n : {8, 9, 12}) expect_equivalent(p, q, {{"N", n}});
}

}  // namespace
