// Tests of bind_config: an expression becomes a config read after a new write of the field.
#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {
namespace {

const char* kLib = R"(
config Cfg:
    n: index
    scale: f32

@instr("scale({x_data});")
def scale(x: [f32][4] @ DRAM):
    for i in seq(0, 4):
        x[i] = x[i] * Cfg.scale
)";

Module lib(const std::string& body) { return parse_module(std::string(kLib) + body); }

TEST(BindConfig, BindsALoopBound) {
  Module m = lib(R"(
def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  Proc p = m.proc("foo");
  Proc q = bind_config(p, p.find_loop("i").hi(), m.config("Cfg"), "n");
  expect_golden("BindConfig_LoopBound", to_string(q));
  CompareProcsOptions opts;
  opts.trials = 4;
  opts.compare_configs = false;  // the new write is what the caller sees afterwards
  expect_equivalent(p, q, {}, opts);
}

TEST(BindConfig, BindsAnInstructionScale) {
  Module m = lib(R"(
def foo(y: f32 @ DRAM, x: f32[4] @ DRAM):
    x[0] = x[1] * y
)");
  Proc p = m.proc("foo");
  Proc q = bind_config(p, p.body_cursor()[0].rhs().child(1), m.config("Cfg"), "scale");
  expect_golden("BindConfig_Scale", to_string(q));
  CompareProcsOptions opts;
  opts.trials = 4;
  opts.compare_configs = false;
  expect_equivalent(p, q, {}, opts);
}

TEST(BindConfig, LaterReadOfTheFieldIsRefused) {
  Module m = lib(R"(
def foo(y: f32 @ DRAM, x: f32[4] @ DRAM):
    Cfg.scale = 2.0
    x[0] = x[1] * y
    scale(x[0:4])
)");
  Proc p = m.proc("foo");
  expect_refused([&] { bind_config(p, p.body_cursor()[1].rhs().child(1), m.config("Cfg"), "scale"); },
                 "bind_config", "is read at line");
}

TEST(BindConfig, TypeMismatchIsRefused) {
  Module m = lib(R"(
def foo(y: f32 @ DRAM, x: f32[4] @ DRAM):
    x[0] = x[1] * y
)");
  Proc p = m.proc("foo");
  expect_refused([&] { bind_config(p, p.body_cursor()[0].rhs().child(1), m.config("Cfg"), "n"); },
                 "bind_config", "does not fit Cfg.n");
}

TEST(BindConfig, UnknownFieldIsRefused) {
  Module m = lib(R"(
def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  Proc p = m.proc("foo");
  expect_refused([&] { bind_config(p, p.find_loop("i").hi(), m.config("Cfg"), "m"); }, "bind_config",
                 "has no field 'm' (its fields: n, scale)");
}

TEST(BindConfig, LoopVariableIsRefused) {
  Module m = lib(R"(
def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  Proc p = m.proc("foo");
  Cursor idx = p.find("x[_] = _").idx()[0];
  expect_refused([&] { bind_config(p, idx, m.config("Cfg"), "n"); }, "bind_config", "ill-typed");
}

TEST(BindConfig, ForwardsTheStatement) {
  Module m = lib(R"(
def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0
)");
  Proc p = m.proc("foo");
  Cursor loop = p.find_loop("i");
  Proc q = bind_config(p, loop.hi(), m.config("Cfg"), "n");
  EXPECT_EQ(q.forward(loop).loc().lo, 1);
  EXPECT_EQ(q.forward(loop.hi()).to_string(), "Cfg.n");
}

}  // namespace
}  // namespace exocpp::testing
