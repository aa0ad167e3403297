// Codegen of buffers: allocations in every DRAM memory, windows with strides, window
// statements, calls to subprocs and instruction templates.
#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

TEST(CodegenBuffers, AllocationsInEveryDramMemory) {
  const char* src = R"(
def allocs(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM, z: i32[N] @ DRAM):
    heap: f32[N] @ DRAM
    fixed: f32[4, 4] @ DRAM_STATIC
    stack: i32[8] @ DRAM_STACK
    acc: f32 @ DRAM_STACK
    acc = 0.0
    for i in seq(0, 4):
        for j in seq(0, 4):
            fixed[i, j] = 2.0
    for i in seq(0, 8):
        stack[i] = 3
    for i in seq(0, N):
        heap[i] = x[i] * 2.0
        acc += heap[i]
    for i in seq(0, N):
        y[i] = heap[i] + acc + fixed[1, 2]
        z[i] = stack[5] * z[i]
)";
  EXPECT_EQ(check(src, "allocs"), "");
}

TEST(CodegenBuffers, WindowStatementWithStrides) {
  const char* src = R"(
def colsum(N: size, M: size, A: f32[N, M] @ DRAM, out: f32[N] @ DRAM):
    for j in seq(0, M):
        col = A[0:N, j]
        for i in seq(0, N):
            out[i] += col[i]
)";
  EXPECT_EQ(check(src, "colsum"), "");
}

TEST(CodegenBuffers, CallsPassWindowsAndScalars) {
  const char* src = R"(
def scale_vec(N: size, alpha: f32 @ DRAM, x: [f32][N] @ DRAM):
    for i in seq(0, N):
        x[i] = alpha * x[i]

def add_to(N: size, x: [f32][N] @ DRAM, y: [f32][N] @ DRAM):
    for i in seq(0, N):
        y[i] += x[i]

def caller(N: size, M: size, alpha: f32 @ DRAM, A: f32[N, M] @ DRAM, B: f32[N, M] @ DRAM):
    for i in seq(0, N):
        scale_vec(M, alpha, A[i, 0:M])
        add_to(N, A[0:N, 0], B[0:N, M - 1])
    scale_vec(M, A[0, 0], B[N - 1, 0:M])
)";
  EXPECT_EQ(check(src, "caller"), "");
}

TEST(CodegenBuffers, CalleesComeFirstAndAreStatic) {
  const char* src = R"(
def leaf(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = 1.0

def mid(N: size, x: f32[N] @ DRAM):
    leaf(N, x)

def top(N: size, x: f32[N] @ DRAM):
    mid(N, x)
    leaf(N, x)
)";
  Module m = parse_module(src);
  CSource c = compile_procs_to_c({m.proc("top")}, "lib");
  size_t leaf = c.source.find("static void leaf("), mid = c.source.find("static void mid("),
         top = c.source.find("\nvoid top(");
  ASSERT_NE(leaf, std::string::npos) << c.source;
  ASSERT_NE(mid, std::string::npos) << c.source;
  ASSERT_NE(top, std::string::npos) << c.source;
  EXPECT_LT(leaf, mid);
  EXPECT_LT(mid, top);
  EXPECT_EQ(c.header.find("leaf"), std::string::npos) << c.header;
  EXPECT_EQ(check(src, "top"), "");
}

TEST(CodegenBuffers, InstructionTemplateExpands) {
  const char* src = R"(
@instr("for (int k = 0; k < 4; k++) {\n    (&{dst_data})[k] = (&{src_data})[k] * {scale_data};\n}", c_global="/* scale4 */")
def scale4(dst: [f32][4] @ DRAM, src: [f32][4] @ DRAM, scale: f32 @ DRAM):
    assert stride(dst, 0) == 1
    assert stride(src, 0) == 1
    for k in seq(0, 4):
        dst[k] = src[k] * scale

def use(N: size, s: f32 @ DRAM, x: f32[N, 4] @ DRAM, y: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        scale4(y[i, 0:4], x[i, 0:4], s)
        scale4(y[i, 0:4], y[i, 0:4], x[i, 1])
)";
  Module m = parse_module(src);
  CSource c = compile_procs_to_c({m.proc("use")}, "lib");
  EXPECT_EQ(c.source.find("scale4("), std::string::npos) << "instructions are not functions\n"
                                                         << c.source;
  size_t g = c.source.find("/* scale4 */");
  ASSERT_NE(g, std::string::npos) << c.source;
  EXPECT_EQ(c.source.find("/* scale4 */", g + 1), std::string::npos) << "c_global once\n"
                                                                     << c.source;
  EXPECT_EQ(check(src, "use"), "");
}

// {x_base} and {x_offset}: the array a window's elements are addressed from and the window's
// first element's offset in it, so `{x_base}[{x_offset} + k]` is the window's element k.
TEST(CodegenBuffers, BaseAndOffsetHolesAddressTheWindow) {
  const char* src = R"(
@instr("for (int k = 0; k < 4; k++) {\n    {dst_base}[{dst_offset} + k] = 2.0f * {src_base}[{src_offset} + k];\n}")
def double4(dst: [f32][4] @ DRAM, src: [f32][4] @ DRAM):
    assert stride(dst, 0) == 1
    assert stride(src, 0) == 1
    for k in seq(0, 4):
        dst[k] = 2.0 * src[k]

def use(N: size, x: f32[N, 8] @ DRAM, y: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        double4(y[i, 4:8], x[i, 2:6])
)";
  CSource c = compile_procs_to_c({parse_module(src).proc("use")}, "lib");
  EXPECT_NE(c.source.find("y[i * 8 + 4 + k] = 2.0f * x[i * 8 + 2 + k]"), std::string::npos)
      << c.source;
  EXPECT_EQ(check(src, "use"), "");
}

}  // namespace
}  // namespace exocpp::codegen_test
