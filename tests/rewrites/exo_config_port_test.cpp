// Port of Exo's tests/test_config.py: configuration state in procs (declarations, reads and
// writes, the loop-invariance rule for config writes) and the config operations bind_config,
// write_config and delete_config, including Exo's schedule that turns a Gemmini-like load into
// a config instruction and a move-in instruction (test_ld). Each TEST names the Exo test it
// ports; where exocpp deliberately differs, the comment says how.
#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {
namespace {

// Exo's new_config_f32, new_control_config and new_config_ld.
const char* kConfigAB = R"(
config ConfigAB:
    a: f32
    b: f32
)";
const char* kConfigControl = R"(
config ConfigControl:
    i: index
    s: stride
    b: bool
)";
const char* kConfigLoad = R"(
config ConfigLoad:
    scale: f32
    src_stride: stride
)";

// A proc printed back, without the config declarations in front of it.
std::string printed(const Proc& p) { return to_string(p); }

// For rewrites whose new config writes reach the end of the proc: only the config state the
// caller sees afterwards differs, which Exo allows.
CompareProcsOptions ignoring_final_configs() {
  CompareProcsOptions o;
  o.trials = 4;
  o.compare_configs = false;
  return o;
}

// Runs `f`, expecting a TypeError whose reason contains `needle`.
template <class F>
void expect_type_error(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected a TypeError (" << needle << ")";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message does not contain '" << needle << "':\n"
        << e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << "expected a TypeError, got: " << e.what();
  }
}

// ---- Declarations, reads and writes in procs --------------------------------------------

// test_config_typecheck: a config field must have a scalar type.
TEST(ExoConfigPort, ConfigFieldOfTensorTypeIsRejected) {
  try {
    parse_module(R"(
config ConfigLoad:
    num: f32[8]
)");
    ADD_FAILURE() << "a tensor-typed config field was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("must have a scalar type"), std::string::npos) << e.what();
  }
}

// test_basic_config
TEST(ExoConfigPort, BasicConfig) {
  Proc foo = parse_proc(std::string(kConfigAB) + R"(
def foo(x: f32 @ DRAM):
    ConfigAB.a = 32.0
    x = ConfigAB.a
)");
  EXPECT_EQ(printed(foo), R"(def foo(x: f32 @ DRAM):
    ConfigAB.a = 32.0
    x = ConfigAB.a
)");
  // Running it leaves 32 in x whatever the config held before.
  std::vector<ArgValue> args = random_args(foo, {}, 1);
  interpret(foo, args);
  EXPECT_EQ(std::get<Buffer>(args[0]).value(), 32.0);
}

// test_write_loop_const_number
TEST(ExoConfigPort, WriteInLoopOfConstantIsAccepted) {
  Proc foo = parse_proc(std::string(kConfigAB) + R"(
def foo(n: size):
    for i in seq(0, n):
        ConfigAB.a = 0.0
)");
  EXPECT_EQ(printed(foo), R"(def foo(n: size):
    for i in seq(0, n):
        ConfigAB.a = 0.0
)");
}

// test_write_loop_builtin
TEST(ExoConfigPort, WriteInLoopOfBuiltinCallIsAccepted) {
  Proc foo = parse_proc(std::string(kConfigAB) + R"(
def foo(n: size):
    for i in seq(0, n):
        ConfigAB.a = sin(1.0)
)");
  EXPECT_EQ(printed(foo), R"(def foo(n: size):
    for i in seq(0, n):
        ConfigAB.a = sin(1.0)
)");
}

// test_write_loop_varying
TEST(ExoConfigPort, WriteOfLoopVaryingValueIsRejected) {
  expect_type_error(
      [] {
        parse_module(std::string(kConfigAB) + R"(
def foo(n: size, A: f32[n] @ DRAM):
    for i in seq(0, n):
        ConfigAB.a = A[i]
)");
      },
      "must not depend on loop iterations");
}

// test_write_loop_varying_indirect: the dependence goes through a local.
TEST(ExoConfigPort, WriteOfLoopVaryingValueThroughALocalIsRejected) {
  expect_type_error(
      [] {
        parse_module(std::string(kConfigAB) + R"(
def foo(n: size, A: f32[n] @ DRAM):
    for i in seq(0, n):
        a: f32 @ DRAM
        a = A[i]
        ConfigAB.a = a
)");
      },
      "depends on loop variable 'i'");
}

// test_write_loop_syntax_check_fail (skipped in Exo, which documents the same behaviour): the
// analysis is syntactic, so `i - i` counts as depending on i although its value does not.
TEST(ExoConfigPort, WriteOfSyntacticallyVaryingValueIsRejected) {
  expect_type_error(
      [] {
        parse_module(std::string(kConfigControl) + R"(
def foo(n: size):
    for i in seq(0, n):
        ConfigControl.i = i - i
)");
      },
      "depends on loop variable 'i'");
}

// test_write_all_control
TEST(ExoConfigPort, WriteAllControlFields) {
  Proc set_all = parse_proc(std::string(kConfigControl) + R"(
def set_all(i: index, s: stride, b: bool):
    ConfigControl.i = i
    ConfigControl.s = s
    ConfigControl.b = b
)");
  EXPECT_EQ(printed(set_all), R"(def set_all(i: index, s: stride, b: bool):
    ConfigControl.i = i
    ConfigControl.s = s
    ConfigControl.b = b
)");
}

// test_loop_complex_guards: guards that read the field being written, and a guard that is
// never true, do not make the writes loop-dependent.
TEST(ExoConfigPort, LoopComplexGuardsAreAccepted) {
  Proc foo = parse_proc(std::string(kConfigControl) + R"(
def foo(n: size):
    for i in seq(0, n):
        if ConfigControl.i == 3:
            ConfigControl.i = 4
        if n == n - 1:
            ConfigControl.i = 3
)");
  EXPECT_EQ(printed(foo), R"(def foo(n: size):
    for i in seq(0, n):
        if ConfigControl.i == 3:
            ConfigControl.i = 4
        if n == n - 1:
            ConfigControl.i = 3
)");
}

// test_loop_circular_guards (skipped in Exo, expected error undecided): the writes depend only
// on the field itself, never on i, so exocpp accepts them.
TEST(ExoConfigPort, LoopCircularGuardsAreAccepted) {
  Proc foo = parse_proc(std::string(kConfigControl) + R"(
def foo(n: size):
    for i in seq(0, n):
        if ConfigControl.i == 3:
            ConfigControl.i = 4
        elif ConfigControl.i == 4:
            ConfigControl.i = 3
)");
  EXPECT_NE(printed(foo).find("ConfigControl.i = 3"), std::string::npos) << foo;
}

// test_config_write7 (skipped in Exo, marked "this should work"): a loop-invariant write
// followed by a read of the field in the same iteration.
TEST(ExoConfigPort, WriteThenReadInLoopIsAccepted) {
  Proc foo = parse_proc(std::string(kConfigAB) + R"(
def foo(n: size):
    a: f32 @ DRAM
    for i in seq(0, n):
        ConfigAB.a = 3.0
        a = ConfigAB.a
)");
  EXPECT_NE(printed(foo).find("a = ConfigAB.a"), std::string::npos) << foo;
}

// test_stride_with_config: a callee's assert on a config field, proved at the call from the
// caller's own assert.
TEST(ExoConfigPort, StrideAssertWithConfig) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def bar(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    pass

def foo(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    bar(n, src)
)");
  EXPECT_EQ(printed(m.proc("bar")), R"(def bar(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    pass
)");
  EXPECT_EQ(printed(m.proc("foo")), R"(def foo(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    bar(n, src)
)");
}

// ---- write_config ------------------------------------------------------------------------

// test_config_write: the new write's value reaches the end of the proc unread.
TEST(ExoConfigPort, WriteConfigAfterAssignment) {
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

const char* kWriteConfigSubject = R"(
config Config:
    tmp: f32

def foo(A: f32[10] @ DRAM):
    a: f32 @ DRAM
    a = 0.0
    a = A[0]
    a = 1.0
)";

// test_config_write2. Deliberate difference: Exo refuses to write any indexed read (A[0]) to a
// config, because such a value might depend on a loop iteration; exocpp instead type-checks the
// result, whose config writes must not depend on a loop variable (core/typecheck_config.cpp).
// Here no loop is involved, so the write is accepted.
TEST(ExoConfigPort, WriteConfigOfTensorElementOutsideLoopsIsAccepted) {
  Module m = parse_module(kWriteConfigSubject);
  Proc foo = m.proc("foo");
  Proc bar = write_config(foo, foo.find("a = _").after(), m.config("Config"), "tmp", "A[0]");
  EXPECT_NE(printed(bar).find("    a = 0.0\n    Config.tmp = A[0]\n    a = A[0]\n"),
            std::string::npos)
      << bar;
  expect_equivalent(foo, bar, {}, ignoring_final_configs());
}

// ... but an element chosen by a loop variable is refused, as in Exo.
TEST(ExoConfigPort, WriteConfigOfLoopVaryingElementIsRefused) {
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
      "write_config", "must not depend on loop iterations");
}

// test_config_write3: writing the loop variable to an index field is refused (Exo refuses
// every index-typed value; exocpp refuses this one because it depends on the loop).
TEST(ExoConfigPort, WriteConfigOfLoopVariableIsRefused) {
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
      "write_config", "depends on loop variable 'i'");
}

// test_config_write4. Deliberate difference: Exo accepts only a read, a stride expression or a
// constant as the new value; exocpp accepts any expression that fits the field (and keeps the
// result well typed), as a config write written in the proc may.
TEST(ExoConfigPort, WriteConfigOfCompoundExpressionIsAccepted) {
  Module m = parse_module(kWriteConfigSubject);
  Proc foo = m.proc("foo");
  Proc bar = write_config(foo, foo.find("a = _").after(), m.config("Config"), "tmp", "A[0] * A[1]");
  EXPECT_NE(printed(bar).find("Config.tmp = A[0] * A[1]\n"), std::string::npos) << bar;
  expect_equivalent(foo, bar, {}, ignoring_final_configs());
}

// ---- bind_config -------------------------------------------------------------------------

// test_config_bind: the write goes right before the statement holding the expression, inside
// the loop.
TEST(ExoConfigPort, BindConfigInLoop) {
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

const char* kBindSubject = R"(
def foo(A: f32[10] @ DRAM):
    for i in seq(0, 10):
        tmp: f32 @ DRAM
        tmp = A[i]
)";

// test_config_bind2: binding an element chosen by the loop variable is refused. (Exo refuses
// every indexed read; exocpp refuses this one because the new write would depend on i.)
TEST(ExoConfigPort, BindConfigOfLoopVaryingElementIsRefused) {
  Module m = parse_module(std::string(kConfigLoad) + kBindSubject);
  Proc foo = m.proc("foo");
  expect_refused([&] { bind_config(foo, "A[i]", m.config("ConfigLoad"), "scale"); }, "bind_config",
                 "depends on loop variable 'i'");
}

// test_config_bind3: binding the loop variable is refused (Exo refuses every index-typed value;
// exocpp refuses this one because it depends on the loop).
TEST(ExoConfigPort, BindConfigOfLoopVariableIsRefused) {
  Module m = parse_module(std::string(kConfigControl) + kBindSubject);
  Proc foo = m.proc("foo");
  expect_refused([&] { bind_config(foo, "i", m.config("ConfigControl"), "i"); }, "bind_config",
                 "depends on loop variable 'i'");
}

// test_config_bind4: the expression's type must fit the field.
TEST(ExoConfigPort, BindConfigOfMismatchedTypeIsRefused) {
  Module m = parse_module(std::string(kConfigControl) + R"(
def foo(A: f32[10] @ DRAM):
    for i in seq(0, 10):
        tmp: f32 @ DRAM
        A[i] = tmp
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { bind_config(foo, "tmp", m.config("ConfigControl"), "i"); }, "bind_config",
                 "'tmp' has type f32, which does not fit ConfigControl.i of type index");
}

// ---- Config writes through other rewrites -------------------------------------------------

// test_config_fission: a loop-invariant config write is fissioned out of both loops, and the
// loops left around it alone are removed.
TEST(ExoConfigPort, ConfigWriteFissionedOutOfTwoLoops) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def foo(scale: f32 @ DRAM, n: size, m: size, A: f32[n, m] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            ConfigLoad.scale = scale
            tmp: f32 @ DRAM
            tmp = A[i, j]
            tmp = tmp * ConfigLoad.scale
)");
  Proc foo = m.proc("foo");
  Proc q = autofission(foo, foo.find("ConfigLoad.scale = _").after(), {.n_lifts = 2});
  EXPECT_EQ(printed(q),
            R"(def foo(scale: f32 @ DRAM, n: size, m: size, A: f32[n, m] @ DRAM):
    ConfigLoad.scale = scale
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: f32 @ DRAM
            tmp = A[i, j]
            tmp = tmp * ConfigLoad.scale
)");
  expect_equivalent(foo, q);
}

// The limits of the rule that lets test_config_fission through (checker/queries_config.h,
// config_fields_settled_before): a write whose value changes inside the loop, or a field the
// part after the gap writes, still blocks the split.
TEST(ExoConfigPort, ConfigWriteOfValueChangedInLoopBlocksFission) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, x: f32 @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        ConfigLoad.scale = x
        y[i] = ConfigLoad.scale
        x = 2.0
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { fission(foo, foo.find("ConfigLoad.scale = _").after()); }, "fission",
                 "reorders two conflicting statements");
}

TEST(ExoConfigPort, ConfigFieldWrittenAfterTheGapBlocksFission) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def foo(n: size, y: f32[n] @ DRAM):
    for i in seq(0, n):
        ConfigLoad.scale = 2.0
        y[i] = ConfigLoad.scale
        ConfigLoad.scale = 3.0
)");
  Proc foo = m.proc("foo");
  expect_refused([&] { fission(foo, foo.find("ConfigLoad.scale = _").after()); }, "fission",
                 "reorders two conflicting statements");
}

// A scratchpad memory standing in for Exo's GEMM_SCRATCH (test_ld): plain code may touch it, so
// the interpreter can compare the schedule with the original. Its own name: the memory registry
// is global, and exo_schedules_port_test.cpp registers a GEMM_SCRATCH plain code may not touch.
class ScratchMemory : public Memory {
 public:
  std::string name() const override { return "GEMM_SCRATCH_RW"; }
};

// test_ld: a load with a scale, rewritten into a config instruction followed by a move-in
// instruction that reads the config. Exo's ld_i8 is itself an @instr; here it is a plain proc
// (its template plays no part in the schedule).
TEST(ExoConfigPort, GemminiLoadBecomesConfigAndMoveIn) {
  register_memory(std::make_shared<ScratchMemory>());
  Module lib = parse_module(std::string(kConfigLoad) + R"(
@instr("gemmini_extended3_config_ld({src_stride}, {scale}[0], 0, 0);")
def config_ld_i8(scale: f32 @ DRAM, src_stride: stride):
    ConfigLoad.scale = scale
    ConfigLoad.src_stride = src_stride

@instr("gemmini_extended_mvin({src_data}, ((uint64_t) {dst_data}), {m}, {n});")
def do_ld_i8(n: size, m: size, src: i8[n, m] @ DRAM, dst: i8[n, 16] @ GEMM_SCRATCH_RW):
    assert n <= 16
    assert m <= 16
    assert stride(src, 1) == 1
    assert stride(dst, 0) == 16
    assert stride(dst, 1) == 1
    assert stride(src, 0) == ConfigLoad.src_stride
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: f32 @ DRAM
            tmp = src[i, j]
            tmp = tmp * ConfigLoad.scale
            dst[i, j] = tmp

def ld_i8(n: size, m: size, scale: f32 @ DRAM, src: i8[n, m] @ DRAM, dst: i8[n, 16] @ GEMM_SCRATCH_RW):
    assert n <= 16
    assert m <= 16
    assert stride(src, 1) == 1
    assert stride(dst, 0) == 16
    assert stride(dst, 1) == 1
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: f32 @ DRAM
            tmp = src[i, j]
            tmp = tmp * scale
            dst[i, j] = tmp
)");
  const Config cfg = lib.config("ConfigLoad");
  Proc orig = lib.proc("ld_i8");
  Proc p = bind_config(orig, "scale", cfg, "scale");
  p = reorder_stmts(p, "tmp = src[_] ; ConfigLoad.scale = _");
  p = reorder_stmts(p, "tmp : _ ; ConfigLoad.scale = _");
  // Deliberate difference: Exo's autofission stops quietly at the top of the proc when
  // n_lifts exceeds the loops around the gap (Exo's test asks for 3 with two loops); exocpp
  // refuses that (docs/scheduling/loops.md), so the port asks for the 2 lifts there are.
  expect_refused([&] { autofission(p, p.find("ConfigLoad.scale = _").after(), {.n_lifts = 3}); },
                 "autofission", "n_lifts is too large");
  p = autofission(p, p.find("ConfigLoad.scale = _").after(), {.n_lifts = 2});
  const Proc unconfigured = p;
  p = write_config(p, p.find("ConfigLoad.scale = _").after(), cfg, "src_stride", "stride(src, 0)");
  expect_equivalent(orig, p, {}, ignoring_final_configs());
  // The move-in's assert on ConfigLoad.src_stride is proved from the write just made; the
  // same replace before that write is refused (the caller's value is unknown).
  expect_refused([&] { replace(unconfigured, "for i in _: _", lib.proc("do_ld_i8")); }, "replace",
                 "stride(src, 0) == ConfigLoad.src_stride");
  p = replace(p, "for i in _: _", lib.proc("do_ld_i8"));
  p = replace(p, "ConfigLoad.scale = _ ; ConfigLoad.src_stride = _", lib.proc("config_ld_i8"));
  EXPECT_EQ(printed(p),
            R"(def ld_i8(n: size, m: size, scale: f32 @ DRAM, src: i8[n, m] @ DRAM,
          dst: i8[n, 16] @ GEMM_SCRATCH_RW):
    assert n <= 16
    assert m <= 16
    assert stride(src, 1) == 1
    assert stride(dst, 0) == 16
    assert stride(dst, 1) == 1
    config_ld_i8(scale, stride(src, 0))
    do_ld_i8(n, m, src, dst)
)");
  expect_equivalent(orig, p, {}, ignoring_final_configs());
}

}  // namespace
}  // namespace exocpp::testing
