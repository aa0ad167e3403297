// replace_once (rewrites/replace_once.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include "exo_schedules_port_util.h"
#include "replace_test.h"
#include "rewrite_test_util.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;
using namespace exocpp::exo_port;

namespace {

const char* kTwoCopies = R"(def f(A: f32[16] @ DRAM, B: f32[16] @ DRAM, C: f32[16] @ DRAM):
    for i in seq(0, 16):
        B[i] = A[i]
    for i in seq(0, 16):
        C[i] = A[i]
)";

// Exo tests/test_schedules.py::test_replace_once: Exo's stdlib replace_once replaces the first
// block some instruction of the list unifies with; here that is the first loop, and the load is the
// only instruction.
TEST(ReplaceOnce, ReplaceOnce) {
  Proc bar = load_store();
  Proc q = replace(bar, "for i in _: _ #0", avx2("mm256_loadu_ps"));
  EXPECT_EQ(to_string(q), R"(def bar(src: f32[8] @ DRAM):
    dst: f32[8] @ AVX2
    mm256_loadu_ps(dst[0:8], src[0:8])
    for i in seq(0, 8):
        src[i] = dst[i]
)");
  // The second loop still reads the AVX2 buffer in plain code, as in Exo's intermediate proc;
  // the re-parse half of expect_equivalent would refuse that, so only the interpreter compares.
  EXPECT_EQ(compare_procs(bar, q, {}), "");
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(ReplaceOnce, ReplacesOnlyTheFirstBlockThatUnifies) {
  Proc p = parse_proc(kTwoCopies);
  Proc q = replace_once(p, {instr("vld")});
  const std::string text = to_string(q);
  EXPECT_EQ(text.find("vld("), text.rfind("vld(")) << q;  // one call
  EXPECT_TRUE(has(q, "vld(B[0:16], A[0:16])")) << q;
  EXPECT_TRUE(has(q, "C[i] = A[i]")) << q;
  expect_equivalent(p, q);
}

// Exo's stdlib (src/exo/stdlib/scheduling.py) provides this under the same name.
TEST(ReplaceOnce, ASubprocThatUnifiesNowhereChangesNothing) {
  Proc p = parse_proc(kTwoCopies);
  Proc q = replace_once(p, {instr("vfma")});
  EXPECT_EQ(to_string(q), to_string(p));
}

}  // namespace
