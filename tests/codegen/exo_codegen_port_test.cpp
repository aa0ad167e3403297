// Port of Exo's tests/test_codegen.py (and the cases its golden files show): frees placed by a
// memory's view of buffer lifetimes, const qualifiers through calls and windows, the blur and
// conv1d kernels before and after scheduling, externs, par loops, literal coercions, index
// arithmetic without floor helpers, and instruction templates that call other libraries. Every
// proc that computes something is compiled and compared with the interpreter; where Exo's
// golden shows C text, the meaningful property of ours is asserted (our ABI: docs/codegen.md).
#include <cmath>
#include <filesystem>
#include <fstream>

#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

namespace fs = std::filesystem;

const std::string kStrict = "-std=c99 -O2 -Wall -Wextra -Werror";

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Applies `op` until it refuses (Exo's stdlib `repeat`): the number of successful applications.
template <class F>
int repeat(Proc& p, F&& op) {
  for (int n = 0;; ++n) {
    try {
      p = op(p);
    } catch (const SchedulingError&) {
      return n;
    }
  }
}

// ---- frees: Exo's MOCK memory holds one 16-element register at a time --------------------------

int g_mock_live = 0;

class MockRegisterMemory : public Memory {
 public:
  std::string name() const override { return "MOCK"; }
  std::string alloc(const std::string& n, const std::string& t,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    if (shape.size() != 1 || shape[0] != "16")
      throw CodegenError(where, "MOCK registers hold 16 elements");
    if (g_mock_live > 0) throw CodegenError(where, "Cannot allocate more than one mock register");
    ++g_mock_live;
    return "static " + t + " " + n + "[16];";
  }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    --g_mock_live;
    return "";
  }
};

class ExoCodegenFree : public ::testing::Test {
 protected:
  void SetUp() override {
    register_memory(std::make_shared<MockRegisterMemory>());
    g_mock_live = 0;
  }
};

// Exo test_free: x is dead after its loop, so y may take the register.
TEST_F(ExoCodegenFree, BufferIsFreedAfterItsLastUse) {
  const char* src = R"(
def foo(out: f32[16] @ DRAM):
    x: f32[16] @ MOCK
    for i in seq(0, 16):
        x[i] = 3.0
    for i in seq(0, 16):
        out[i] = x[i]
    y: f32[16] @ MOCK
    for i in seq(0, 16):
        y[i] = 0.0
    for i in seq(0, 16):
        out[i] += y[i]
)";
  EXPECT_EQ(check(src, "foo"), "");
  EXPECT_EQ(g_mock_live, 0);
}

// Exo test_free2: an allocation nothing uses holds no register past itself.
TEST_F(ExoCodegenFree, UnusedBufferHoldsNoRegister) {
  const char* src = R"(
def foo(out: f32[16] @ DRAM):
    x: f32[16] @ MOCK
    for i in seq(0, 16):
        y: R[16] @ MOCK
        y[i] = 2.0
        out[i] = y[i]
)";
  EXPECT_EQ(check(src, "foo"), "");
  EXPECT_EQ(g_mock_live, 0);
}

// Exo test_free3: x is still live in the loop where y is allocated.
TEST_F(ExoCodegenFree, LiveBufferKeepsItsRegister) {
  const char* src = R"(
def foo():
    x: f32[16] @ MOCK
    for i in seq(0, 16):
        y: R[16] @ MOCK
        x[i] = 2.0
)";
  try {
    compile_procs_to_c({proc_of(src, "foo")}, "lib");
    FAIL() << "no CodegenError";
  } catch (const CodegenError& e) {
    EXPECT_EQ(e.reason(), "Cannot allocate more than one mock register");
    EXPECT_EQ(e.loc().line, 5) << e.what();
  }
}

// Not in Exo (whose MemoryAnalysis ignores window aliases): a buffer read through a window
// statement stays allocated until the window's last use.
TEST_F(ExoCodegenFree, WindowOfABufferKeepsItAlive) {
  const char* src = R"(
def foo(out: f32[8] @ DRAM):
    x: f32[16] @ MOCK
    for i in seq(0, 16):
        x[i] = 1.0
    w = x[4:12]
    for i in seq(0, 8):
        out[i] = w[i]
)";
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_EQ(g_mock_live, 0);
  // DRAM buffers: the free() follows the last read through the window.
  const char* heap = R"(
def foo(N: size, out: f32[N] @ DRAM):
    x: f32[N] @ DRAM
    for i in seq(0, N):
        x[i] = 1.0
    w = x[0:N]
    for i in seq(0, N):
        out[i] = w[i]
)";
  c = compile_procs_to_c({proc_of(heap, "foo")}, "lib");
  EXPECT_LT(c.source.find("out[i] = w.data"), c.source.find("free(x);")) << c.source;
  EXPECT_EQ(check(heap, "foo"), "");
}

// ---- const qualifiers ------------------------------------------------------------------------

const char* kCallee = R"(
def callee(N: size, A: [f32][N] @ DRAM):
    for i in seq(0, N):
        A[i] = 0.0
)";

// Exo test_const_local_buffer: the callee writes its window, so it is not const anywhere.
TEST(ExoCodegenConst, LocalBufferPassedToAWritingCallee) {
  std::string src = std::string(kCallee) + R"(
def caller(out: f32[10] @ DRAM):
    A: f32[10] @ DRAM
    callee(10, A)
    for i in seq(0, 10):
        out[i] = A[i] + 1.0
)";
  CSource c = compile_procs_to_c({proc_of(src, "caller")}, "lib");
  EXPECT_TRUE(
      has(c.source, "static void callee(void *ctxt, int_fast32_t N, struct exo_win_1f32 A)"))
      << c.source;
  EXPECT_TRUE(has(c.source, "callee(ctxt, 10, (struct exo_win_1f32){ &A[0], { 1 } });"))
      << c.source;
  EXPECT_FALSE(has(c.header + c.source, "exo_win_1f32c")) << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  EXPECT_EQ(check(src, "caller"), "");
}

// Exo test_const_local_window: the window's origin is the element at its lower bound.
TEST(ExoCodegenConst, LocalWindowPassedToAWritingCallee) {
  std::string src = std::string(kCallee) + R"(
def caller(out: f32[100] @ DRAM):
    A: f32[100] @ DRAM
    for i in seq(0, 100):
        A[i] = 1.0
    callee(10, A[10:20])
    for i in seq(0, 100):
        out[i] = A[i]
)";
  CSource c = compile_procs_to_c({proc_of(src, "caller")}, "lib");
  EXPECT_TRUE(has(c.source, "callee(ctxt, 10, (struct exo_win_1f32){ &A[10], { 1 } });"))
      << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  EXPECT_EQ(check(src, "caller"), "");
}

// Exo test_const_buffer_parameters: read-only tensors are `const T *`, read-only windows the
// `c` struct; set_window turns an argument into a window. Exo names the first proc `memcpy`;
// ours is `copy_n` (see NameOfACLibraryFunction below for why a proc may not be `memcpy`).
TEST(ExoCodegenConst, BufferParameters) {
  Proc copy = proc_of(R"(
def copy_n(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = B[i]
)",
                      "copy_n");
  Proc copy_b = rename(set_window(copy, "B", true), "copy_n_b");
  Proc copy_ab = rename(set_window(copy_b, "A", true), "copy_n_ab");
  CSource c = compile_procs_to_c({copy, copy_b, copy_ab}, "lib");
  EXPECT_TRUE(has(c.header, "void copy_n(void *ctxt, int_fast32_t N, float *A, const float *B);"))
      << c.header;
  EXPECT_TRUE(
      has(c.header, "void copy_n_b(void *ctxt, int_fast32_t N, float *A, struct exo_win_1f32c B);"))
      << c.header;
  EXPECT_TRUE(has(
      c.header,
      "void copy_n_ab(void *ctxt, int_fast32_t N, struct exo_win_1f32 A, struct exo_win_1f32c B);"))
      << c.header;
  EXPECT_TRUE(has(c.source, "A.data[i * A.strides[0]] = B.data[i * B.strides[0]];")) << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  for (const Proc& p : {copy, copy_b, copy_ab})
    EXPECT_EQ(compare_compiled_with_interpreter(p, {}, 1), "") << p.name();
}

// Exo's golden test_exoblas_const_regress(_w): a window read-only in the leaf stays const
// through a middle proc that only passes it on (directly, or bound by window statements).
const char* kExoBlas = R"(
def leaf(M: size, N: size, A: [f32][N, M] @ DRAM, x: [f32][N] @ DRAM, y: [f32][M] @ DRAM):
    for j in seq(0, N):
        for i in seq(0, M):
            y[i] += A[j, i] * x[j]

def middle(M: size, N: size, A: [f32][N, M] @ DRAM, x: [f32][N] @ DRAM, y: [f32][M] @ DRAM):
    leaf(M, N, A[0:N, 0:M], x[0:N], y[0:M])

def entry(M: size, N: size, A: f32[N, M] @ DRAM, x: f32[N] @ DRAM, y: f32[M] @ DRAM):
    middle(M, N, A[0:N, 0:M], x[0:N], y[0:M])

def middle_w(M: size, N: size, A: [f32][N, M] @ DRAM, x: [f32][N] @ DRAM, y: [f32][M] @ DRAM):
    Aw = A[0:N, 0:M]
    xw = x[0:N]
    yw = y[0:M]
    leaf(M, N, Aw, xw, yw)

def entry_w(M: size, N: size, A: f32[N, M] @ DRAM, x: f32[N] @ DRAM, y: f32[M] @ DRAM):
    middle_w(M, N, A, x, y)
)";

TEST(ExoCodegenConst, ReadOnlyWindowsStayConstThroughAMiddleProc) {
  for (const char* suffix : {"", "_w"}) {
    SCOPED_TRACE(suffix);
    std::string entry = std::string("entry") + suffix, middle = std::string("middle") + suffix;
    Proc p = proc_of(kExoBlas, entry);
    CSource c = compile_procs_to_c({p}, "lib");
    EXPECT_TRUE(has(c.header, "void " + entry +
                                  "(void *ctxt, int_fast32_t M, int_fast32_t N, const float *A, "
                                  "const float *x, float *y);"))
        << c.header;
    const std::string wins =
        "(void *ctxt, int_fast32_t M, int_fast32_t N, struct exo_win_2f32c A, "
        "struct exo_win_1f32c x, struct exo_win_1f32 y)";
    EXPECT_TRUE(has(c.source, "static void leaf" + wins)) << c.source;
    EXPECT_TRUE(has(c.source, "static void " + middle + wins)) << c.source;
    EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
    EXPECT_EQ(compare_compiled_with_interpreter(p, {}, 1), "");
    EXPECT_EQ(compare_compiled_with_interpreter(p, {}, 2), "");
  }
}

// ---- blur and conv1d -------------------------------------------------------------------------

const char* kBlur = R"(
def blur(n: size, m: size, k_size: size, image: R[n, m] @ DRAM, kernel: R[k_size, k_size] @ DRAM, res: R[n, m] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            res[i, j] = 0.0
    for i in seq(0, n):
        for j in seq(0, m):
            for k in seq(0, k_size):
                for l in seq(0, k_size):
                    if i + k >= 1 and i + k - n < 1 and j + l >= 1 and j + l - m < 1:
                        res[i, j] += kernel[k, l] * image[i + k - 1, j + l - 1]
)";

// Exo's _test_blur runs the kernel on an image without checking the result; ours compares it
// with the interpreter, on a 5x5 kernel as there and on random sizes.
void expect_blur_matches(const Proc& blur) {
  SCOPED_TRACE(to_string(blur));
  for (uint64_t seed = 1; seed <= 2; ++seed)
    EXPECT_EQ(compare_compiled_with_interpreter(blur, {{"k_size", 5}, {"n", 9}, {"m", 11}}, seed),
              "");
  EXPECT_EQ(compare_compiled_with_interpreter(blur, {}, 3), "");
}

TEST(ExoCodegenBlur, SimpleBlur) { expect_blur_matches(proc_of(kBlur, "blur")); }

TEST(ExoCodegenBlur, SimpleBlurSplit) {
  // Exo's test writes `m / 2` outer loops by hand: odd widths leave the last column alone.
  const char* src = R"(
def simple_blur_split(n: size, m: size, k_size: size, image: R[n, m] @ DRAM, kernel: R[k_size, k_size] @ DRAM, res: R[n, m] @ DRAM):
    for i in seq(0, n):
        for j1 in seq(0, m / 2):
            for j2 in seq(0, 2):
                res[i, j1 * 2 + j2] = 0.0
    for i in seq(0, n):
        for j1 in seq(0, m / 2):
            for j2 in seq(0, 2):
                for k in seq(0, k_size):
                    for l in seq(0, k_size):
                        if i + k >= 1 and i + k - n < 1 and j1 * 2 + j2 + l >= 1 and j1 * 2 + j2 + l - m < 1:
                            res[i, j1 * 2 + j2] += kernel[k, l] * image[i + k - 1, j1 * 2 + j2 + l - 1]
)";
  expect_blur_matches(proc_of(src, "simple_blur_split"));
}

TEST(ExoCodegenBlur, SplitBlur) {
  Proc blur = proc_of(kBlur, "blur");
  Proc p = blur;
  // Exo: repeat(divide_loop)(blur, "j", 4, ...): every j loop; then the second i loop.
  EXPECT_EQ(repeat(p, [](const Proc& q) { return divide_loop(q, "j", 4, {"j1", "j2"}); }), 2);
  EXPECT_EQ(repeat(p,
                   [](const Proc& q) {
                     return divide_loop(q, "for i in _: _ #1", 4, {"i1", "i2"});
                   }),
            1);
  EXPECT_EQ(count(to_string(p), "if 4 * j1 + j2 < m:"), 2u) << p;
  expect_blur_matches(p);
}

TEST(ExoCodegenBlur, ReorderBlur) {
  Proc p = proc_of(kBlur, "blur");
  p = reorder_loops(p, "k l");
  p = reorder_loops(p, "i j");
  EXPECT_TRUE(
      has(to_string(p), "for l in seq(0, k_size):\n                for k in seq(0, k_size):"))
      << p;
  expect_blur_matches(p);
}

TEST(ExoCodegenBlur, UnrollBlur) {
  Proc p = proc_of(kBlur, "blur");
  repeat(p, [](const Proc& q) { return divide_loop(q, "j", 4, {"j1", "j2"}); });
  EXPECT_EQ(repeat(p, [](const Proc& q) { return unroll_loop(q, "j2"); }), 2);
  EXPECT_FALSE(has(to_string(p), "j2")) << p;
  expect_blur_matches(p);
}

// A library's public proc called on given values (Exo's `fn(None, ...)`).
std::vector<ArgValue> run(const Proc& p, std::vector<ArgValue> args) {
  CompiledLibrary lib({p}, "run_" + p.name());
  lib.call(p.name(), args);
  return args;
}

Buffer f32s(std::vector<int64_t> shape, const std::vector<double>& v) {
  return Buffer::from_values(ScalarKind::F32, std::move(shape), v);
}

void expect_near_all(const Buffer& got, const std::vector<double>& want) {
  std::vector<double> g = got.to_vector();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], 1e-5) << "element " << i;
}

TEST(ExoCodegenKernels, Conv1d) {
  const char* src = R"(
def conv1d(n: size, m: size, r: size, x: R[n] @ DRAM, w: R[m] @ DRAM, res: R[r] @ DRAM):
    for i in seq(0, r):
        res[i] = 0.0
    for i in seq(0, r):
        for j in seq(0, n):
            if j < i + 1 and j >= i - m + 1:
                res[i] += x[j] * w[i - j]
)";
  Proc p = proc_of(src, "conv1d");
  std::vector<ArgValue> out =
      run(p, {int64_t{5}, int64_t{3}, int64_t{7}, f32s({5}, {0.2, 0.5, -0.4, 1.0, 0.0}),
              f32s({3}, {0.6, 1.9, -2.2}), Buffer(ScalarKind::F32, {7})});
  expect_near_all(std::get<Buffer>(out[5]), {0.12, 0.68, 0.27, -1.26, 2.78, -2.2, 0});
  EXPECT_EQ(check(src, "conv1d"), "");
}

const char* kAllocNest = R"(
def alloc_nest(n: size, m: size, x: R[n, m] @ MEM, y: R[n, m] @ MEM, res: R[n, m] @ MEM):
    for i in seq(0, n):
        rloc: R[m] @ MEM
        xloc: R[m] @ MEM
        yloc: R[m] @ MEM
        for j in seq(0, m):
            xloc[j] = x[i, j]
        for j in seq(0, m):
            yloc[j] = y[i, j]
        for j in seq(0, m):
            rloc[j] = xloc[j] + yloc[j]
        for j in seq(0, m):
            res[i, j] = rloc[j]
)";

std::string with_memory(std::string src, const std::string& mem) {
  for (size_t at = src.find("MEM"); at != std::string::npos; at = src.find("MEM", at + mem.size()))
    src.replace(at, 3, mem);
  return src;
}

void expect_alloc_nest(const Proc& p) {
  std::vector<ArgValue> out =
      run(p, {int64_t{2}, int64_t{3}, f32s({2, 3}, {1.0, 2.0, 3.0, 3.2, 4.0, 5.3}),
              f32s({2, 3}, {2.6, 3.7, 8.9, 1.3, 2.3, 6.7}), Buffer(ScalarKind::F32, {2, 3})});
  expect_near_all(std::get<Buffer>(out[4]), {3.6, 5.7, 11.9, 4.5, 6.3, 12.0});
  EXPECT_EQ(compare_compiled_with_interpreter(p, {}, 1), "");
}

TEST(ExoCodegenKernels, AllocNest) {
  expect_alloc_nest(proc_of(with_memory(kAllocNest, "DRAM"), "alloc_nest"));
}

// Exo's MDRAM: DRAM through a custom allocator, whose C comes with the memory (Exo links a
// separate malloc.c and calls init_mem() first; ours needs no set-up).
class PoolDramMemory : public Memory {
 public:
  std::string name() const override { return "MDRAM"; }
  std::string global() const override {
    return "#include <stddef.h>\n"
           "static unsigned char exo_mdram_pool[1 << 16];\n"
           "static size_t exo_mdram_top, exo_mdram_live;\n"
           "static void *exo_mdram_alloc(size_t bytes) {\n"
           "    void *p = &exo_mdram_pool[exo_mdram_top];\n"
           "    exo_mdram_top += (bytes + 15) & ~(size_t)15;\n"
           "    ++exo_mdram_live;\n"
           "    return p;\n"
           "}\n"
           "static void exo_mdram_free(void *p) {\n"
           "    (void)p;\n"
           "    if (--exo_mdram_live == 0) exo_mdram_top = 0;\n"
           "}";
  }
  std::string alloc(const std::string& n, const std::string& t,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    if (shape.size() != 1) throw CodegenError(where, "MDRAM holds vectors");
    return t + " *" + n + " = (" + t + " *)exo_mdram_alloc((" + shape[0] + ") * sizeof(" + t +
           "));";
  }
  std::string free(const std::string& n, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "exo_mdram_free(" + n + ");";
  }
};

TEST(ExoCodegenKernels, AllocNestCustomMalloc) {
  register_memory(std::make_shared<PoolDramMemory>());
  Proc p = proc_of(with_memory(kAllocNest, "MDRAM"), "alloc_nest");
  CSource c = compile_procs_to_c({p}, "lib");
  EXPECT_EQ(count(c.source, "exo_mdram_alloc(("), 3u) << c.source;
  EXPECT_EQ(count(c.source, "exo_mdram_free(rloc)"), 1u) << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  expect_alloc_nest(p);
}

TEST(ExoCodegenKernels, UnaryNeg) {
  const char* src = R"(
def negate_array(n: size, x: R[n] @ DRAM, res: R[n] @ DRAM):
    for i in seq(0, n):
        res[i] = -x[i] + -(x[i]) - -(x[i] + 0.0)
)";
  CSource c = compile_procs_to_c({proc_of(src, "negate_array")}, "lib");
  EXPECT_FALSE(has(c.source, "--")) << c.source;
  std::vector<ArgValue> out =
      run(proc_of(src, "negate_array"),
          {int64_t{4}, f32s({4}, {1, 2, 3, 4}), Buffer(ScalarKind::F32, {4})});
  expect_near_all(std::get<Buffer>(out[2]), {-1, -2, -3, -4});
  EXPECT_EQ(check(src, "negate_array"), "");
}

// Exo test_bool1 (compile only): bool arguments and constants, a call with `False`, and one
// name allocated twice.
TEST(ExoCodegenKernels, Bool) {
  const char* src = R"(
def foo(x: bool):
    pass

def bool1(a: bool, b: bool):
    assert b == True
    foo(False)
    x: f32 @ DRAM
    if b == True:
        x = 0.0
    else:
        x = 1.0
    if a == b:
        x = 0.0
    if False:
        x = 0.0
    x: f32 @ DRAM
    if a:
        x = 0.0
)";
  CSource c = compile_procs_to_c({proc_of(src, "bool1")}, "lib");
  EXPECT_TRUE(has(c.header, "void bool1(void *ctxt, bool a, bool b);")) << c.header;
  EXPECT_TRUE(has(c.source, "foo(ctxt, false);")) << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  EXPECT_EQ(check(src, "bool1"), "");
}

// ---- externs ---------------------------------------------------------------------------------

TEST(ExoCodegenExterns, Sin) {
  const char* src = "def sin1(x: f32 @ DRAM):\n    x = sin(x)\n";
  std::vector<ArgValue> out = run(proc_of(src, "sin1"), {Buffer::scalar(ScalarKind::F32, 4.0)});
  EXPECT_NEAR(std::get<Buffer>(out[0]).value(), std::sin(4.0f), 1e-6);
  EXPECT_EQ(check(src, "sin1"), "");
}

TEST(ExoCodegenExterns, Relu) {
  const char* src =
      "def relu1(x: f32[3] @ DRAM):\n    for i in seq(0, 3):\n        x[i] = relu(x[i])\n";
  std::vector<ArgValue> out = run(proc_of(src, "relu1"), {f32s({3}, {-4.0, 0.0, 4.0})});
  expect_near_all(std::get<Buffer>(out[0]), {0.0, 0.0, 4.0});
  EXPECT_EQ(check(src, "relu1"), "");
}

TEST(ExoCodegenExterns, Select) {
  // select(x, zero, two, x): x < zero ? two : x.
  const char* src = R"(
def select1(x: f32[3] @ DRAM):
    for i in seq(0, 3):
        zero: f32 @ DRAM
        zero = 0.0
        two: f32 @ DRAM
        two = 2.0
        x[i] = select(x[i], zero, two, x[i])
)";
  std::vector<ArgValue> out = run(proc_of(src, "select1"), {f32s({3}, {-4.0, 0.0, 4.0})});
  expect_near_all(std::get<Buffer>(out[0]), {2.0, 0.0, 4.0});
  EXPECT_EQ(check(src, "select1"), "");
}

// ---- par loops -------------------------------------------------------------------------------

// Exo test_pragma_parallel_loop: the pragma sits right above the loop, and a DRAM_STACK buffer
// inside it is a C array private to each iteration. (Exo's proc copies the uninitialized y;
// ours writes it first, so the result can be compared.)
TEST(ExoCodegenPar, PragmaParallelLoop) {
  const char* src = R"(
def foo(x: i8[10] @ DRAM):
    for i in par(0, 10):
        y: i8[10] @ DRAM_STACK
        y[i] = 3
        x[i] = y[i]
)";
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_TRUE(has(c.source,
                  "#pragma omp parallel for\n#endif\n    for (int_fast32_t i = 0; i < 10; i++) {\n"
                  "        int8_t y[10];\n"))
      << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict + " -fopenmp"), "");
  EXPECT_EQ(check(src, "foo"), "");
}

// ---- literal coercion ------------------------------------------------------------------------

// Exo test_const_type_coercion: every literal of `(16777216.0 + 1.0) + y[0]` takes y's f32, so
// the sum rounds back to 2^24 before it is widened into x.
TEST(ExoCodegenCoercion, LiteralsTakeThePrecisionOfTheExpression) {
  const char* src = R"(
def foo(x: f64[1] @ DRAM, y: f32[1] @ DRAM):
    x[0] = (16777216.0 + 1.0) + y[0]
)";
  Proc p = proc_of(src, "foo");
  std::vector<ArgValue> out =
      run(p, {Buffer::from_values(ScalarKind::F64, {1}, {3.0}), f32s({1}, {1.0})});
  EXPECT_EQ(std::get<Buffer>(out[0]).get({0}), 16777216.0);
  EXPECT_EQ(check(src, "foo"), "");
}

// Exo test_coercion_to_<type>: `a = a + 3`. Exo casts the literal to a's type
// (`((float) 3)`); ours leaves an integer literal to C's usual conversions, which give the same
// value for every integer a literal in a data expression can hold exactly, and rounds an f16
// result back as the interpreter does. Integer arithmetic goes through the prelude's wrapping
// helpers (a plain `a + 3` on int32_t overflowed into undefined behaviour at INT32_MAX, and the
// narrow types converted back implementation-defined). Exo reads a never written `a`; ours starts
// from an argument so that the result can be compared.
struct Coercion {
  const char* type;
  const char* stmt;  // what the statement must read
};

class ExoCodegenCoercionTo : public ::testing::TestWithParam<Coercion> {};

TEST_P(ExoCodegenCoercionTo, Literal) {
  std::string t = GetParam().type;
  std::string src = "def foo(b: " + t + "[1] @ DRAM):\n    a: " + t +
                    " @ DRAM\n    a = b[0]\n    a = a + 3\n    b[0] = a\n";
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_TRUE(has(c.source, GetParam().stmt)) << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  EXPECT_EQ(check(src, "foo"), "");
}

INSTANTIATE_TEST_SUITE_P(
    Types, ExoCodegenCoercionTo,
    ::testing::Values(Coercion{"i8", "a = exo_i8_of((uint32_t)(exo_add_i32(a, 3)));"},
                      Coercion{"ui8", "a = exo_ui8_of((uint32_t)(exo_add_i32(a, 3)));"},
                      Coercion{"ui16", "a = exo_ui16_of((uint32_t)(exo_add_i32(a, 3)));"},
                      Coercion{"i32", "a = exo_add_i32(a, 3);"},
                      Coercion{"f16", "a = (exo_f16)(a + 3);"}, Coercion{"f32", "a = a + 3;"},
                      Coercion{"f64", "a = a + 3;"}),
    [](const auto& info) { return std::string(info.param.type); });

// Exo test_coercion_to_index: loop bounds are plain integers; an empty body is a comment.
TEST(ExoCodegenCoercion, ToIndex) {
  const char* src = "def foo():\n    for x in seq(0, 6):\n        pass\n";
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_TRUE(has(c.source, "for (int_fast32_t x = 0; x < 6; x++) {\n        // pass\n    }"))
      << c.source;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
}

// ---- index arithmetic ------------------------------------------------------------------------

// Exo test_no_exo_floor_div_after_divide_loop_with_guard: each step keeps plain C `/`.
TEST(ExoCodegenIndex, NoFloorDivAfterDivideLoopWithGuard) {
  Proc foo = proc_of(
      "def foo(N: size, x: f32[N] @ DRAM):\n    for i in seq(0, N):\n        x[i] = 0.0\n", "foo");
  Proc p0 = divide_loop(foo, foo.find_loop("i"), 8, {"io", "ii"});
  Proc p1 = cut_loop(p0, p0.find_loop("io"), "((N + 7) / (8)) - 1");
  Proc p2 = divide_loop(p1, p1.find_loop("io"), 4, {"ioo", "ioi"});
  for (const Proc& p : {p0, p1, p2}) {
    CSource c = compile_procs_to_c({p}, "lib");
    EXPECT_FALSE(has(c.source, "exo_floor")) << c.source;
    EXPECT_TRUE(has(c.source, "(N + 7) / 8")) << c.source;
    EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
    for (int64_t n : {1, 8, 9, 17, 40, 41})
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"N", n}}, 1), "") << p;
  }
  // Our divide_loop simplifies the index Exo leaves as 8 * (4 * ioo + ioi) + ii.
  std::string c2 = compile_procs_to_c({p2}, "lib").source;
  EXPECT_TRUE(has(c2, "if (4 * ioo + ioi < (N + 7) / 8 - 1) {")) << c2;
  EXPECT_TRUE(has(c2, "x[32 * ioo + 8 * ioi + ii] = 0.0f;")) << c2;
  EXPECT_TRUE(has(c2, "for (int_fast32_t io = (N + 7) / 8 - 1; io < (N + 7) / 8; io++) {")) << c2;
}

// Exo test_no_exo_floor_div_triangular_access: a bound over a loop variable and a size.
TEST(ExoCodegenIndex, NoFloorDivTriangularAccess) {
  const char* src = R"(
def foo(N: size, x: f32[N, N] @ DRAM):
    for ii in seq(0, N % 4):
        for joo in seq(0, (ii + N / 4 * 4) / 16):
            x[ii, joo] = 0.0
)";
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_FALSE(has(c.source, "exo_floor")) << c.source;
  EXPECT_TRUE(has(c.source, "joo < (ii + N / 4 * 4) / 16;")) << c.source;
  for (int64_t n : {3, 19, 35, 67}) EXPECT_EQ(check(src, "foo", {{"N", n}}, 1), "");
}

// Exo test_CIR_USub: a negated index needs no parentheses.
TEST(ExoCodegenIndex, NegatedIndex) {
  const char* src =
      "def foo(N: size, x: f32[N] @ DRAM):\n    for i in seq(0, N):\n        x[-i + N - 1] = 0.0\n";
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_TRUE(has(c.source, "x[-i + N - 1] = 0.0f;")) << c.source;
  EXPECT_EQ(check(src, "foo"), "");
}

// Exo test_CIR_BinOp: a product with a remainder keeps its parentheses.
TEST(ExoCodegenIndex, ProductOfARemainder) {
  const char* src =
      "def foo(x: f32[10] @ DRAM):\n    for i in seq(0, 10):\n        x[5 * (i % 2)] = 0.0\n";
  CSource c = compile_procs_to_c({proc_of(src, "foo")}, "lib");
  EXPECT_TRUE(has(c.source, "x[5 * (i % 2)] = 0.0f;")) << c.source;
  EXPECT_EQ(check(src, "foo"), "");
}

// Exo's golden test_mul_mod_{4,5}_parens: an index argument the asserts keep non-negative is
// divided with plain C operators, and `64 * (cw % q)` keeps its parentheses.
TEST(ExoCodegenIndex, MulModParens) {
  for (int q : {4, 5}) {
    std::string qs = std::to_string(q);
    std::string src =
        "def mul_mod_parens_proc(x: f32[1000] @ DRAM, cw: index):\n"
        "    assert cw >= 0\n    assert cw < 10\n"
        "    x[64 * (cw % " +
        qs +
        ")] = 1.0\n"
        "    x[64 * (cw / " +
        qs + ") + 12] = 2.0\n";
    CSource c = compile_procs_to_c({proc_of(src, "mul_mod_parens_proc")}, "lib");
    EXPECT_TRUE(has(c.source, "x[64 * (cw % " + qs + ")] = 1.0f;")) << c.source;
    EXPECT_TRUE(has(c.source, "x[64 * (cw / " + qs + ") + 12] = 2.0f;")) << c.source;
    EXPECT_FALSE(has(c.source, "exo_floor")) << c.source;
    for (int64_t cw = 0; cw < 10; ++cw)
      EXPECT_EQ(check(src, "mul_mod_parens_proc", {{"cw", cw}}, 1), "");
  }
}

// Not every assert proves non-negativity: a negative index still needs floor division.
TEST(ExoCodegenIndex, AssertThatAllowsNegativesKeepsFloorDivision) {
  const char* src =
      "def f(x: f32[8] @ DRAM, cw: int):\n    assert cw >= -4\n    assert cw < 4\n"
      "    x[cw % 4] = 1.0\n    x[cw / 4 + 4] = 2.0\n";
  CSource c = compile_procs_to_c({proc_of(src, "f")}, "lib");
  EXPECT_TRUE(has(c.source, "exo_floor_mod(cw, 4)")) << c.source;
  EXPECT_TRUE(has(c.source, "exo_floor_div(cw, 4)")) << c.source;
  for (int64_t cw = -4; cw < 4; ++cw) EXPECT_EQ(check(src, "f", {{"cw", cw}}, 1), "");
}

// Exo's golden test_non_assoc_minus_instr: a - (b - c), in plain code and as an instruction's
// semantics, keeps its parentheses.
TEST(ExoCodegenIndex, NonAssociativeMinus) {
  const char* src = R"(
@instr("{c_data} = {x_data} - ({y_data} - {z_data});")
def non_assoc_minus(x: f32 @ DRAM, y: f32 @ DRAM, z: f32 @ DRAM, c: f32 @ DRAM):
    c = x - (y - z)

def plain(x: f32 @ DRAM, y: f32 @ DRAM, z: f32 @ DRAM, c: f32 @ DRAM):
    c = x - (y - z)

def non_assoc_foo(x: f32 @ DRAM, y: f32 @ DRAM, z: f32 @ DRAM, c: f32 @ DRAM):
    non_assoc_minus(x, y, z, c)
)";
  CSource plain = compile_procs_to_c({proc_of(src, "plain")}, "lib");
  EXPECT_TRUE(has(plain.source, "*c = *x - (*y - *z);")) << plain.source;
  EXPECT_TRUE(
      has(plain.header,
          "void plain(void *ctxt, const float *x, const float *y, const float *z, float *c);"))
      << plain.header;
  CSource ins = compile_procs_to_c({proc_of(src, "non_assoc_foo")}, "lib");
  EXPECT_TRUE(has(ins.source, "*c = *x - (*y - *z);")) << ins.source;
  EXPECT_EQ(check(src, "plain"), "");
  EXPECT_EQ(check(src, "non_assoc_foo"), "");
}

// ---- instruction templates -------------------------------------------------------------------

// A fresh folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/exocpp-port-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Exo test_target_another_exo_library: an instruction calls a proc of another generated
// library, whose header it includes. Exo's template passes `{x_data}`, which is a pointer in
// Exo; ours is the origin element (docs/codegen.md), so our template takes its address.
TEST(ExoCodegenInstr, TargetAnotherExoLibrary) {
  Proc foo = proc_of(
      "def foo(n: size, x: f32[n] @ DRAM):\n    for i in seq(0, n):\n        x[i] = 1.0\n", "foo");
  Proc foo_sched = divide_loop(foo, foo.find_loop("i"), 4, {"io", "ii"}, {.tail = Tail::Cut});
  TempDir d;
  emit_c({foo_sched}, "foo", d.path());
  Proc bar = proc_of(
      "def bar(n: size, y: f32[n] @ DRAM):\n    for i in seq(0, n):\n        y[i] = 1.0\n", "bar");

  const char* decorated = R"(
@instr("foo(NULL, {n}, &{x_data});", c_global="#include \"foo.h\"")
def foo(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 1.0
)";
  Proc via_make_instr = make_instr(foo, "foo(NULL, {n}, &{x_data});", "#include \"foo.h\"");
  for (const Proc& instr : {via_make_instr, proc_of(decorated, "foo")}) {
    Proc optimized = replace(bar, bar.find_loop("i"), instr);
    CSource c = compile_procs_to_c({optimized}, "bar");
    EXPECT_TRUE(has(c.source, "#include \"foo.h\"\n")) << c.source;
    EXPECT_TRUE(has(c.source, "    foo(NULL, n, &y[0]);\n")) << c.source;
    EXPECT_FALSE(has(c.source, "void foo(")) << "the instruction is not a function of bar\n"
                                             << c.source;
    EXPECT_EQ(compile_object(c, "bar", "cc", kStrict + " -I" + d.path()), "");
    CompileOptions opts;
    opts.flags = {"-O2", "-I" + d.path(), d.path() + "/foo.c"};
    for (int64_t n : {1, 4, 7, 13})
      EXPECT_EQ(compare_compiled_with_interpreter(optimized, {{"n", n}}, 1, opts), "");
  }
}

// Exo test_memcpy_instr: a memcpy template with its include. Exo's `{dst}` is the data
// pointer of a tensor argument; ours is the window struct, so the template takes `&{dst_data}`.
TEST(ExoCodegenInstr, MemcpyInstr) {
  const char* src = R"(
@instr("memcpy(&{dst_data}, &{src_data}, {n} * sizeof(float));", c_global="#include <string.h>")
def memcpy_f32(n: size, dst: f32[n] @ DRAM, src: f32[n] @ DRAM):
    for i in seq(0, n):
        dst[i] = src[i]

def bar(n: size, dst: f32[n] @ DRAM, src: f32[n] @ DRAM):
    for i in seq(0, n):
        dst[i] = src[i]
)";
  Module m = parse_module(src);
  Proc bar = m.proc("bar");
  Proc optimized = replace(bar, bar.find_loop("i"), m.proc("memcpy_f32"));
  CSource c = compile_procs_to_c({optimized}, "bar");
  EXPECT_EQ(count(c.source, "#include <string.h>"), 1u) << c.source;
  EXPECT_TRUE(has(c.source, "memcpy(&dst[0], &src[0], n * sizeof(float));")) << c.source;
  EXPECT_TRUE(has(c.header, "void bar(void *ctxt, int_fast32_t n, float *dst, const float *src);"))
      << c.header;
  EXPECT_EQ(compile_object(c, "bar", "cc", kStrict), "");
  std::vector<ArgValue> out =
      run(optimized, {int64_t{5}, Buffer(ScalarKind::F32, {5}), f32s({5}, {0, 1, 2, 3, 4})});
  expect_near_all(std::get<Buffer>(out[1]), {0, 1, 2, 3, 4});
  expect_near_all(std::get<Buffer>(out[2]), {0, 1, 2, 3, 4});
  EXPECT_EQ(compare_compiled_with_interpreter(optimized, {}, 1), "");
}

// ---- names -----------------------------------------------------------------------------------

// Names that are C keywords (or names the emitted code uses) get a suffix; the C still
// computes what the interpreter does.
TEST(ExoCodegenNames, KeywordLikeNamesAreRenamed) {
  const char* src = R"(
def kw(int: size, float: f32[int] @ DRAM, double: f32[int] @ DRAM):
    for static in seq(0, int):
        char: f32 @ DRAM
        char = float[static] * 2.0
        double[static] = char
)";
  CSource c = compile_procs_to_c({proc_of(src, "kw")}, "lib");
  EXPECT_TRUE(has(
      c.header, "void kw(void *ctxt, int_fast32_t int_1, const float *float_1, float *double_1);"))
      << c.header;
  EXPECT_EQ(compile_object(c, "lib", "cc", kStrict), "");
  EXPECT_EQ(check(src, "kw"), "");
}

// Exo names a proc `memcpy` (test_const_buffer_parameters) and emits `void memcpy(...)`, which
// clashes with the C library's memcpy (which a C compiler may also call for a copy loop).
TEST(ExoCodegenNames, NameOfACLibraryFunction) {
  Proc p = proc_of(
      "def memcpy(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):\n    for i in seq(0, N):\n        "
      "A[i] = B[i]\n",
      "memcpy");
  try {
    compile_procs_to_c({p}, "lib");
    FAIL() << "no CodegenError";
  } catch (const CodegenError& e) {
    EXPECT_NE(e.reason().find("proc name 'memcpy' cannot be a C function name"), std::string::npos)
        << e.what();
  }
}

// Emission is deterministic: the same procs give the same bytes, whatever the parse.
TEST(ExoCodegenNames, DeterministicOutput) {
  Module m1 = parse_module(kExoBlas), m2 = parse_module(kExoBlas);
  CSource a = compile_procs_to_c({m1.proc("entry"), m1.proc("entry_w")}, "lib");
  CSource b = compile_procs_to_c({m2.proc("entry"), m2.proc("entry_w")}, "lib");
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.header, b.header);
}

}  // namespace
}  // namespace exocpp::codegen_test
