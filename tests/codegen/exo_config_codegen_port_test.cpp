// The procs of Exo's tests/test_config.py, compiled to C and compared with the interpreter (Exo
// only prints them): config writes and reads through the ctxt struct, in loops, under guards that
// read the field, across calls, and after a schedule moved a config write. Where Exo's proc has
// no observable output, a caller here copies the config state into an argument.
#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

// test_basic_config
TEST(ExoConfigCodegenPort, BasicConfig) {
  const char* src = R"(
config ConfigAB:
    a: f32
    b: f32

def foo(x: f32 @ DRAM):
    ConfigAB.a = 32.0
    x = ConfigAB.a
)";
  EXPECT_EQ(check(src, "foo"), "");
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_NE(c.header.find("float a;\n        float b;\n    } ConfigAB;"), std::string::npos)
      << c.header;
}

// test_write_loop_const_number and test_write_loop_builtin, with the field read afterwards.
TEST(ExoConfigCodegenPort, WritesInLoops) {
  const char* src = R"(
config ConfigAB:
    a: f32
    b: f32

def foo(n: size, x: f32 @ DRAM, y: f32 @ DRAM):
    for i in seq(0, n):
        ConfigAB.a = 0.0
    x = ConfigAB.a
    for i in seq(0, n):
        ConfigAB.b = sin(1.0)
    y = ConfigAB.b
)";
  EXPECT_EQ(check(src, "foo", {{"n", 3}}), "");
}

// test_write_all_control, with a caller that uses each control field.
TEST(ExoConfigCodegenPort, WriteAllControl) {
  const char* src = R"(
config ConfigControl:
    i: index
    s: stride
    b: bool

def set_all(i: index, s: stride, b: bool):
    ConfigControl.i = i
    ConfigControl.s = s
    ConfigControl.b = b

def use(n: size, x: f32[n] @ DRAM):
    set_all(n - 1, stride(x, 0), n > 2)
    if ConfigControl.b:
        x[ConfigControl.i] = 1.0
    x[0] = 2.0
    if ConfigControl.s == 1:
        x[0] = 3.0
)";
  EXPECT_EQ(check(src, "use", {{"n", 4}}), "");
  EXPECT_EQ(check(src, "use", {{"n", 2}}), "");
}

// test_loop_complex_guards: the caller sets the field first (the interpreter refuses to read a
// field never written) and reports what the loop left in it.
TEST(ExoConfigCodegenPort, LoopComplexGuards) {
  const char* src = R"(
config ConfigControl:
    i: index
    s: stride
    b: bool

def foo(n: size):
    for i in seq(0, n):
        if ConfigControl.i == 3:
            ConfigControl.i = 4
        if n == n - 1:
            ConfigControl.i = 3

def run_it(n: size, x: f32 @ DRAM):
    ConfigControl.i = 3
    foo(n)
    x = 0.0
    if ConfigControl.i == 4:
        x = 1.0
)";
  EXPECT_EQ(check(src, "run_it"), "");
}

// test_stride_with_config: the caller writes the stride the callees assert on.
TEST(ExoConfigCodegenPort, StrideWithConfig) {
  const char* src = R"(
config ConfigLoad:
    scale: f32
    src_stride: stride

def bar(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    pass

def foo(n: size, src: [i8][n] @ DRAM):
    assert stride(src, 0) == ConfigLoad.src_stride
    bar(n, src)

def run_it(n: size, m: size, A: i8[n, m] @ DRAM):
    ConfigLoad.src_stride = stride(A, 0)
    foo(n, A[0:n, 0])
    A[0, 0] = 1.0
)";
  EXPECT_EQ(check(src, "run_it", {{"n", 3}, {"m", 5}}), "");
}

// test_config_fission, compiled after the schedule.
TEST(ExoConfigCodegenPort, ConfigWriteFissionedOutOfLoops) {
  const char* src = R"(
config ConfigLoad:
    scale: f32
    src_stride: stride

def foo(scale: f32 @ DRAM, n: size, m: size, A: f32[n, m] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            ConfigLoad.scale = scale
            tmp: f32 @ DRAM
            tmp = A[i, j]
            tmp = tmp * ConfigLoad.scale
            A[i, j] = tmp
)";
  Proc foo = proc_of(src, "foo");
  Proc q = autofission(foo, foo.find("ConfigLoad.scale = _").after(), {.n_lifts = 2});
  ASSERT_EQ(to_string(q.body_cursor()[0].stmt()), "ConfigLoad.scale = scale\n");
  EXPECT_EQ(compare_compiled_with_interpreter(q, {{"n", 3}, {"m", 4}}, 1), "");
}

}  // namespace
}  // namespace exocpp::codegen_test
