// Tests of add_loop: plain and guarded (golden + equivalence), refusals (not idempotent, bound
// not positive, bad bound text, name in use) and forwarding.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "config_test_lib.h"
#include "rewrite_test_util.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, x: f32 @ DRAM, y: f32 @ DRAM):
    x = y * 2.0
    y += 1.0
)";

TEST(AddLoop, AroundAnIdempotentStatement) {
  Proc p = parse_proc(kSrc);
  Proc q = add_loop(p, p.body_cursor()[0], "i", "N");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(AddLoop, GuardedAroundAReduction) {
  Proc p = parse_proc(kSrc);
  Proc q = add_loop(p, p.body_cursor()[1], "i", "N + 2", {.guard = true});
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(AddLoop, RefusesANonIdempotentBlock) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[1], "i", "N"); }, "add_loop",
                 ErrorCode::NotProved, "checker.refuted", "adds twice");
}

TEST(AddLoop, RefusesABoundThatMayNotBePositive) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "i", "N - 1"); }, "add_loop",
                 ErrorCode::NotProved, "checker.refuted", "is positive, but");
}

TEST(AddLoop, RefusesABoundThatIsNotAnInteger) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "i", "N > 1"); }, "add_loop",
                 ErrorCode::BadArgument, "arg.expression",
                 "must be an integer (index) expression, but it has type bool");
}

TEST(AddLoop, RefusesAnUnknownName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "i", "K"); }, "add_loop",
                 ErrorCode::BadArgument, "arg.parse_or_type", "K");
}

TEST(AddLoop, RefusesANameInUse) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { add_loop(p, p.body_cursor()[0], "x", "N"); }, "add_loop",
                 ErrorCode::BadArgument, "arg.name", "'x' is already used");
}

TEST(AddLoop, ForwardsTheBlockIntoTheLoop) {
  Proc p = parse_proc(kSrc);
  Cursor s = p.body_cursor()[0], t = p.body_cursor()[1];
  Proc q = add_loop(p, s, "i", "N");
  EXPECT_EQ(q.forward(s).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(t).loc(), q.body_cursor()[1].loc());
}

}  // namespace

namespace {

const char* kThreeWrites = R"(def foo(x: R):
    x = 1.0
    x = 2.0
    x = 3.0
)";

const char* kOneScalar = R"(def foo():
    x: R
    x = 0.0
)";

const char* kConfigWrite = R"(
config Cfg:
    n: index

def f(N: size, A: f32[N] @ DRAM):
    Cfg.n = 3
    for i in seq(0, N):
        A[i] = 1.0
)";

// Exo tests/test_schedules.py::test_add_loop: an idempotent write gets a loop of 5 iterations.
TEST(AddLoop, AddLoop) {
  Proc foo = parse_proc(kThreeWrites);
  Proc q = add_loop(foo, "x = 2.0", "i", "5");
  EXPECT_EQ(to_string(q), R"(def foo(x: R @ DRAM):
    x = 1.0
    for i in seq(0, 5):
        x = 2.0
    x = 3.0
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_add_loop1
TEST(AddLoop, AddLoop1) {
  Proc foo = parse_proc(kOneScalar);
  Proc q = add_loop(foo, "x = _", "i", "10");
  EXPECT_EQ(to_string(q), R"(def foo():
    x: R @ DRAM
    for i in seq(0, 10):
        x = 0.0
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_add_loop2: guard=True wraps the block in `if i == 0:`.
TEST(AddLoop, AddLoop2Guard) {
  Proc foo = parse_proc(kOneScalar);
  Proc q = add_loop(foo, "x = _", "i", "10", {.guard = true});
  EXPECT_EQ(to_string(q), R"(def foo():
    x: R @ DRAM
    for i in seq(0, 10):
        if i == 0:
            x = 0.0
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_schedules.py::test_add_loop3: a bound written as an expression of sizes.
TEST(AddLoop, AddLoop3GuardWithExpressionBound) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    x: R
    x = 0.0
)");
  Proc q = add_loop(foo, "x = _", "i", "n+m", {.guard = true});
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size):
    x: R @ DRAM
    for i in seq(0, n + m):
        if i == 0:
            x = 0.0
)");
  expect_equivalent(foo, q, {{"n", 1}, {"m", 1}});
  expect_equivalent(foo, q, {{"n", 3}, {"m", 2}});
}

// Exo tests/test_schedules.py::test_add_loop5: n - m may be zero or negative. Exo: "bound
// expression should be positive".
TEST(AddLoop, AddLoop5RefusesABoundThatMayNotBePositive) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size):
    x: R
    x = 0.0
)");
  expect_refused([&] { add_loop(foo, "x = _", "i", "n-m", {.guard = true}); }, "add_loop",
                 ErrorCode::NotProved, "checker.refuted", "the new loop's bound 'n-m' is positive");
}

// Exo tests/test_schedules.py::test_add_loop5_fail: a reduction is not idempotent. Exo: "The
// statement at ... is not idempotent".
TEST(AddLoop, AddLoop5FailRefusesAReduction) {
  Proc foo = parse_proc(R"(def foo(x: R):
    x += 1.0
    x += 2.0
    x += 3.0
)");
  expect_refused([&] { add_loop(foo, "x += 2.0", "i", "5"); }, "add_loop", ErrorCode::NotProved,
                 "checker.refuted",
                 "running the block more than once is the same as running it once");
}

// Exo tests/test_schedules.py::test_add_loop6_runs_fail: a loop of 0 iterations would drop the
// write. Exo: "The expression 0 is not guaranteed to be greater than 0".
TEST(AddLoop, AddLoop6RefusesAZeroBound) {
  Proc foo = parse_proc(kThreeWrites);
  expect_refused([&] { add_loop(foo, "x = 2.0", "i", "0"); }, "add_loop", ErrorCode::NotProved,
                 "checker.refuted", "the new loop's bound '0' is positive");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(AddLoop, AddLoopRefusesBadNames) {
  Proc p = parse_proc(kNamesSrc);
  expect_all_refused("add_loop", [&](const std::string& n) {
    add_loop(p, p.find("A[_] = _"), n, "2", {.guard = true});
  });
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(AddLoop, NameVisibleAtTheTargetIsRefused) {
  Proc p = parse_proc(kNamesTwoLoops);
  expect_refused([&] { add_loop(p, p.find("A[_] = _"), "j", "2", {.guard = true}); }, "add_loop",
                 ErrorCode::BadArgument, "arg.name", "already used");
  expect_refused([&] { add_loop(p, p.find("A[_] = _"), "i", "2", {.guard = true}); }, "add_loop",
                 ErrorCode::BadArgument, "arg.name", "already used");
  expect_refused([&] { stage_mem(p, p.find_loop("j"), "A[i, 0:8]", "N"); }, "stage_mem",
                 ErrorCode::BadArgument, "arg.name", "already used");
}

// Trust (well-formed): every accepted result passes the front end.
// add_loop with a guard would put the config write under `for a: if a == 0:`, which the type
// checker refuses (config writes must not depend on loop variables): add_loop refuses it.
TEST(AddLoop, AddLoopRefusesToPutAConfigWriteUnderALoop) {
  Proc p = parse_proc(kConfigWrite, "f");
  expect_refused([&] { add_loop(p, "Cfg.n = _", "a", "N", {.guard = true}); }, "add_loop",
                 ErrorCode::NotProved, "result.ill_typed", "the rewritten proc would not be valid");
}

// Trust (well-formed): every accepted result passes the front end.
// The same operation on a plain statement is still accepted and keeps the results.
TEST(AddLoop, AddLoopOfAPlainStatementIsStillAccepted) {
  Proc p = parse_proc(kConfigWrite, "f");
  Proc q = add_loop(p, "A[_] = _", "a", "N", {.guard = true});
  for (int64_t n : {1, 2, 5}) expect_equivalent(p, q, {{"N", n}});
}

}  // namespace
