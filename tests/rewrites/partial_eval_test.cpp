// partial_eval: control arguments fixed to constants and removed from the signature.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, K: size, A: f32[N, K] @ DRAM):
    assert N % 4 == 0
    assert K >= 2
    for i in seq(0, N):
        for k in seq(0, K):
            A[i, k] = 1.0
)";

TEST(PartialEval, FixesASizeInTheBodyTheShapesAndTheAsserts) {
  Proc q = partial_eval(parse_proc(kSrc), {{"N", 8}});
  EXPECT_EQ(to_string(q), R"(def f(K: size, A: f32[8, K] @ DRAM):
    assert K >= 2
    for i in seq(0, 8):
        for k in seq(0, K):
            A[i, k] = 1.0
)");
}

TEST(PartialEval, ComputesWhatTheInputComputesWithThoseValues) {
  Proc p = parse_proc(kSrc);
  Proc q = partial_eval(p, {{"N", 4}, {"K", 3}});
  std::vector<ArgValue> a = random_args(p, {{"N", 4}, {"K", 3}}, 1);
  std::vector<ArgValue> b = {deep_copy(a)[2]};
  interpret(p, a);
  interpret(q, b);
  EXPECT_EQ(compare_buffers(std::get<Buffer>(b[0]), std::get<Buffer>(a[2]), "A"), "");
}

TEST(PartialEval, IsANewProcNotAnEquivalentOne) {
  Proc p = parse_proc(kSrc);
  EXPECT_NE(partial_eval(p, {{"N", 8}})->eqv_class, p->eqv_class);
}

TEST(PartialEval, RefusesValuesThatBreakAnAssert) {
  expect_refused(
      [&] {
        partial_eval(parse_proc(kSrc), {{"N", 6}});
      },
      "partial_eval", ErrorCode::BadArgument, "arg.invalid");
}

TEST(PartialEval, RefusesANameThatIsNoArgument) {
  expect_refused(
      [&] {
        partial_eval(parse_proc(kSrc), {{"M", 6}});
      },
      "partial_eval", ErrorCode::BadArgument, "arg.invalid");
}

TEST(PartialEval, RefusesANonPositiveSize) {
  expect_refused(
      [&] {
        partial_eval(parse_proc(kSrc), {{"K", 0}});
      },
      "partial_eval", ErrorCode::BadArgument, "arg.invalid");
}

TEST(PartialEval, RefusesADataArgument) {
  expect_refused(
      [&] {
        partial_eval(parse_proc(kSrc), {{"A", 1}});
      },
      "partial_eval", ErrorCode::BadArgument, "arg.invalid");
}

TEST(PartialEval, ForwardsCursors) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0].body()[0];
  Proc q = partial_eval(p, {{"K", 5}});
  EXPECT_EQ(q.forward(body).to_string(), "A[i, k] = 1.0");
}

}  // namespace

namespace {

// Exo tests/test_schedules.py::test_simple_partial_eval: n fixed to 10.
TEST(PartialEval, SimplePartialEval) {
  Proc bar = parse_proc(R"(def bar(n: size, A: i8[n]):
    tmp: i8[n]
    for i in seq(0, n):
        tmp[i] = A[i]
)");
  Proc q = partial_eval(bar, {{"n", 10}});
  EXPECT_EQ(to_string(q), R"(def bar(A: i8[10] @ DRAM):
    tmp: i8[10] @ DRAM
    for i in seq(0, 10):
        tmp[i] = A[i]
)");
}

// Exo tests/test_schedules.py::test_bool_partial_eval: b fixed to False.
TEST(PartialEval, BoolPartialEval) {
  Proc bar = parse_proc(R"(def bar(b: bool, n: size, A: i8[n]):
    tmp: i8[n]
    for i in seq(0, n):
        if b == True:
            tmp[i] = A[i]
)");
  Proc q = partial_eval(bar, {{"b", 0}});
  EXPECT_EQ(to_string(q), R"(def bar(n: size, A: i8[n] @ DRAM):
    tmp: i8[n] @ DRAM
    for i in seq(0, n):
        if False == True:
            tmp[i] = A[i]
)");
}

}  // namespace
