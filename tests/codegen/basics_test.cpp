// Codegen basics: loops, assignments, reductions, ifs and control arithmetic, each compiled and
// compared with the reference interpreter on random inputs.
#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

TEST(CodegenBasics, GemmLoopNest) {
  const char* src = R"(
def gemm(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, N] @ DRAM, C: f32[M, N] @ DRAM):
    for i in seq(0, M):
        for j in seq(0, N):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)";
  EXPECT_EQ(check(src, "gemm"), "");
}

TEST(CodegenBasics, SgemmSignatureFollowsTheAbi) {
  const char* src = R"(
def sgemm(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, N] @ DRAM, C: f32[M, N] @ DRAM):
    for i in seq(0, M):
        for j in seq(0, N):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)";
  CSource c = compile_procs_to_c({proc_of(src, "sgemm")}, "sgemm");
  EXPECT_NE(c.header.find("void sgemm(void *ctxt, int_fast32_t M, int_fast32_t N, int_fast32_t K, "
                          "const float *A, const float *B, float *C);"),
            std::string::npos)
      << c.header;
}

// A stride the asserts fix is a constant in C (the compiler can vectorize and fold it), for the
// window's own accesses and for windows of it passed on; the results still match the
// interpreter.
TEST(CodegenBasics, AssertedStrideIsEmittedAsItsConstant) {
  const char* src = R"(
def inner(N: size, x: [f32][N] @ DRAM):
    assert stride(x, 0) == 1
    for i in seq(0, N):
        x[i] = x[i] * 2.0

def outer(M: size, N: size, x: [f32][M, N] @ DRAM):
    assert stride(x, 1) == 1
    for i in seq(0, M):
        inner(N, x[i, 0:N])
        x[i, 0] += 1.0
)";
  EXPECT_EQ(check(src, "outer"), "");
  CSource c = compile_procs_to_c({proc_of(src, "outer")}, "lib");
  EXPECT_EQ(c.source.find("strides[1]"), std::string::npos) << c.source;
  EXPECT_NE(c.source.find("x.strides[0]"), std::string::npos) << c.source;  // not asserted
}

TEST(CodegenBasics, AssignAndIfElse) {
  const char* src = R"(
def clamp(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < 2:
            y[i] = 0.0
        elif i > 4:
            y[i] = select(x[i], 0.0, x[i], 2.0)
        else:
            y[i] = x[i] - 1.0
)";
  EXPECT_EQ(check(src, "clamp"), "");
}

TEST(CodegenBasics, ControlIfOnIndices) {
  const char* src = R"(
def tri(N: size, A: i32[N, N] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            if i < j and j - i >= 3 or i == 0:
                A[i, j] = 1
            else:
                A[i, j] += 2
)";
  EXPECT_EQ(check(src, "tri"), "");
}

}  // namespace
}  // namespace exocpp::codegen_test
