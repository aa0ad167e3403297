// The shared scheduling framework: target resolution and the operation wrapper.
#include "rewrite_test_util.h"
#include "rewrites/common.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)";

TEST(RewriteFramework, RunOpNamesTheOperationOnPlainErrors) {
  try {
    rw::run_op("my_op", []() -> int { throw InvalidCursorError("gone"); });
    FAIL();
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "my_op");
    EXPECT_EQ(e.reason(), "gone");
  }
}

TEST(RewriteFramework, ResolveForwardsCursorsFromAncestors) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[0];
  Proc q = derive_proc(p, p.body(), fwd_identity());
  EXPECT_EQ(rw::resolve_stmt("op", q, loop).loc(), loop.loc());
}

TEST(RewriteFramework, ResolveRefusesARemovedTarget) {
  Proc p = parse_proc(kSrc);
  Cursor loop = p.body_cursor()[0];
  Proc q = derive_proc(p, Block{PassNode::make()}, fwd_replace({}, 0, 1, 1));
  expect_refused([&] { rw::resolve_stmt("op", q, loop); }, "op", "no longer exists");
}

TEST(RewriteFramework, AsLoopRefusesOtherStatements) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rw::as_loop("op", p.body_cursor()[0].body()[0]); }, "op", "expected a loop");
}

TEST(RewriteFramework, FreshNameRefusesANameInUse) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rw::fresh_name("op", p, "i", p.body_cursor()[0]); }, "op", "already used");
  EXPECT_EQ(rw::fresh_name("op", p, "io", p.body_cursor()[0]).name(), "io");
}

}  // namespace
