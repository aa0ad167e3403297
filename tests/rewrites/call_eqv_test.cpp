// call_eqv: f(args) -> g(args) for a proc g scheduled from the same proc as f.
#include <gtest/gtest.h>

#include "exo_schedules_port_util.h"
#include "rewrite_test_util.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

const char* kSrc = R"(def scal(n: size, x: [f32][n] @ DRAM):
    assert n % 4 == 0
    for i in seq(0, n):
        x[i] = 2.0 * x[i]

def f(A: f32[4, 8] @ DRAM):
    for k in seq(0, 4):
        scal(8, A[k, 0:8])
)";

Module module() { return parse_module(kSrc); }
Proc caller() { return module().proc("f"); }
Proc callee_of(const Proc& p) { return Proc(p.find("scal(_)").stmt().as<CallNode>()->proc); }

TEST(CallEqv, SwapsInAProcScheduledByDivideLoop) {
  Proc p = caller();
  Proc g = rename(divide_loop(callee_of(p), "i", 4, {"io", "ii"}, {.perfect = true}), "scal_tiled");
  Proc q = call_eqv(p, "scal(_)", g);
  expect_golden(to_string(q));
  EXPECT_TRUE(q.find("scal_tiled(_)").is_valid());
  expect_equivalent(p, q);
}

TEST(CallEqv, SwapsInAProcScheduledByReorderLoops) {
  Module m = parse_module(R"(def add2(n: size, m: size, x: [f32][n, m] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            x[i, j] += 1.0

def f(A: f32[6, 6] @ DRAM):
    add2(2, 3, A[1:3, 2:5])
)");
  Proc p = m.proc("f");
  Proc g = rename(reorder_loops(m.proc("add2"), "i j"), "add2_ji");
  Proc q = call_eqv(p, "add2(_)", g);
  EXPECT_EQ(to_string(q.body()), "add2_ji(2, 3, A[1:3, 2:5])\n");
  expect_equivalent(p, q);
}

TEST(CallEqv, ProcsOfOneHistoryAreEquivalent) {
  Proc f = callee_of(caller());
  Proc g = divide_loop(f, "i", 4, {"io", "ii"}, {.perfect = true});
  Proc h = rename(g, "h");
  EXPECT_TRUE(procs_equivalent(f, g));
  EXPECT_TRUE(procs_equivalent(h, f));
  EXPECT_TRUE(procs_equivalent(g, h));
}

TEST(CallEqv, SeparatelyParsedProcsAreNotEquivalent) {
  Proc f = callee_of(caller());
  Proc again = callee_of(caller());  // the same text, parsed again: a new history
  EXPECT_TRUE(procs_equivalent(f, f));
  EXPECT_FALSE(procs_equivalent(f, again));
  EXPECT_FALSE(procs_equivalent(f, Proc()));
}

TEST(CallEqv, RefusesAProcFromAnotherHistory) {
  Proc p = caller();
  Proc other = parse_proc(R"(def scal2(n: size, x: [f32][n] @ DRAM):
    for i in seq(0, n):
        x[i] = x[i] + x[i]
)");
  expect_refused([&] { call_eqv(p, "scal(_)", other); }, "call_eqv", ErrorCode::BadArgument,
                 "call.not_equivalent", "'scal2' is not equivalent to 'scal'");
}

TEST(CallEqv, RefusesAnEmptyProc) {
  Proc p = caller();
  expect_refused([&] { call_eqv(p, "scal(_)", Proc()); }, "call_eqv", ErrorCode::BadArgument,
                 "arg.undefined_proc", "the replacement proc is empty");
}

TEST(CallEqv, RefusesADifferentArgumentCount) {
  Proc p = caller();
  auto n = std::make_shared<ProcNode>(*callee_of(p).get());
  n->args.pop_back();
  expect_refused([&] { call_eqv(p, "scal(_)", Proc(n)); }, "call_eqv", ErrorCode::BadArgument,
                 "call.signature", "takes 1 arguments but 'scal' takes 2");
}

TEST(CallEqv, RefusesAStatementThatIsNotACall) {
  Proc p = parse_proc(R"(def f(A: f32[2] @ DRAM):
    A[0] = 1.0
)");
  expect_refused([&] { call_eqv(p, p.body_cursor()[0], p); }, "call_eqv", ErrorCode::BadArgument,
                 "target.wrong_kind");
}

// A proc of the same history whose argument memory differs (as an argument set_memory would
// make it); built by copying the node, which keeps its equivalence class.
TEST(CallEqv, RefusesADifferentArgumentMemory) {
  Proc p = caller();
  auto n = std::make_shared<ProcNode>(*callee_of(p).get());
  n->args[1].mem = "DRAM_STATIC";
  expect_refused([&] { call_eqv(p, "scal(_)", Proc(n)); }, "call_eqv", ErrorCode::BadArgument,
                 "call.signature", "lives in memory DRAM in 'scal' but DRAM_STATIC");
}

TEST(CallEqv, RefusesADifferentArgumentType) {
  Proc p = caller();
  auto n = std::make_shared<ProcNode>(*callee_of(p).get());
  n->args[1].type.base = ScalarKind::F64;
  expect_refused([&] { call_eqv(p, "scal(_)", Proc(n)); }, "call_eqv", ErrorCode::BadArgument,
                 "call.signature", "has type [f32][n] in 'scal' but [f64][n]");
}

TEST(CallEqv, AcceptsANewAssertThatHoldsAtTheCall) {
  Proc p = caller();
  auto n = std::make_shared<ProcNode>(*callee_of(p).get());
  n->preds.push_back(parse_expr("n >= 8", {{n->args[0].name, n->args[0].type}}));
  Proc q = call_eqv(p, "scal(_)", Proc(n));
  EXPECT_EQ(q.find("scal(_)").stmt().as<CallNode>()->proc.get(), n.get());
  expect_equivalent(p, q);
}

TEST(CallEqv, RefusesANewAssertThatFailsAtTheCall) {
  Proc p = caller();
  auto n = std::make_shared<ProcNode>(*callee_of(p).get());
  n->preds.push_back(parse_expr("n >= 16", {{n->args[0].name, n->args[0].type}}));
  expect_refused([&] { call_eqv(p, "scal(_)", Proc(n)); }, "call_eqv", ErrorCode::NotProved,
                 "checker.refuted", "the assert 'n >= 16' of 'scal' holds at the call");
}

TEST(CallEqv, ForwardsEveryCursorToItself) {
  Proc p = caller();
  Cursor call = p.find("scal(_)");
  Cursor loop = p.find_loop("k");
  Proc q = call_eqv(p, call, divide_loop(callee_of(p), "i", 4, {"io", "ii"}, {.perfect = true}));
  EXPECT_EQ(q.forward(call).loc(), call.loc());
  EXPECT_EQ(q.forward(loop).to_string(), "for k in seq(0, 4): ...");
}

// A replacement proc whose signature does not fit the call is the user's mistake: BadArgument
// call.signature.
TEST(CallEqv, ADifferentArgumentCountIsABadArgumentCallSignature) {
  Proc p = caller();
  auto n = std::make_shared<ProcNode>(*callee_of(p).get());
  n->args.pop_back();
  expect_refused([&] { call_eqv(p, "scal(_)", Proc(n)); }, "call_eqv", ErrorCode::BadArgument,
                 "call.signature");
}

}  // namespace

namespace {

// ---- proc equivalence (call_eqv) ------------------------------------------------------------

const char* kProcEqual = R"(def foo(n: size, m: size):
    assert m == 1 and n == 1
    y: R[10]
    y[10 * m - 10 * n + 2 * n] = 2.0
)";

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

// Exo tests/test_schedules.py::test_proc_equal: a proc is equal to itself and to a Proc over the
// same node; two separate parses of the same text are not. In C++ this is procs_equivalent, the
// relation call_eqv uses (Exo's `foo != 3` is Python-only).
TEST(CallEqv, ProcEqual) {
  Proc foo = parse_proc(kProcEqual);
  Proc foo2(foo.ptr());
  EXPECT_TRUE(procs_equivalent(foo, foo));
  EXPECT_TRUE(procs_equivalent(foo, foo2));
  EXPECT_TRUE(procs_equivalent(foo2, foo));
  EXPECT_FALSE(procs_equivalent(foo, parse_proc(kProcEqual)));
}

// Exo tests/test_schedules.py::test_proc_equal, applied as call_eqv applies it: a call may switch
// to a proc scheduled from its callee, not to an identical one parsed separately.
TEST(CallEqv, CallEqvFollowsProcEquality) {
  const std::string callee = R"(def scal(n: size, x: [f32][n]):
    assert n % 4 == 0
    for i in seq(0, n):
        x[i] = 2.0 * x[i]
)";
  Module m = parse_module(callee + R"(
def f(A: f32[8] @ DRAM):
    scal(8, A[0:8])
)");
  Proc f = m.proc("f");
  Proc tiled =
      rename(divide_loop(m.proc("scal"), "i", 4, {"io", "ii"}, {.perfect = true}), "scal_tiled");
  Proc q = call_eqv(f, "scal(_)", tiled);
  EXPECT_EQ(to_string(q), "def f(A: f32[8] @ DRAM):\n    scal_tiled(8, A[0:8])\n");
  expect_equivalent(f, q);
  Proc again = parse_module(callee).proc("scal");
  expect_refused([&] { call_eqv(f, "scal(_)", again); }, "call_eqv", ErrorCode::BadArgument,
                 "call.not_equivalent", "not equivalent");
}

// Trust (equivalence): call_eqv compares what the caller observes.
// Redteam 11a: the deleted write's value is read by the caller after the call.
TEST(CallEqv, CallEqvRefusesDeletedConfigWriteReadByCaller) {
  Module m = parse_module(kConfigSrc);
  Proc g = m.proc("g");
  Proc g2 = delete_config(g, g.body_cursor()[1]);
  expect_refused([&] { return call_eqv(m.proc("f"), "g(_)", g2); }, "C.k");
}

// Trust (equivalence): call_eqv compares what the caller observes.
// Redteam 11b: an added write at the end of the callee.
TEST(CallEqv, CallEqvRefusesAddedConfigWriteReadByCaller) {
  Module m = parse_module(kConfigSrc);
  Proc g = m.proc("g");
  Proc g3 = write_config(g, g.body_cursor().after(), m.config("C"), "k", "7");
  expect_refused([&] { return call_eqv(m.proc("f"), "g(_)", g3); }, "C.k");
}

// Trust (equivalence): call_eqv compares what the caller observes.
TEST(CallEqv, CallEqvAcceptsConfigOverwrittenByCaller) {
  Module m = parse_module(kConfigSrc);
  Proc g = m.proc("g");
  Proc g2 = delete_config(g, g.body_cursor()[1]);
  Proc h = m.proc("h");
  Proc q = call_eqv(h, "g(_)", g2);
  expect_equivalent(h, q);
}

// Trust (equivalence): call_eqv compares what the caller observes.
TEST(CallEqv, CallEqvRecordsEscapingConfigInCaller) {
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

// Trust (equivalence): call_eqv compares what the caller observes.
// Redteam 04: g was scheduled assuming x and y apart; the call passes the same window twice.
TEST(CallEqv, CallEqvRefusesOverlappingWrittenArguments) {
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

// Trust (equivalence): call_eqv compares what the caller observes.
TEST(CallEqv, CallEqvAcceptsDisjointWrittenArguments) {
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

// Trust (equivalence): call_eqv compares what the caller observes.
TEST(CallEqv, CallEqvRefusesProcWithOtherInternalPrecision) {
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
