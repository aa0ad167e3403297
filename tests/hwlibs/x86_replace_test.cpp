// Every x86 instruction can be introduced by `replace`: the plain loop that is its body (inside
// a proc that loads and stores its register operands) becomes a call to it, and the result
// computes what the plain proc did (reference interpreter, random inputs). Plus the library's
// instructions in scheduled kernels, and the refusals a user meets.
#include <gtest/gtest.h>

#include "x86_harness.h"

namespace exocpp {
namespace {

// Every instruction but prefetch, whose body (`pass`) determines none of its arguments (a
// prefetch enters a schedule by insert_noop_call: x86_schedule_test.cpp).
std::vector<std::string> replaceable() {
  std::vector<std::string> out;
  for (const std::string& n : x86::instruction_names())
    if (x86_test::meaning_of(n).op != "prefetch") out.push_back(n);
  return out;
}

class X86Replace : public ::testing::TestWithParam<std::string> {};

TEST_P(X86Replace, PlainLoopBecomesTheInstruction) {
  const Proc& instr = x86::InstrRef(GetParam().c_str()).get();
  x86_test::Wrapped w = x86_test::wrap(instr);
  Proc q = replace(w.plain, "for i in _: _", instr);
  // The loop is gone: what is left type-checks (no plain code touches a register) ...
  EXPECT_NO_THROW(typecheck(q)) << q;
  std::string text = to_string(q);
  EXPECT_EQ(text.find("for i in"), std::string::npos) << text;
  EXPECT_NE(text.find("    " + instr.name() + "("), std::string::npos) << text;
  // ... and computes what the plain proc did, for every lane count.
  for (const auto& sizes : x86_test::size_cases(instr))
    EXPECT_EQ(compare_procs(w.plain, q, sizes, 1, {.trials = 2}), "") << q;
}

INSTANTIATE_TEST_SUITE_P(AllInstructions, X86Replace, ::testing::ValuesIn(replaceable()),
                         [](const auto& info) { return info.param; });

// replace solves the call from the plain loop: the result matches the wrapper that calls the
// instruction directly.
TEST(X86ReplaceKernels, ReplacedCallMatchesTheDirectCall) {
  x86_test::Wrapped w = x86_test::wrap(x86::mm512_mask_fmadd_ps_broadcast);
  Proc q = replace(w.plain, "for i in _: _", x86::mm512_mask_fmadd_ps_broadcast);
  EXPECT_EQ(compare_procs(w.wrapper, q, {{"N", 5}}), "");
}

TEST(X86ReplaceKernels, PrefetchHasNoBodyToUnify) {
  x86::register_memories();
  ParseOptions opts;
  opts.procs = x86::library().procs;
  Proc p = parse_module(R"(
def k(x: f32[16] @ DRAM):
    pass
)",
                        opts)
               .proc("k");
  SchedulingError e = x86_test::refusal(p, "pass", x86::mm_prefetch_ps);
  EXPECT_EQ(e.op(), "replace");
  EXPECT_EQ(e.reason(),
            "the block does not unify with the body of 'mm_prefetch_ps': cannot determine the "
            "argument 'src' of 'mm_prefetch_ps': 'mm_prefetch_ps' never accesses it");
}

}  // namespace
}  // namespace exocpp
