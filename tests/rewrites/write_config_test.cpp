// Tests of write_config: a config write inserted at a gap, when no later read sees the change.
#include "rewrites/config_test_lib.h"

namespace exocpp::testing {
namespace {

const char* kScaledOnce = R"(
def foo(x: f32[4] @ DRAM):
    Cfg.scale = 3.0
    scale(x[0:4])
)";

TEST(WriteConfig, BeforeAnOverwriteIsAccepted) {
  Module m = config_lib(kScaledOnce);
  Proc p = m.proc("foo");
  Proc q = write_config(p, p.body_cursor()[0].before(), m.config("Cfg"), "scale", "2.0");
  expect_golden("WriteConfig_BeforeOverwrite", to_string(q));
  expect_equivalent(p, q);
}

TEST(WriteConfig, ParsesRhsInScope) {
  Module m = config_lib(R"(
def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  Proc p = m.proc("foo");
  Proc q = write_config(p, p.body_cursor()[0].after(), m.config("Cfg"), "n", "n + 1");
  expect_golden("WriteConfig_Scope", to_string(q));
  expect_equivalent(p, q, {}, ignoring_final_configs());
}

TEST(WriteConfig, SameValueAsHeldIsAccepted) {
  Module m = config_lib(R"(
def foo(n: size, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    Cfg.n = n + 1
    scale(x[0:4])
    if Cfg.n > 2:
        x[0] = 1.0
)");
  Proc p = m.proc("foo");
  Proc q = write_config(p, p.body_cursor()[2].after(), m.config("Cfg"), "n", "1 + n");
  expect_equivalent(p, q);
}

TEST(WriteConfig, ChangingAValueReadLaterIsRefused) {
  Module m = config_lib(kScaledOnce);
  Proc p = m.proc("foo");
  expect_refused(
      [&] { write_config(p, p.body_cursor()[0].after(), m.config("Cfg"), "scale", "2.0"); },
      "write_config", "Cfg.scale is read at line");
}

TEST(WriteConfig, CallerValueReadLaterIsRefused) {
  Module m = config_lib(R"(
def foo(x: f32[4] @ DRAM):
    scale(x[0:4])
)");
  Proc p = m.proc("foo");
  expect_refused(
      [&] { write_config(p, p.body_cursor()[0].before(), m.config("Cfg"), "scale", "2.0"); },
      "write_config", "its value comes from the caller");
}

TEST(WriteConfig, BadRhsIsRefused) {
  Module m = config_lib(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  Proc p = m.proc("foo");
  expect_refused(
      [&] { write_config(p, p.body_cursor()[0].after(), m.config("Cfg"), "n", "k + 1"); },
      "write_config", "k");
}

TEST(WriteConfig, ForwardsLaterStatements) {
  Module m = config_lib(kScaledOnce);
  Proc p = m.proc("foo");
  Cursor call = p.body_cursor()[1];
  Proc q = write_config(p, p.body_cursor()[0].before(), m.config("Cfg"), "scale", "2.0");
  EXPECT_EQ(q.forward(call).loc().lo, 2);
}

// A new value that later code reads: NotProved config.observable.
TEST(WriteConfig, ChangingAValueReadLaterIsNotProvedConfigObservable) {
  Module m = config_lib(kScaledOnce);
  Proc p = m.proc("foo");
  expect_refused(
      [&] { write_config(p, p.body_cursor()[0].after(), m.config("Cfg"), "scale", "2.0"); },
      "write_config", ErrorCode::NotProved, "config.observable");
}

}  // namespace
}  // namespace exocpp::testing
