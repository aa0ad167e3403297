// replace_all (rewrites/replace_all.cpp): its results, its refusals and the interpreter equivalence
// of what it accepts. A test ported from Exo names the Exo case in its comment.
#include "exo_schedules_port_util.h"
#include "replace_test.h"
#include "rewrite_test_util.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

// Exo tests/test_schedules.py::test_replace_all_unambiguous and test_replace_all_arch: Exo's
// replace_all takes a list of instructions; ours takes one, so the list becomes one replace_all per
// instruction, in order.
TEST(ReplaceAll, ReplaceAllUnambiguousAndArch) {
  const std::string expected = R"(def bar(src: f32[8] @ DRAM):
    dst: f32[8] @ AVX2
    mm256_loadu_ps(dst[0:8], src[0:8])
    mm256_storeu_ps(src[0:8], dst[0:8])
)";
  Proc bar = load_store();
  Proc q = bar;
  for (const char* name : {"mm256_loadu_ps", "mm256_storeu_ps"}) q = replace_all(q, avx2(name));
  EXPECT_EQ(to_string(q), expected);
  expect_equivalent(bar, q);
  Proc r = bar;
  for (const char* name : {"mm256_storeu_ps", "mm256_mul_ps", "mm256_loadu_ps"})
    r = replace_all(r, avx2(name));
  EXPECT_EQ(to_string(r), expected);
  expect_equivalent(bar, r);
}

// Exo tests/test_schedules.py::test_replace_all_length_mismatch: a two-statement body replaces the
// first two of three.
TEST(ReplaceAll, ReplaceAllLengthMismatch) {
  Module m = parse_module(R"(def bar(x: i8):
    x = 1.0
    x += 1.0

def foo(x: i8):
    x = 1.0
    x += 1.0
    x = 1.0
)");
  Proc foo = m.proc("foo");
  Proc q = replace_all(foo, m.proc("bar"));
  EXPECT_EQ(to_string(q), "def foo(x: i8 @ DRAM):\n    bar(x)\n    x = 1.0\n");
  expect_equivalent(foo, q);
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(ReplaceAll, AListReplacesWithEachSubprocInTurn) {
  Proc p = parse_proc(R"(def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM, C: f32[16] @ DRAM):
    for i in seq(0, 16):
        B[i] = A[i]
    for i in seq(0, 16):
        C[i] += A[i] * B[i]
    for i in seq(0, 16):
        A[i] = C[i]
)");
  Proc q = replace_all(p, {instr("vld"), instr("vfma")});
  EXPECT_TRUE(has(q, "vld(B[0:16], A[0:16])")) << q;
  EXPECT_TRUE(has(q, "vfma(C[0:16], A[0:16], B[0:16])")) << q;
  EXPECT_TRUE(has(q, "vld(A[0:16], C[0:16])")) << q;
  expect_equivalent(p, q);
}

}  // namespace
