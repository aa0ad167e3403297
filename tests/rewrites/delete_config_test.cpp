// Tests of delete_config: redundant writes (the field already holds the value) and dead writes
// (overwritten before any read) are removed; a write whose value some later read sees is not.
#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {
namespace {

// An instruction that reads Cfg.scale, called after each write of the field.
const char* kLib = R"(
config Cfg:
    scale: f32

@instr("scale({x_data});")
def scale(x: [f32][4] @ DRAM):
    for i in seq(0, 4):
        x[i] = x[i] * Cfg.scale
)";

Proc lib_proc(const std::string& body) { return parse_proc(std::string(kLib) + body); }

TEST(DeleteConfig, RepeatedWritesBeforeInstructionCallsLeaveOne) {
  Proc p = lib_proc(R"(
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
  expect_golden("DeleteConfig_RepeatedWrites", to_string(q));
  expect_equivalent(p, q);
}

TEST(DeleteConfig, ReadBetweenTwoWritesIsRefused) {
  Proc p = lib_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 2.0
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[0]); }, "delete_config", "is read at line");
}

TEST(DeleteConfig, DifferentValueIsRefused) {
  Proc p = lib_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 3.0
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[2]); }, "delete_config", "holds 2.0");
}

TEST(DeleteConfig, OverwrittenWriteIsDead) {
  Proc p = lib_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    Cfg.scale = 3.0
    scale(x[0:4])
)");
  Proc q = delete_config(p, "Cfg.scale = 2.0");
  expect_golden("DeleteConfig_Overwritten", to_string(q));
  expect_equivalent(p, q);
}

TEST(DeleteConfig, WriteOnOnlyOneBranchDoesNotReplace) {
  Proc p = lib_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    if n > 3:
        Cfg.scale = 3.0
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[0]); }, "delete_config", "is read at line");
}

TEST(DeleteConfig, ChangedInputIsRefused) {
  Proc p = lib_proc(R"(
def foo(y: f32 @ DRAM, x: f32[4] @ DRAM):
    Cfg.scale = y
    scale(x[0:4])
    y = 5.0
    Cfg.scale = y
    scale(x[0:4])
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[3]); }, "delete_config", "changes what 'y' reads");
}

TEST(DeleteConfig, LaterIterationReadIsRefused) {
  Proc p = lib_proc(R"(
def foo(n: size, x: f32[4] @ DRAM):
    for i in seq(0, n):
        scale(x[0:4])
        Cfg.scale = 2.0
)");
  expect_refused([&] { delete_config(p, "Cfg.scale = _"); }, "delete_config", "a later iteration");
}

TEST(DeleteConfig, DeadWriteAtTheEndChangesOnlyFinalConfig) {
  Proc p = lib_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    scale(x[0:4])
    Cfg.scale = 3.0
)");
  Proc q = delete_config(p, p.body_cursor()[2]);
  CompareProcsOptions opts;
  EXPECT_NE(compare_procs(p, q, {}, 1, opts), "");  // the caller sees another final value
  opts.compare_configs = false;
  expect_equivalent(p, q, {}, opts);
}

TEST(DeleteConfig, NotAConfigWriteIsRefused) {
  Proc p = lib_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { delete_config(p, p.body_cursor()[0]); }, "delete_config", "expected a config write");
}

TEST(DeleteConfig, ForwardsLaterStatements) {
  Proc p = lib_proc(R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    Cfg.scale = 3.0
    scale(x[0:4])
)");
  Cursor call = p.body_cursor()[2];
  Proc q = delete_config(p, p.body_cursor()[0]);
  EXPECT_EQ(q.forward(call).loc().lo, 1);
  EXPECT_FALSE(q.forward(p.body_cursor()[0]).is_valid());
}

}  // namespace
}  // namespace exocpp::testing
