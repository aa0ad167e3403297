// insert_noop_call: a call to a proc whose body is `pass` (a prefetch, a hint) put at a gap,
// with its arguments read there and checked like any call.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kLib = R"(@instr("PREFETCH(&{x_data});")
def prefetch(x: [f32][1] @ DRAM):
    pass

def hint(n: size, x: [f32][n] @ DRAM):
    assert n <= 8
    pass

def not_noop(x: [f32][1] @ DRAM):
    x[0] = 0.0

def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        A[i] += 2.0
)";

Module lib() { return parse_module(kLib); }

TEST(InsertNoopCall, PutsTheCallAtTheGap) {
  Module m = lib();
  Proc p = m.proc("f");
  Proc q = insert_noop_call(p, p.find("A[_] = _").after(), m.proc("prefetch"), {"A[i:i + 1]"});
  EXPECT_EQ(to_string(q), R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        prefetch(A[i:i + 1])
        A[i] += 2.0
)");
  expect_equivalent(p, q, {{"N", 5}});
}

TEST(InsertNoopCall, ForwardsTheFollowingStatement) {
  Module m = lib();
  Proc p = m.proc("f");
  Cursor second = p.find("A[_] += _");
  Proc q = insert_noop_call(p, second.before(), m.proc("prefetch"), {"A[i:i + 1]"});
  EXPECT_EQ(q.forward(second).to_string(), "A[i] += 2.0");
}

TEST(InsertNoopCall, RefusesAProcThatComputes) {
  Module m = lib();
  Proc p = m.proc("f");
  expect_refused(
      [&] { insert_noop_call(p, p.find("A[_] = _").after(), m.proc("not_noop"), {"A[i:i + 1]"}); },
      "insert_noop_call", ErrorCode::BadArgument, "arg.invalid",
      "the body of 'not_noop' is not `pass`");
}

TEST(InsertNoopCall, RefusesAWrongArgumentCount) {
  Module m = lib();
  Proc p = m.proc("f");
  expect_refused(
      [&] {
        insert_noop_call(p, p.find("A[_] = _").after(), m.proc("prefetch"), {"A[i:i + 1]", "i"});
      },
      "insert_noop_call", ErrorCode::BadArgument, "arg.invalid",
      "'prefetch' takes 1 arguments, but 2 were given");
}

TEST(InsertNoopCall, RefusesAnArgumentOfTheWrongType) {
  Module m = lib();
  Proc p = m.proc("f");
  expect_refused(
      [&] { insert_noop_call(p, p.find("A[_] = _").after(), m.proc("prefetch"), {"i"}); },
      "insert_noop_call", ErrorCode::NotProved, "result.ill_typed",
      "the call to 'prefetch' does not fit its signature");
}

TEST(InsertNoopCall, RefusesAWindowOutsideItsBuffer) {
  Module m = lib();
  Proc p = m.proc("f");
  expect_refused(
      [&] {
        insert_noop_call(p, p.find("A[_] = _").after(), m.proc("prefetch"), {"A[i + 1:i + 2]"});
      },
      "insert_noop_call", ErrorCode::NotProved, "call.precondition", "i = ");
}

TEST(InsertNoopCall, RefusesACallThatMayViolateTheCalleesAssert) {
  Module m = lib();
  Proc p = m.proc("f");
  expect_refused(
      [&] {
        insert_noop_call(p, p.body_cursor()[0].before(), m.proc("hint"), {"N", "A"});
      },
      "insert_noop_call", ErrorCode::NotProved, "call.precondition",
      "may violate the assert `n <= 8` of hint");
}

TEST(InsertNoopCall, ProvesTheCalleesAssertFromTheCaller) {
  Module m = parse_module(std::string(kLib) + R"(
def g(N: size, A: f32[N] @ DRAM):
    assert N <= 4
    A[0] = 1.0
)");
  Proc p = m.proc("g");
  Proc q = insert_noop_call(p, p.find("A[_] = _").before(), m.proc("hint"), {"N", "A"});
  EXPECT_NE(to_string(q).find("    hint(N, A)\n"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(InsertNoopCall, RefusesAnUndefinedNameAtTheGap) {
  Module m = lib();
  Proc p = m.proc("f");
  expect_refused(
      [&] { insert_noop_call(p, p.body_cursor()[0].before(), m.proc("prefetch"), {"A[i:i + 1]"}); },
      "insert_noop_call", ErrorCode::BadArgument, "arg.parse_or_type", "undefined variable 'i'");
}

}  // namespace

namespace {

// Exo's x86 `prefetch` (exo/platforms/x86.py), a no-op instruction.
const char* kPrefetch = R"(@instr("_mm_prefetch(&{A_data}, {locality_hint});")
def prefetch(A: [R][1] @ DRAM, locality_hint: size):
    assert 0 <= locality_hint
    assert locality_hint < 8
    pass
)";

// Exo tests/test_schedules.py::test_insert_noop_call_bad_args: too few arguments (Exo: "Function
// argument count mismatch"), then a size where a window is expected (Exo: "Function argument type
// mismatch").
TEST(InsertNoopCall, InsertNoopCallBadArgs) {
  Module m = parse_module(std::string(kPrefetch) + R"(
def foo(n: size, x: i8[n], locality_hint: size):
    pass
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { insert_noop_call(foo, foo.find("pass").before(), m.proc("prefetch"), {}); },
                 "insert_noop_call", ErrorCode::BadArgument, "arg.invalid",
                 "'prefetch' takes 2 arguments, but 0 were given");
  expect_refused(
      [&] {
        insert_noop_call(foo, foo.find("pass").before(), m.proc("prefetch"),
                         {"n", "locality_hint"});
      },
      "insert_noop_call", ErrorCode::NotProved, "result.ill_typed",
      "the call to 'prefetch' does not fit its signature");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(InsertNoopCall, InsertingACallOfAProcOfTheCallersNameIsRefused) {
  Module m = parse_module(R"(
def nop(N: size):
    pass

def f(N: size, A: f32[N] @ DRAM):
    pass
    for i in seq(0, N):
        A[i] = 1.0
)");
  Proc f = m.proc("f");
  Proc other = rename(m.proc("nop"), "f");
  expect_refused([&] { insert_noop_call(f, f.body_cursor()[0].after(), other, {"N"}); },
                 "insert_noop_call", ErrorCode::BadArgument, "arg.name", "same name as the caller");
  Proc ok = insert_noop_call(f, f.body_cursor()[0].after(), m.proc("nop"), {"N"});
  for (int64_t n : {1, 3}) expect_equivalent(f, ok, {{"N", n}});
}

}  // namespace
