// rename: a new proc name, nothing else changed.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)";

TEST(Rename, ChangesOnlyTheName) {
  Proc p = parse_proc(kSrc);
  Proc q = rename(p, "g");
  expect_golden("Rename_ChangesOnlyTheName", to_string(q));
  expect_equivalent(p, q);
}

TEST(Rename, RefusesANonIdentifier) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rename(p, "9lives"); }, "rename", "not a valid proc name");
}

TEST(Rename, RefusesAnEmptyName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rename(p, ""); }, "rename", "not a valid proc name");
}

TEST(Rename, ForwardsCursors) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0];
  Proc q = rename(p, "g");
  EXPECT_EQ(q.forward(body).to_string(), "A[i] = 1.0");
}

}  // namespace
