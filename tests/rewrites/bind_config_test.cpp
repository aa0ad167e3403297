// Tests of bind_config: an expression becomes a config read after a new write of the field.
#include "config_test_lib.h"
#include "rewrite_test_util.h"
#include "rewrites/config_test_lib.h"
#include "rewrites/fixtures.h"

using namespace exocpp;
using namespace exocpp::testing;

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
  expect_golden(to_string(q));
  expect_equivalent(p, q, {}, ignoring_final_configs());
}

TEST(BindConfig, BindsAnInstructionScale) {
  Module m = config_lib(kScaled);
  Proc p = m.proc("foo");
  Proc q = bind_config(p, p.body_cursor()[0].rhs().child(1), m.config("Cfg"), "scale");
  expect_golden(to_string(q));
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
      "bind_config", ErrorCode::NotProved, "config.observable", "is read at line");
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
                 "bind_config", ErrorCode::BadArgument, "arg.type", "does not fit Cfg.n");
}

TEST(BindConfig, UnknownFieldIsRefused) {
  Module m = config_lib(kLoop);
  Proc p = m.proc("foo");
  expect_refused([&] { bind_config(p, p.find_loop("i").hi(), m.config("Cfg"), "m"); },
                 "bind_config", ErrorCode::BadArgument, "arg.undefined",
                 "has no field 'm' (its fields: n, scale)");
}

TEST(BindConfig, LoopVariableIsRefused) {
  Module m = config_lib(kLoop);
  Proc p = m.proc("foo");
  Cursor idx = p.find("x[_] = _").idx()[0];
  expect_refused([&] { bind_config(p, idx, m.config("Cfg"), "n"); }, "bind_config",
                 ErrorCode::NotProved, "result.ill_typed", "ill-typed");
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

namespace {

const char* kBindSubject = R"(
def foo(A: f32[10] @ DRAM):
    for i in seq(0, 10):
        tmp: f32 @ DRAM
        tmp = A[i]
)";

const char* kCallReadsIndex = R"(
config Cfg:
    k: index

def g(k: index, A: [f32][4] @ DRAM):
    assert k >= 0 and k < 4
    A[k] = 2.0

def f(A: f32[4] @ DRAM):
    g(1, A[0:4])
)";

// Exo tests/test_config.py::test_config_bind: the write goes right before the statement holding the
// expression, inside the loop.
TEST(BindConfig, BindConfigInLoop) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def foo(scale: f32 @ DRAM):
    for i in seq(0, 10):
        tmp: f32 @ DRAM
        tmp = 0.0
        tmp = tmp * scale
)");
  Proc foo = m.proc("foo");
  Proc bound = bind_config(foo, "scale", m.config("ConfigLoad"), "scale");
  EXPECT_EQ(printed(bound), R"(def foo(scale: f32 @ DRAM):
    for i in seq(0, 10):
        tmp: f32 @ DRAM
        tmp = 0.0
        ConfigLoad.scale = scale
        tmp = tmp * ConfigLoad.scale
)");
  expect_equivalent(foo, bound, {}, ignoring_final_configs());
}

// Exo tests/test_config.py::test_config_bind2: binding an element chosen by the loop variable is
// refused. (Exo refuses every indexed read; exocpp refuses this one because the new write would
// depend on i.)
TEST(BindConfig, BindConfigOfLoopVaryingElementIsRefused) {
  Module m = parse_module(std::string(kConfigLoad) + kBindSubject);
  Proc foo = m.proc("foo");
  expect_refused([&] { bind_config(foo, "A[i]", m.config("ConfigLoad"), "scale"); }, "bind_config",
                 ErrorCode::NotProved, "result.ill_typed", "depends on loop variable 'i'");
}

// Exo tests/test_config.py::test_config_bind3: binding the loop variable is refused (Exo refuses
// every index-typed value; exocpp refuses this one because it depends on the loop).
TEST(BindConfig, BindConfigOfLoopVariableIsRefused) {
  Module m = parse_module(std::string(kConfigControl) + kBindSubject);
  Proc foo = m.proc("foo");
  expect_refused([&] { bind_config(foo, "i", m.config("ConfigControl"), "i"); }, "bind_config",
                 ErrorCode::NotProved, "result.ill_typed", "depends on loop variable 'i'");
}

// Exo tests/test_config.py::test_config_bind4: the expression's type must fit the field.
TEST(BindConfig, BindConfigOfMismatchedTypeIsRefused) {
  Module m = parse_module(std::string(kConfigControl) + R"(
def foo(A: f32[10] @ DRAM):
    for i in seq(0, 10):
        tmp: f32 @ DRAM
        A[i] = tmp
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { bind_config(foo, "tmp", m.config("ConfigControl"), "i"); }, "bind_config",
                 ErrorCode::BadArgument, "arg.type",
                 "'tmp' has type f32, which does not fit ConfigControl.i of type index");
}

// Trust (well-formed): every accepted result passes the front end.
// `sub(s)` passes s's location: binding it to a config field would cut sub's write off.
TEST(BindConfig, BindConfigRefusesACallsBufferArgument) {
  Module m = parse_module(kCallWritesScalar);
  Proc p = m.proc("f");
  Cursor arg = p.find("sub(_)").args()[0];
  expect_refused([&] { bind_config(p, arg, m.config("Cfg"), "v"); }, "bind_config",
                 ErrorCode::BadArgument, "target.wrong_kind", "is a buffer argument of the call");
}

// Trust (well-formed): every accepted result passes the front end.
// A control argument is a value: binding it is still accepted.
TEST(BindConfig, BindConfigOfAControlArgumentIsStillAccepted) {
  Module m = parse_module(kCallReadsIndex);
  Proc p = m.proc("f");
  Cursor arg = p.find("g(_)").args()[0];
  Proc q = bind_config(p, arg, m.config("Cfg"), "k");
  expect_equivalent(p, q, {}, ignoring_final_configs());  // Cfg.k is left written: it is new
}

}  // namespace
