// Tests of delete_config: redundant writes (the field already holds the value) and dead writes
// (overwritten before any read) are removed; a write whose value some later read sees is not.
#include "rewrites/config_test_lib.h"

namespace exocpp::testing {
namespace {

const char* kOverwritten = R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    Cfg.scale = 3.0
    scale(x[0:4])
)";

TEST(DeleteConfig, RepeatedWritesBeforeInstructionCallsLeaveOne) {
  Proc p = config_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 2.0
    scale(x[0:4])
)");
  Proc q = delete_config(p, p.body_cursor()[4]);
  q = delete_config(q, q.body_cursor()[2]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DeleteConfig, ReadBetweenTwoWritesIsRefused) {
  Proc p = config_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 2.0
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[0]); }, "delete_config",
                 ErrorCode::NotProved, "config.observable", "is read at line");
}

TEST(DeleteConfig, DifferentValueIsRefused) {
  Proc p = config_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 3.0
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[2]); }, "delete_config",
                 ErrorCode::NotProved, "config.observable", "holds 2.0");
}

// -0.0 is not 0.0 (1.0 / x tells them apart): the field does not already hold the value.
TEST(DeleteConfig, NegativeZeroIsAnotherValueThanZero) {
  Proc p = config_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = -0.0
    scale(x[0:4])
    Cfg.scale = 0.0
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[2]); }, "delete_config",
                 ErrorCode::NotProved, "config.observable", "holds -0.0");
}

TEST(DeleteConfig, OverwrittenWriteIsDead) {
  Proc p = config_proc(kOverwritten);
  Proc q = delete_config(p, "Cfg.scale = 2.0");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DeleteConfig, WriteOnOnlyOneBranchDoesNotReplace) {
  Proc p = config_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    if n > 3:
        Cfg.scale = 3.0
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[0]); }, "delete_config",
                 ErrorCode::NotProved, "config.observable", "is read at line");
}

TEST(DeleteConfig, ChangedInputIsRefused) {
  Proc p = config_proc(R"(
def foo(y: f32 @ DRAM, x: f32[4] @ DRAM):
    Cfg.scale = y
    scale(x[0:4])
    y = 5.0
    Cfg.scale = y
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[3]); }, "delete_config",
                 ErrorCode::NotProved, "config.observable", "changes what 'y' reads");
}

TEST(DeleteConfig, LaterIterationReadIsRefused) {
  Proc p = config_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    for i in seq(0, n):
        scale(x[0:4])
        Cfg.scale = 2.0
)");
  expect_refused([&] { delete_config(p, "Cfg.scale = _"); }, "delete_config", ErrorCode::NotProved,
                 "config.observable", "a later iteration");
}

TEST(DeleteConfig, DeadWriteAtTheEndChangesOnlyFinalConfig) {
  Proc p = config_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 3.0
)");
  Proc q = delete_config(p, p.body_cursor()[2]);
  EXPECT_NE(compare_procs(p, q, {}, 1), "");  // the caller sees another final value
  expect_equivalent(p, q, {}, ignoring_final_configs());
}

TEST(DeleteConfig, RedundantInsideAnIfBranch) {
  Proc p = config_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    if n > 3:
        Cfg.scale = 2.0
        scale(x[0:4])
)");
  Proc q = delete_config(p, p.find("if _: _").body()[0]);
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(DeleteConfig, RedundantAfterALoopThatDoesNotWrite) {
  Proc p = config_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    for i in seq(0, n):
        scale(x[0:4])
    Cfg.scale = 2.0
    scale(x[0:4])
)");
  Proc q = delete_config(p, p.body_cursor()[2]);
  expect_equivalent(p, q);
  EXPECT_EQ(q.body().size(), 3u);
}

// Every iteration writes the value the field already holds before the loop: redundant.
TEST(DeleteConfig, WriteRepeatedByEveryIterationIsDeleted) {
  Proc p = config_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    for i in seq(0, n):
        scale(x[0:4])
        Cfg.scale = 2.0
        scale(x[0:4])
)");
  Proc q = delete_config(p, p.find("Cfg.scale = _ #1"));
  EXPECT_EQ(q.find_all("Cfg.scale = _").size(), 1u) << q;
  expect_equivalent(p, q, {{"n", 3}});
}

TEST(DeleteConfig, RedundantInALoopThatWritesAnotherValueIsRefused) {
  Proc p = config_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    for i in seq(0, n):
        scale(x[0:4])
        Cfg.scale = 2.0
        scale(x[0:4])
        Cfg.scale = 3.0
)");
  expect_refused([&] { delete_config(p, p.find("Cfg.scale = _ #1")); }, "delete_config",
                 ErrorCode::NotProved, "config.observable",
                 "so its value differs between iterations");
}

TEST(DeleteConfig, NotAConfigWriteIsRefused) {
  Proc p = config_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[0]); }, "delete_config",
                 ErrorCode::BadArgument, "target.wrong_kind");
}

TEST(DeleteConfig, ForwardsLaterStatements) {
  Proc p = config_proc(kOverwritten);
  Cursor call = p.body_cursor()[2];
  Proc q = delete_config(p, p.body_cursor()[0]);
  EXPECT_EQ(q.forward(call).loc().lo, 1);
  EXPECT_FALSE(q.forward(p.body_cursor()[0]).is_valid());
}

}  // namespace
}  // namespace exocpp::testing
