// rename: a new proc name, nothing else changed.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rewrite_test_util.h"
#include "rewrites/fixtures.h"
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
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(Rename, RefusesANonIdentifier) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rename(p, "9lives"); }, "rename", ErrorCode::BadArgument, "arg.name",
                 "not a valid proc name");
}

TEST(Rename, RefusesAnEmptyName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { rename(p, ""); }, "rename", ErrorCode::BadArgument, "arg.name",
                 "not a valid proc name");
}

TEST(Rename, ForwardsCursors) {
  Proc p = parse_proc(kSrc);
  Cursor body = p.body_cursor()[0].body()[0];
  Proc q = rename(p, "g");
  EXPECT_EQ(q.forward(body).to_string(), "A[i] = 1.0");
}

}  // namespace

namespace {

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(Rename, RenameRefusesBadNames) {
  Proc p = parse_proc(kNamesSrc);
  for (const BadName& b : kBadNames) {
    SCOPED_TRACE("name '" + b.name + "'");
    expect_refused([&] { rename(p, b.name); }, "rename", ErrorCode::BadArgument, "arg.name",
                   "not a valid proc name");
  }
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(Rename, RenameRefusesTheNameOfACallee) {
  Proc p = parse_module(kNamesCaller).proc("top");
  expect_refused([&] { rename(p, "leaf"); }, "rename", ErrorCode::BadArgument, "arg.name",
                 "calls another proc");
}

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(Rename, RenameToItsOwnNameIsAllowed) {
  Proc p = parse_module(kNamesCaller).proc("top");
  EXPECT_EQ(rename(p, "top").name(), "top");
}

}  // namespace
