// Issue 11, class 4: call_eqv compares what a caller observes: the buffers a call writes and the
// config state it leaves (ProcNode::eqv_configs); calls pass written buffers apart from the other
// buffer arguments; set_precision leaves the equivalence class.
#include <gtest/gtest.h>

#include "rewrite_test_util.h"

namespace exocpp::testing {
namespace {

void expect_refused(const std::function<Proc()>& op, const std::string& phrase) {
  try {
    Proc q = op();
    ADD_FAILURE() << "accepted:\n" << q;
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
}

const char* kConfigSrc = R"(
config C:
    k: index

def g(A: f32[8] @ DRAM):
    A[0] = 1.0
    C.k = 3

def f(A: f32[8] @ DRAM):
    C.k = 5
    g(A)
    A[C.k] = 2.0

def h(A: f32[8] @ DRAM):
    g(A)
    C.k = 1
    A[C.k] = 2.0
)";

// Redteam 11a: the deleted write's value is read by the caller after the call.
TEST(TrustEquivalence, CallEqvRefusesDeletedConfigWriteReadByCaller) {
  Module m = parse_module(kConfigSrc);
  Proc g = m.proc("g");
  Proc g2 = delete_config(g, g.body_cursor()[1]);
  expect_refused([&] { return call_eqv(m.proc("f"), "g(_)", g2); }, "C.k");
}

// Redteam 11b: an added write at the end of the callee.
TEST(TrustEquivalence, CallEqvRefusesAddedConfigWriteReadByCaller) {
  Module m = parse_module(kConfigSrc);
  Proc g = m.proc("g");
  Proc g3 = write_config(g, g.body_cursor().after(), m.config("C"), "k", "7");
  expect_refused([&] { return call_eqv(m.proc("f"), "g(_)", g3); }, "C.k");
}

TEST(TrustEquivalence, CallEqvAcceptsConfigOverwrittenByCaller) {
  Module m = parse_module(kConfigSrc);
  Proc g = m.proc("g");
  Proc g2 = delete_config(g, g.body_cursor()[1]);
  Proc h = m.proc("h");
  Proc q = call_eqv(h, "g(_)", g2);
  expect_equivalent(h, q);
}

TEST(TrustEquivalence, CallEqvRecordsEscapingConfigInCaller) {
  Module m = parse_module(R"(
config C:
    k: index

def g(A: f32[8] @ DRAM):
    A[0] = 1.0
    C.k = 3

def f(A: f32[8] @ DRAM):
    g(A)

def top(A: f32[8] @ DRAM):
    f(A)
    A[C.k] = 2.0
)");
  Proc g = m.proc("g");
  Proc g2 = delete_config(g, g.body_cursor()[1]);
  Proc f2 = call_eqv(m.proc("f"), "g(_)", g2);  // accepted: the value only escapes f
  EXPECT_TRUE(procs_equivalent(f2, m.proc("f")));
  // ... and f2 carries the field, so a caller that reads it refuses f2.
  expect_refused([&] { return call_eqv(m.proc("top"), "f(_)", f2); }, "C.k");
}

// Redteam 04: g was scheduled assuming x and y apart; the call passes the same window twice.
TEST(TrustEquivalence, CallEqvRefusesOverlappingWrittenArguments) {
  Module m = parse_module(R"(
def g(x: [f32][1] @ DRAM, y: [f32][1] @ DRAM):
    x[0] = 1.0
    y[0] = 2.0

def f(A: f32[4] @ DRAM):
    g(A[0:1], A[0:1])
)");
  Proc g2 = reorder_stmts(m.proc("g"), m.proc("g").body_cursor()[0]);
  expect_refused([&] { return call_eqv(m.proc("f"), "g(_)", g2); }, "overlap");
}

TEST(TrustEquivalence, CallEqvAcceptsDisjointWrittenArguments) {
  Module m = parse_module(R"(
def g(x: [f32][1] @ DRAM, y: [f32][1] @ DRAM):
    x[0] = 1.0
    y[0] = 2.0

def f(A: f32[4] @ DRAM):
    g(A[0:1], A[1:2])
)");
  Proc g2 = reorder_stmts(m.proc("g"), m.proc("g").body_cursor()[0]);
  Proc f = m.proc("f");
  Proc q = call_eqv(f, "g(_)", g2);
  expect_equivalent(f, q);
}

TEST(TrustEquivalence, CallEqvRefusesProcWithOtherInternalPrecision) {
  Module m = parse_module(R"(
def g(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    for i in seq(0, 4):
        t: i32 @ DRAM
        t = x[i] * 2
        a[i] = t / 2

def f(x: i8[4] @ DRAM, a: i8[4] @ DRAM):
    g(x, a)
)");
  Proc g2 = set_precision(m.proc("g"), "t", "i8");
  expect_refused([&] { return call_eqv(m.proc("f"), "g(_)", g2); }, "not equivalent");
}

}  // namespace
}  // namespace exocpp::testing
