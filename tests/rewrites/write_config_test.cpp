// Tests of write_config: a config write inserted at a gap, when no later read sees the change.
#include "config_test_lib.h"
#include "rewrites/config_test_lib.h"
#include "rewrites/fixtures.h"
#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

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
  expect_golden(to_string(q));
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
  expect_golden(to_string(q));
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
      "write_config", ErrorCode::NotProved, "config.observable", "Cfg.scale is read at line");
}

TEST(WriteConfig, CallerValueReadLaterIsRefused) {
  Module m = config_lib(R"(
def foo(x: f32[4] @ DRAM):
    scale(x[0:4])
)");
  Proc p = m.proc("foo");
  expect_refused(
      [&] { write_config(p, p.body_cursor()[0].before(), m.config("Cfg"), "scale", "2.0"); },
      "write_config", ErrorCode::NotProved, "config.observable", "its value comes from the caller");
}

TEST(WriteConfig, BadRhsIsRefused) {
  Module m = config_lib(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  Proc p = m.proc("foo");
  expect_refused(
      [&] { write_config(p, p.body_cursor()[0].after(), m.config("Cfg"), "n", "k + 1"); },
      "write_config", ErrorCode::BadArgument, "arg.parse_or_type", "k");
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

namespace {

const char* kWriteConfigSubject = R"(
config Config:
    tmp: f32

def foo(A: f32[10] @ DRAM):
    a: f32 @ DRAM
    a = 0.0
    a = A[0]
    a = 1.0
)";

// Exo tests/test_config.py::test_config_write: the new write's value reaches the end of the proc
// unread.
TEST(WriteConfig, WriteConfigAfterAssignment) {
  Module m = parse_module(R"(
config Config:
    tmp: f32

def foo():
    tmp: f32 @ DRAM
    tmp = 0.0
)");
  Proc foo = m.proc("foo");
  Proc bar = write_config(foo, foo.find("tmp = _").after(), m.config("Config"), "tmp", "tmp");
  EXPECT_EQ(printed(bar), R"(def foo():
    tmp: f32 @ DRAM
    tmp = 0.0
    Config.tmp = tmp
)");
  expect_equivalent(foo, bar, {}, ignoring_final_configs());
}

// Exo tests/test_config.py::test_config_write2. Deliberate difference: Exo refuses to write any
// indexed read (A[0]) to a config, because such a value might depend on a loop iteration; exocpp
// instead type-checks the result, whose config writes must not depend on a loop variable
// (core/typecheck_config.cpp). Here no loop is involved, so the write is accepted.
TEST(WriteConfig, WriteConfigOfTensorElementOutsideLoopsIsAccepted) {
  Module m = parse_module(kWriteConfigSubject);
  Proc foo = m.proc("foo");
  Proc bar = write_config(foo, foo.find("a = _").after(), m.config("Config"), "tmp", "A[0]");
  EXPECT_NE(printed(bar).find("    a = 0.0\n    Config.tmp = A[0]\n    a = A[0]\n"),
            std::string::npos)
      << bar;
  expect_equivalent(foo, bar, {}, ignoring_final_configs());
}

// Ported from Exo tests/test_config.py.
// ... but an element chosen by a loop variable is refused, as in Exo.
TEST(WriteConfig, WriteConfigOfLoopVaryingElementIsRefused) {
  Module m = parse_module(R"(
config Config:
    tmp: f32

def foo(A: f32[10] @ DRAM):
    for i in seq(0, 10):
        a: f32 @ DRAM
        a = A[i]
)");
  Proc foo = m.proc("foo");
  expect_refused(
      [&] { write_config(foo, foo.find("a = _").after(), m.config("Config"), "tmp", "A[i]"); },
      "write_config", ErrorCode::NotProved, "result.ill_typed",
      "must not depend on loop iterations");
}

// Exo tests/test_config.py::test_config_write3: writing the loop variable to an index field is
// refused (Exo refuses every index-typed value; exocpp refuses this one because it depends on the
// loop).
TEST(WriteConfig, WriteConfigOfLoopVariableIsRefused) {
  Module m = parse_module(R"(
config Config:
    tmp: index

def foo():
    for i in seq(0, 10):
        a: f32 @ DRAM
        a = 0.0
)");
  Proc foo = m.proc("foo");
  expect_refused(
      [&] { write_config(foo, foo.find("a = _").after(), m.config("Config"), "tmp", "i"); },
      "write_config", ErrorCode::NotProved, "result.ill_typed", "depends on loop variable 'i'");
}

// Exo tests/test_config.py::test_config_write4. Deliberate difference: Exo accepts only a read, a
// stride expression or a constant as the new value; exocpp accepts any expression that fits the
// field (and keeps the result well typed), as a config write written in the proc may.
TEST(WriteConfig, WriteConfigOfCompoundExpressionIsAccepted) {
  Module m = parse_module(kWriteConfigSubject);
  Proc foo = m.proc("foo");
  Proc bar = write_config(foo, foo.find("a = _").after(), m.config("Config"), "tmp", "A[0] * A[1]");
  EXPECT_NE(printed(bar).find("Config.tmp = A[0] * A[1]\n"), std::string::npos) << bar;
  expect_equivalent(foo, bar, {}, ignoring_final_configs());
}

}  // namespace
