// The codegen cases of Exo's tests/test_precision.py and tests/test_window.py, ported: each proc is
// compiled and compared with the interpreter, and where Exo's golden C shows something meaningful
// (a precision's C type, a window's strides, the window a call passes) that property is asserted
// in our C rather than Exo's exact text. Parse / type-check / interpreter behaviour of the same
// cases is in tests/core/exo_precision_window_port_test.cpp.
#include <vector>

#include "codegen_test_util.h"
#include "core/exo_precision_window_sources.h"

namespace exocpp::codegen_test {
namespace {

using namespace exocpp::exo_port;

// The C emitted for proc `name` of `src`, alone in a library.
std::string c_of(const std::string& src, const std::string& name) {
  return compile_procs_to_c({proc_of(src, name)}, "lib").source;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- test_precision.py
// ---------------------------------------------------------------------------

// test_good_prec1: Exo compiles the proc and runs it on fixed inputs; so do we, and the result
// also matches the interpreter on random inputs.
TEST(ExoPrecisionCodegenPort, GoodPrec1CompiledComputesExosValues) {
  Proc p = proc_of(kGoodPrec1, "good_prec1");
  std::string c = compile_procs_to_c({p}, "lib").source;
  EXPECT_TRUE(has(c, "const float *x, const float *y, double *res")) << c;
  EXPECT_TRUE(has(c, "double *rloc")) << c;
  CompiledLibrary lib({p}, "prec1");
  std::vector<ArgValue> args = {
      int64_t{2}, int64_t{3},
      Buffer::from_values(ScalarKind::F32, {2, 3}, {1.0, 2.0, 3.0, 3.2, 4.0, 5.3}),
      Buffer::from_values(ScalarKind::F32, {2, 3}, {2.6, 3.7, 8.9, 1.3, 2.3, 6.7}),
      Buffer(ScalarKind::F64, {2, 3}, 0.0)};
  lib.call("good_prec1", args);
  std::vector<double> want = {3.6, 5.7, 11.9, 4.5, 6.3, 12.0};
  std::vector<double> got = std::get<Buffer>(args[4]).to_vector();
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(got[k], want[k], 1.5e-6) << "element " << k;
  EXPECT_EQ(check(kGoodPrec1, "good_prec1", {{"n", 3}, {"m", 5}}), "");
}

const char* kGoodPrec2 = R"(
def dot(m: size, x: f32[m] @ DRAM, y: f32[m] @ DRAM, r: f32 @ DRAM):
    r = 0.0
    for i in seq(0, m):
        r += x[i] * y[i]

def hoge(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    xy: f32 @ DRAM
    dot(n, x, y, xy)
)";

// test_good_prec2 (golden): dot is a static callee taking read-only float pointers and the
// address of the caller's f32 scalar; hoge's tensors are const.
TEST(ExoPrecisionCodegenPort, GoodPrec2CalleeTakesFloatPointers) {
  std::string c = c_of(kGoodPrec2, "hoge");
  EXPECT_TRUE(has(c,
                  "static void dot(void *ctxt, int_fast32_t m, const float *x, const float *y, "
                  "float *r)"))
      << c;
  EXPECT_TRUE(has(c, "void hoge(void *ctxt, int_fast32_t n, const float *x, const float *y)")) << c;
  EXPECT_TRUE(has(c, "float xy;")) << c;
  EXPECT_TRUE(has(c, "dot(ctxt, n, x, y, &xy);")) << c;
  EXPECT_EQ(check(kGoodPrec2, "hoge"), "");
}

const char* kGoodUi8 = R"(
def hoge(n: size, x: ui8[n] @ DRAM, y: ui8 @ DRAM):
    for i in seq(0, n):
        x[i] = y
)";

// test_good_ui8_prec (golden): ui8 is uint8_t; the scalar is passed by (const) address.
TEST(ExoPrecisionCodegenPort, GoodUi8PrecIsUint8) {
  std::string c = c_of(kGoodUi8, "hoge");
  EXPECT_TRUE(has(c, "void hoge(void *ctxt, int_fast32_t n, uint8_t *x, const uint8_t *y)")) << c;
  EXPECT_TRUE(has(c, "x[i] = *y;")) << c;
  EXPECT_EQ(check(kGoodUi8, "hoge"), "");
  // A value above i8's range survives the round trip through C.
  CompiledLibrary lib({proc_of(kGoodUi8, "hoge")}, "ui8");
  std::vector<ArgValue> args = {int64_t{3}, Buffer(ScalarKind::UI8, {3}, 0.0),
                                Buffer::scalar(ScalarKind::UI8, 250.0)};
  lib.call("hoge", args);
  EXPECT_EQ(std::get<Buffer>(args[1]).to_vector(), (std::vector<double>{250, 250, 250}));
}

// Literals take the precision of the expression around them, in the C as in the interpreter:
// each body disagreed with the interpreter before it rounded literals (see the core port).
TEST(ExoPrecisionCodegenPort, LiteralsAgreeWithTheInterpreterInEveryPrecision) {
  for (const char* body :
       // A non-integral literal in an integer precision (`b[i] * 0.7`, `c[i] / 2.5`, formerly
       // here) is a type error now (tests/core/trust_literals_test.cpp): integral ones stay.
       {"h[i] = h[i] * 0.1", "y[i] = x[i] + 16777217", "b[i] = b[i] * 7", "c[i] += -7",
        "h[i] = select(h[i], 0.1, h[i], 0.3)", "y[i] = select(x[i], 0.1, x[i], 16777217)",
        "z[i] = z[i] * 0.1", "c[i] = c[i] / 2", "b[i] = b[i] * 2.0",
        "r[i] = r[i] * 0.1 + 16777217"}) {
    std::string src =
        "def lit(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM, z: f64[n] @ DRAM, r: R[n] @ DRAM, "
        "b: ui8[n] @ DRAM, h: f16[n] @ DRAM, c: i8[n] @ DRAM):\n"
        "    for i in seq(0, n):\n"
        "        " +
        std::string(body) + "\n";
    EXPECT_EQ(check(src, "lit", {{"n", 64}}, 3), "") << body;
  }
}

// ---- test_window.py
// ------------------------------------------------------------------------------

// test_input1 / test_input2 (no golden in Exo): tensor and window arguments with stride asserts
// compile and copy.
TEST(ExoWindowCodegenPort, Input1And2TensorAndWindowArguments) {
  const char* src = R"(
def foo1(dst1: f32[8] @ DRAM, src1: [f32][8] @ DRAM):
    assert stride(src1, 0) == 1
    assert stride(dst1, 0) == 1
    for i in seq(0, 8):
        dst1[i] = src1[i]

def foo2(dst2: [f32][8] @ DRAM, src2: f32[8] @ DRAM):
    assert stride(src2, 0) == 1
    assert stride(dst2, 0) == 1
    for i in seq(0, 8):
        dst2[i] = src2[i]
)";
  EXPECT_TRUE(has(c_of(src, "foo1"), "float *dst1, struct exo_win_1f32c src1"));
  EXPECT_TRUE(has(c_of(src, "foo2"), "struct exo_win_1f32 dst2, const float *src2"));
  EXPECT_EQ(check(src, "foo1"), "");
  EXPECT_EQ(check(src, "foo2"), "");
}

// test_input4, in the form legal here (both parameters windows; see the core port): a window
// argument is passed on to a callee as it is.
TEST(ExoWindowCodegenPort, Input4WindowArgumentsPassedOn) {
  const char* src = R"(
def foo(dst2: [f32][8] @ DRAM, src2: [f32][8] @ DRAM):
    assert stride(src2, 0) == 1
    assert stride(dst2, 0) == 1
    for i in seq(0, 8):
        dst2[i] = src2[i]

def bar(x: [f32][8] @ DRAM, y: [f32][8] @ DRAM):
    assert stride(x, 0) == 1
    assert stride(y, 0) == 1
    foo(x, y)
)";
  std::string c = c_of(src, "bar");
  EXPECT_TRUE(has(c, "void bar(void *ctxt, struct exo_win_1f32 x, struct exo_win_1f32c y)")) << c;
  EXPECT_EQ(check(src, "bar"), "");
}

// test_window (golden): rank-2 window arguments are structs (read-only src: the const variant),
// addressed through both strides.
TEST(ExoWindowCodegenPort, WindowArgumentsAreStructsWithStrides) {
  CSource c = compile_procs_to_c({proc_of(kWindow, "window")}, "lib");
  EXPECT_TRUE(has(c.header, "struct exo_win_2i8c src, struct exo_win_2i8 dst")) << c.header;
  EXPECT_TRUE(has(c.header, "const int8_t *const data;")) << c.header;
  EXPECT_TRUE(has(c.source,
                  "dst.data[i * dst.strides[0] + j * dst.strides[1]] = "
                  "src.data[i * src.strides[0] + j * src.strides[1]];"))
      << c.source;
  EXPECT_EQ(check(kWindow, "window", {{"n", 5}, {"m", 7}}), "");
}

const char* kStrideAssert = R"(
def stride_assert(n: size, m: size, src: [i8][n, m] @ DRAM, dst: [i8][n, 16] @ DRAM):
    assert n <= 16
    assert m <= 16
    assert stride(src, 1) == 1
    assert stride(dst, 0) == 16
    assert stride(dst, 1) == 1
    for i in seq(0, n):
        for j in seq(0, m):
            dst[i, j] = src[i, j]
)";

// test_stride_assert (golden): Exo turns each assert into EXO_ASSUME(...), which tells the C
// compiler the strides. Ours are comments (docs/codegen.md), and the strides they fix are
// emitted as constants instead: the same knowledge, without a compiler builtin.
TEST(ExoWindowCodegenPort, StrideAssertsAreCommentsAndFixTheirStrides) {
  std::string c = c_of(kStrideAssert, "stride_assert");
  EXPECT_TRUE(has(c, "// assert stride(src, 1) == 1")) << c;
  EXPECT_TRUE(has(c, "// assert stride(dst, 0) == 16")) << c;
  EXPECT_TRUE(has(c, "dst.data[i * 16 + j] = src.data[i * src.strides[0] + j];")) << c;
  EXPECT_EQ(check(kStrideAssert, "stride_assert", {{"n", 4}, {"m", 9}}), "");
}

// test_window_stmt (golden): the window statement becomes a window struct whose origin is x's
// first element and whose stride is x's row length m; reads go through it.
TEST(ExoWindowCodegenPort, WindowStatementIsAStructWithTheRowStride) {
  std::string c = c_of(kWindowStmt, "window_stmt");
  EXPECT_TRUE(has(c, "const float *x")) << c;
  EXPECT_TRUE(has(c, "y = (struct exo_win_1f32c){ &x[0], { m } };")) << c;
  EXPECT_TRUE(has(c, "z[i] = y.data[i * y.strides[0]];")) << c;
  EXPECT_EQ(check(kWindowStmt, "window_stmt", {{"n", 4}, {"m", 3}}), "");
}

const char* kNormalize = R"(
def dot(m: size, x: [f32][m] @ DRAM, y: [f32][m] @ DRAM, r: f32 @ DRAM):
    r = 0.0
    for i in seq(0, m):
        r += x[i] * y[i]

def proj(n: size, m: size, x: f32[n, m] @ DRAM, y: f32[m, n] @ DRAM):
    assert n > 4
    assert m > 4
    xy: f32 @ DRAM
    y2: f32 @ DRAM
    dot(m, x[1, :], y[:, 2], xy)
    dot(m, y[:, 3], x[2, :], y2)

def proj_out(n: size, m: size, x: f32[n, m] @ DRAM, y: f32[m, n] @ DRAM, out: f32[2] @ DRAM):
    assert n > 4
    assert m > 4
    dot(m, x[1, :], y[:, 2], out[0])
    dot(m, y[:, 3], x[2, :], out[1])
)";

// test_normalize (golden): a row window has stride 1 and a column window stride n. Exo's golden
// passes y's column for both arguments of the second call; here each call passes the windows it
// names (x's row 2 second), which proj_out checks against the interpreter with the results kept.
TEST(ExoWindowCodegenPort, NormalizeRowAndColumnWindowStructs) {
  std::string c = c_of(kNormalize, "proj");
  EXPECT_TRUE(has(c,
                  "static void dot(void *ctxt, int_fast32_t m, struct exo_win_1f32c x, "
                  "struct exo_win_1f32c y, float *r)"))
      << c;
  EXPECT_TRUE(has(c,
                  "dot(ctxt, m, (struct exo_win_1f32c){ &x[1 * m], { 1 } }, "
                  "(struct exo_win_1f32c){ &y[2], { n } }, &xy);"))
      << c;
  EXPECT_TRUE(has(c,
                  "dot(ctxt, m, (struct exo_win_1f32c){ &y[3], { n } }, "
                  "(struct exo_win_1f32c){ &x[2 * m], { 1 } }, &y2);"))
      << c;
  EXPECT_EQ(check(kNormalize, "proj", {{"n", 5}, {"m", 6}}), "");
  EXPECT_EQ(check(kNormalize, "proj_out", {{"n", 5}, {"m", 6}}), "");
  EXPECT_EQ(check(kNormalize, "proj_out", {{"n", 9}, {"m", 7}}), "");
}

// Not in Exo's file: windows of window statements, passed on to a callee and asked for their
// strides, the cases test_window_stmt and test_normalize combine.

// A window of a window composes the strides of its buffer: origin through the outer window's
// strides, strides copied from it.
TEST(ExoWindowCodegenPort, WindowsOfWindowsComposeStrides) {
  std::string c = c_of(kWindowsOfWindows, "strides");
  EXPECT_TRUE(has(c, "blk = (struct exo_win_2f32c){ &x[1 * m + 1], { m, 1 } };")) << c;
  EXPECT_TRUE(has(c, "{ blk.strides[0], blk.strides[1] } }")) << c;
  EXPECT_EQ(check(kWindowsOfWindows, "strides", {{"n", 5}, {"m", 6}}), "");
  EXPECT_EQ(check(kWindowsOfWindows, "strides", {{"n", 4}, {"m", 9}}), "");
}

}  // namespace
}  // namespace exocpp::codegen_test
