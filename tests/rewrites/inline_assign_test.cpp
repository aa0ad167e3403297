// inline_assign: x = e ; s -> s[x -> e].
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i] * 2.0
        A[i] = t + t
)";

Cursor assign(const Proc& p) { return p.body_cursor()[0].body()[1]; }

TEST(InlineAssign, SubstitutesTheScalar) {
  Proc p = parse_proc(kSrc);
  Proc q = inline_assign(p, assign(p));
  expect_golden("InlineAssign_SubstitutesTheScalar", to_string(q));
  expect_equivalent(p, q);
}

TEST(InlineAssign, RefusesALaterWriteOfTheScalar) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i]
        t += 1.0
        A[i] = t
)");
  expect_refused([&] { inline_assign(p, assign(p)); }, "inline_assign", "written again");
}

TEST(InlineAssign, RefusesALaterWriteOfWhatTheRhsReads) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32 @ DRAM
        t = B[i]
        B[i] = 0.0
        A[i] = t
)");
  expect_refused([&] { inline_assign(p, assign(p)); }, "inline_assign", "reads 'B'");
}

TEST(InlineAssign, RefusesAnArgument) {
  Proc p = parse_proc(R"(def f(N: size, t: f32 @ DRAM, A: f32[N] @ DRAM):
    t = 2.0
    A[0] = t
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[0]); }, "inline_assign",
                 "not allocated earlier");
}

// A tensor element: its reads with the same index take the expression; the other element's
// read is proved to touch another element and stays.
TEST(InlineAssign, SubstitutesATensorElement) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, B: f32[4] @ DRAM):
    t: f32[2] @ DRAM
    t[1] = B[1]
    t[0] = B[0] * 2.0
    A[0] = t[0] + t[1]
    A[1] = t[0]
)");
  Proc q = inline_assign(p, p.body_cursor()[2]);
  EXPECT_NE(to_string(q).find("A[0] = B[0] * 2.0 + t[1]"), std::string::npos) << q;
  EXPECT_NE(to_string(q).find("A[1] = B[0] * 2.0"), std::string::npos) << q;
  EXPECT_EQ(to_string(q).find("t[0] ="), std::string::npos) << q;
  expect_equivalent(p, q);
}

// Another read that may touch the assigned element would see its removal.
TEST(InlineAssign, RefusesAReadThatMayTouchTheAssignedElement) {
  Proc p = parse_proc(R"(def f(n: size, A: f32[4] @ DRAM, B: f32[4] @ DRAM):
    assert n <= 2
    t: f32[2] @ DRAM
    t[1] = B[1]
    t[0] = B[0]
    A[0] = t[0] + t[n - 1]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[2]); }, "inline_assign",
                 "touches another element than t[0]");
}

// The producer of a loop, its buffer allocated outside: every read is in the same iteration
// with the same index, so the buffer is dead once they are replaced.
TEST(InlineAssign, SubstitutesAProducerInsideALoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = B[i] * 2.0
        A[i] = t[i] + 1.0
)");
  Proc q = inline_assign(p, p.body_cursor()[1].body()[0]);
  EXPECT_NE(to_string(q).find("A[i] = B[i] * 2.0 + 1.0"), std::string::npos) << q;
  expect_equivalent(p, q, {{"N", 1}});
  expect_equivalent(p, q, {{"N", 7}});
}

// The same with a read of the previous iteration's element: it would see the removal.
TEST(InlineAssign, RefusesAProducerReadByAnotherIteration) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N + 1] @ DRAM, B: f32[N + 1] @ DRAM):
    t: f32[N + 1] @ DRAM
    t[0] = B[0]
    for i in seq(0, N):
        t[i + 1] = B[i + 1]
        A[i] = t[i + 1] + t[i]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[2].body()[0]); }, "inline_assign",
                 "read elsewhere than as t[i + 1]");
}

TEST(InlineAssign, RefusesATensorWindowedLater) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM):
    t: f32[2] @ DRAM
    t[0] = 2.0
    A[0] = t[0]
    w = t[0:2]
    A[1] = w[0]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[1]); }, "inline_assign",
                 "a window of 't' is taken later");
}

TEST(InlineAssign, RefusesATensorElementThatTheStoreWraps) {
  Proc p = parse_proc(R"(def f(A: i32[4] @ DRAM, B: i32[4] @ DRAM):
    t: i8[2] @ DRAM
    t[0] = B[0] * 2
    A[0] = t[0]
)");
  expect_refused([&] { inline_assign(p, p.body_cursor()[1]); }, "inline_assign",
                 "does not hold the value");
}

TEST(InlineAssign, ForwardsTheFollowingStatement) {
  Proc p = parse_proc(kSrc);
  Cursor use = p.body_cursor()[0].body()[2];
  Proc q = inline_assign(p, assign(p));
  EXPECT_EQ(q.forward(use).to_string(), "A[i] = B[i] * 2.0 + B[i] * 2.0");
  EXPECT_FALSE(q.forward(assign(p)).is_valid());
}

TEST(InlineAssign, AcceptsAnAssignmentPattern) {
  Proc p = parse_proc(kSrc);
  EXPECT_EQ(to_string(inline_assign(p, "t = _")), to_string(inline_assign(p, assign(p))));
}

// A temporary of another precision than the value it holds: the store keeps the value, but the
// operators and externs around each read must keep computing in the temporary's precision.
const char* kI8IntoF32 = R"(def f(A: i8[4] @ DRAM, C: f32[4] @ DRAM):
    for i in seq(0, 4):
        x: f32 @ DRAM
        x = A[i]
        C[i] = x / 2.0
)";

TEST(InlineAssign, RefusesAnIntegerValueWhereAFloatOperandWasRead) {
  Proc p = parse_proc(kI8IntoF32);  // A[i] / 2.0 would be an integer division
  expect_refused([&] { return inline_assign(p, "x = _"); }, "inline_assign", ErrorCode::NotProved,
                 "precision.context");
}

TEST(InlineAssign, RefusesANarrowerValueWhereAWideProductWasRead) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, C: f64[4] @ DRAM):
    for i in seq(0, 4):
        x: f64 @ DRAM
        x = A[i]
        C[i] = x * 1e+38
)");  // A[i] * 1e38 would overflow f32
  expect_refused([&] { return inline_assign(p, "x = _"); }, "inline_assign", ErrorCode::NotProved,
                 "precision.context");
}

TEST(InlineAssign, RefusesANarrowerValueWhereAnExternArgumentWasRead) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, C: f64[4] @ DRAM):
    for i in seq(0, 4):
        x: f64 @ DRAM
        x = A[i]
        C[i] = sqrt(x)
)");  // sqrt would round to f32
  expect_refused([&] { return inline_assign(p, "x = _"); }, "inline_assign", ErrorCode::NotProved,
                 "precision.context");
}

TEST(InlineAssign, AcceptsANarrowerValueStoredWhole) {
  Proc p = parse_proc(R"(def f(A: f32[4] @ DRAM, C: f64[4] @ DRAM):
    for i in seq(0, 4):
        x: f64 @ DRAM
        x = A[i]
        C[i] = x
)");
  Proc q = inline_assign(p, "x = _");
  EXPECT_EQ(to_string(q.body()[0].as<ForNode>()->body[1]), "C[i] = A[i]\n");
  CompareProcsOptions o;
  o.inputs.integer_valued = false;  // any f32 value survives the f64 temporary
  expect_equivalent(p, q, {}, o);
}

}  // namespace
