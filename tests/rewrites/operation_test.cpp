// The shared scheduling framework: target resolution and the operation wrapper.
#include "rewrites/internal/operation.h"

#include "rewrite_test_util.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)";

// Runs `body` as the body of an operation named "op" (helpers name the open operation).
template <class F>
void in_op(F body) {
  rw::run_op("op", [&] {
    body();
    return 0;
  });
}

TEST(RewriteFramework, RunOpNamesTheOperationOnPlainErrors) {
  try {
    rw::run_op("my_op", []() -> int { throw InvalidCursorError("gone"); });
    FAIL();
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "my_op");
    EXPECT_EQ(e.reason(), "gone");
  }
}

TEST(RewriteFramework, HelpersNameTheInnermostOpenOperation) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[0];
  EXPECT_EQ(rw::current_op(), "");
  try {
    rw::run_op("outer", [&] {
      try {
        rw::run_op("inner", [&]() -> int { rw::fail(reason::kStmtForm, loop, "no"); });
      } catch (const SchedulingError& e) {
        EXPECT_EQ(e.op(), "inner");
      }
      EXPECT_EQ(rw::current_op(), "outer");
      rw::fail(reason::kStmtForm, loop, "no");
      return 0;
    });
    FAIL();
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "outer");
  }
  EXPECT_EQ(rw::current_op(), "");
}

TEST(RewriteFramework, ResolveForwardsCursorsFromAncestors) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[0];
  Proc q = derive_proc(p, p.body(), fwd_identity());
  EXPECT_EQ(rw::resolve_stmt(q, loop).loc(), loop.loc());
}

TEST(RewriteFramework, ResolveRefusesARemovedTarget) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[0];
  Proc q = derive_proc(p, Block{PassNode::make()}, fwd_replace({}, 0, 1, 1));
  expect_refused([&] { in_op([&] { rw::resolve_stmt(q, loop); }); }, "op", ErrorCode::NotFound,
                 "target.removed");
}

TEST(RewriteFramework, AsLoopRefusesOtherStatements) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { in_op([&] { rw::as_loop(p.body_cursor()[0].body()[0]); }); }, "op",
                 ErrorCode::BadArgument, "target.wrong_kind", "expected a loop");
}

TEST(RewriteFramework, FreshNameRefusesANameInUse) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { in_op([&] { rw::fresh_name(p, "i", p.body_cursor()[0]); }); }, "op",
                 ErrorCode::BadArgument, "arg.name", "already used");
  EXPECT_EQ(rw::fresh_name(p, "io", p.body_cursor()[0]).name(), "io");
}

// Sibling loops may reuse a name (stage_mem's copy loops do): dividing both the load and the
// store loop of a staged buffer into `i1o`/`i1i` is legal and prints unambiguously.
TEST(RewriteFramework, FreshNameAllowsReuseInSiblingScopes) {
  Proc p = parse_proc(R"(def f(A: f32[64] @ DRAM, B: f32[64] @ DRAM):
    for i in seq(0, 64):
        B[i] = A[i]
    for i in seq(0, 64):
        A[i] = B[i]
)");
  Proc q = divide_loop(p, "i #0", 16, {"io", "ii"}, {.perfect = true});
  q = divide_loop(q, "i #0", 16, {"io", "ii"}, {.perfect = true});
  EXPECT_EQ(q.find_all("for io in _: _").size(), 2u) << q;
  expect_equivalent(p, q);
}

TEST(RewriteFramework, FreshNameRefusesANameBoundLaterInTheSameList) {
  Proc p = parse_proc(R"(def f(A: f32[64] @ DRAM):
    for i in seq(0, 64):
        A[i] = 1.0
    t: f32[4] @ DRAM
    t[0] = A[0]
)");
  expect_refused([&] { in_op([&] { rw::fresh_name(p, "t", p.body_cursor()[0]); }); }, "op",
                 ErrorCode::BadArgument, "arg.name", "already used");
}

}  // namespace

namespace {

// A refusal's text is built only when the check fails: a passing check prints no IR.
TEST(RewriteFramework, AMessageIsBuiltOnlyWhenTheCheckFails) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[0];
  int built = 0;
  auto what = [&] {
    ++built;
    return std::string("N is positive");
  };
  rw::require_proved(loop, checker::Answer::proof(), what);
  EXPECT_EQ(built, 0);
  EXPECT_THROW(rw::require_proved(loop, checker::Answer::refutation("N may be 0", "N = 0"), what),
               SchedulingError);
  EXPECT_EQ(built, 1);
}

}  // namespace
