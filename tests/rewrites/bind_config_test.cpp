// Tests of bind_config: an expression becomes a config read after a new write of the field.
#include "rewrites/config_test_lib.h"

namespace exocpp::testing {
namespace {

const char* kLoop = R"(
def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)";
const char* kScaled = R"(
def foo(y: f32 @ DRAM, x: f32[4] @ DRAM):
    x[0] = x[1] * y
)";

TEST(BindConfig, BindsALoopBound) {
  Module m = config_lib(kLoop);
  Proc p = m.proc("foo");
  Proc q = bind_config(p, p.find_loop("i").hi(), m.config("Cfg"), "n");
  expect_golden("BindConfig_LoopBound", to_string(q));
  expect_equivalent(p, q, {}, ignoring_final_configs());
}

TEST(BindConfig, BindsAnInstructionScale) {
  Module m = config_lib(kScaled);
  Proc p = m.proc("foo");
  Proc q = bind_config(p, p.body_cursor()[0].rhs().child(1), m.config("Cfg"), "scale");
  expect_golden("BindConfig_Scale", to_string(q));
  expect_equivalent(p, q, {}, ignoring_final_configs());
}

TEST(BindConfig, LaterReadOfTheFieldIsRefused) {
  Module m = config_lib(R"(
def foo(y: f32 @ DRAM, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    x[0] = x[1] * y
    scale(x[0:4])
)");
  Proc p = m.proc("foo");
  expect_refused(
      [&] { bind_config(p, p.body_cursor()[1].rhs().child(1), m.config("Cfg"), "scale"); },
      "bind_config", "is read at line");
}

// Cfg.scale is f32: an integer product that needs more than f32's 24 bits would be rounded.
TEST(BindConfig, ValueTheFieldRoundsIsRefused) {
  Module m = config_lib(R"(
def foo(y: i32 @ DRAM, x: f32[4] @ DRAM):
    x[0] = y * 3
)");
  Proc p = m.proc("foo");
  expect_refused([&] { bind_config(p, p.body_cursor()[0].rhs(), m.config("Cfg"), "scale"); },
                 "bind_config", ErrorCode::NotProved, "precision.store");
}

// 0.1 in the f64 product is the double nearest 0.1; the f32 field would hold the float one.
TEST(BindConfig, LiteralTheFieldRoundsIsRefused) {
  Module m = config_lib(R"(
def foo(y: f32 @ DRAM, x: f64[4] @ DRAM):
    x[0] = x[1] * 0.1
)");
  Proc p = m.proc("foo");
  expect_refused(
      [&] { bind_config(p, p.body_cursor()[0].rhs().child(1), m.config("Cfg"), "scale"); },
      "bind_config", ErrorCode::NotProved, "precision.store");
}

TEST(BindConfig, TypeMismatchIsRefused) {
  Module m = config_lib(kScaled);
  Proc p = m.proc("foo");
  expect_refused([&] { bind_config(p, p.body_cursor()[0].rhs().child(1), m.config("Cfg"), "n"); },
                 "bind_config", "does not fit Cfg.n");
}

TEST(BindConfig, UnknownFieldIsRefused) {
  Module m = config_lib(kLoop);
  Proc p = m.proc("foo");
  expect_refused([&] { bind_config(p, p.find_loop("i").hi(), m.config("Cfg"), "m"); },
                 "bind_config", "has no field 'm' (its fields: n, scale)");
}

TEST(BindConfig, LoopVariableIsRefused) {
  Module m = config_lib(kLoop);
  Proc p = m.proc("foo");
  Cursor idx = p.find("x[_] = _").idx()[0];
  expect_refused([&] { bind_config(p, idx, m.config("Cfg"), "n"); }, "bind_config", "ill-typed");
}

TEST(BindConfig, ForwardsTheStatement) {
  Module m = config_lib(kLoop);
  Proc p = m.proc("foo");
  Cursor loop = p.find_loop("i");
  Proc q = bind_config(p, loop.hi(), m.config("Cfg"), "n");
  EXPECT_EQ(q.forward(loop).loc().lo, 1);
  EXPECT_EQ(q.forward(loop.hi()).to_string(), "Cfg.n");
}

// A result the type checker refuses (a loop variable bound to a config field): NotProved
// result.ill_typed.
TEST(BindConfig, AnIllTypedResultIsNotProvedResultIllTyped) {
  Module m = config_lib(kLoop);
  Proc p = m.proc("foo");
  Cursor idx = p.find("x[_] = _").idx()[0];
  expect_refused([&] { bind_config(p, idx, m.config("Cfg"), "n"); }, "bind_config",
                 ErrorCode::NotProved, "result.ill_typed");
}

}  // namespace
}  // namespace exocpp::testing
