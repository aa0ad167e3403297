// transpose (Exo's Procedure.transpose): the port of test_transpose (golden text exact), the
// result run against the input on transposed data, and each refusal.
#include "rewrite_test_util.h"
#include "rewrites/stmts.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kBar = R"(def bar(m: size, n: size, A: i8[m, n] @ DRAM):
    for i in seq(0, m):
        for j in seq(0, n):
            A[i, j] += 1.0
)";

// test_transpose.
TEST(Transpose, SwapsTheArgumentsDimensionsAndItsAccesses) {
  Proc bar = parse_proc(kBar);
  Proc q = transpose(bar, bar.arg_cursors()[2]);
  EXPECT_EQ(to_string(q), R"(def bar(m: size, n: size, A: i8[n, m] @ DRAM):
    for i in seq(0, m):
        for j in seq(0, n):
            A[j, i] += 1.0
)");
}

Buffer transposed(const Buffer& b) {
  Buffer t(b.kind(), {b.shape()[1], b.shape()[0]});
  for (int64_t i = 0; i < b.shape()[0]; ++i)
    for (int64_t j = 0; j < b.shape()[1]; ++j) t.set({j, i}, b.get({i, j}));
  return t;
}

// The result on the transposed array computes what the input computes, on sizes 1 and up and
// values near the ends of i8's range.
TEST(Transpose, ComputesTheSameOnTheTransposedArray) {
  Proc p = parse_proc(R"(def f(m: size, n: size, A: i8[m, n] @ DRAM, B: i8[m, n] @ DRAM):
    for i in seq(0, m):
        for j in seq(0, n):
            B[i, j] = A[i, j] + A[i, n - 1 - j]
)");
  Proc q = transpose(p, "A");
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {1, 3}, {4, 2}, {3, 5}}) {
    std::vector<double> vals;
    for (int64_t k = 0; k < m * n; ++k) vals.push_back(k % 2 ? 127 - k : -128 + k);
    Buffer a = Buffer::from_values(ScalarKind::I8, {m, n}, vals);
    std::vector<ArgValue> pa = {m, n, a.deep_copy(), Buffer(ScalarKind::I8, {m, n})};
    std::vector<ArgValue> qa = {m, n, transposed(a), Buffer(ScalarKind::I8, {m, n})};
    interpret(p, pa);
    interpret(q, qa);
    EXPECT_EQ(compare_buffers(std::get<Buffer>(pa[3]), std::get<Buffer>(qa[3]), "B"), "")
        << "m = " << m << ", n = " << n;
  }
}

TEST(Transpose, SwapsStridesInTheAsserts) {
  Proc p = parse_proc(R"(def f(m: size, n: size, A: f32[m, n] @ DRAM):
    assert stride(A, 1) == 1
    A[0, 0] = 1.0
)");
  Proc q = transpose(p, "A");
  EXPECT_NE(to_string(q).find("assert stride(A, 0) == 1"), std::string::npos) << q;
  EXPECT_NE(to_string(q).find("A: f32[n, m]"), std::string::npos) << q;
}

TEST(Transpose, TheResultIsANewProc) {
  Proc bar = parse_proc(kBar);
  Proc q = transpose(bar, "A");
  EXPECT_NE(q->eqv_class, bar->eqv_class);
}

TEST(Transpose, RefusesAnAllocation) {
  Proc p = parse_proc(R"(def f(n: size):
    t: f32[n, n] @ DRAM
    t[0, 0] = 1.0
)");
  expect_refused([&] { transpose(p, "t : _"); }, "transpose", ErrorCode::BadArgument,
                 "target.wrong_kind", "is not an argument");
}

TEST(Transpose, RefusesAOneDimensionalArgument) {
  Proc p = parse_proc(R"(def f(n: size, x: f32[n] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { transpose(p, "x"); }, "transpose", ErrorCode::BadArgument,
                 "target.wrong_kind", "two-dimensional");
}

TEST(Transpose, RefusesAnArgumentPassedWhole) {
  Module m = parse_module(R"(def g(n: size, A: f32[n, n] @ DRAM):
    A[0, 0] = 1.0

def f(n: size, A: f32[n, n] @ DRAM):
    g(n, A)
)");
  expect_refused([&] { transpose(m.proc("f"), "A"); }, "transpose", ErrorCode::NotProved,
                 "buffer.layout_use", "passed whole");
}

TEST(Transpose, RefusesAWindowKeepingBothDimensions) {
  Module m = parse_module(R"(def g(A: [f32][2, 2] @ DRAM):
    A[0, 0] = 1.0

def f(n: size, A: f32[n, n] @ DRAM):
    assert n >= 2
    g(A[0:2, 0:2])
)");
  expect_refused([&] { transpose(m.proc("f"), "A"); }, "transpose", ErrorCode::NotProved,
                 "buffer.layout_use", "dimensions swapped");
}

// A window of a dense argument keeps its strides only if the transposition does not move them
// (rw::require_layout_observations_kept).
TEST(Transpose, RefusesAWindowWhoseCalleeAssertsItsStride) {
  Module m = parse_module(R"(def g(dst: [f32][8] @ DRAM):
    assert stride(dst, 0) == 1
    for k in seq(0, 8):
        dst[k] = 1.0

def f(A: f32[4, 8] @ DRAM):
    for i in seq(0, 4):
        g(A[i, 0:8])
)");
  expect_refused([&] { transpose(m.proc("f"), "A"); }, "transpose", ErrorCode::NotProved,
                 "layout.stride_changed");
}

TEST(Transpose, AWindowArgumentsStridesMoveWithItsDimensions) {
  Module m = parse_module(R"(def g(dst: [f32][8] @ DRAM):
    assert stride(dst, 0) == 1
    for k in seq(0, 8):
        dst[k] = 1.0

def f(A: [f32][4, 8] @ DRAM):
    assert stride(A, 1) == 1
    for i in seq(0, 4):
        g(A[i, 0:8])
)");
  Proc q = transpose(m.proc("f"), "A");
  EXPECT_TRUE(has(q, "g(A[0:8, i])")) << q;
  EXPECT_TRUE(has(q, "assert stride(A, 0) == 1")) << q;
}

}  // namespace
