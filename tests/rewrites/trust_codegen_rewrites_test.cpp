// The scheduling side of emitted-C trust: make_instr refuses a template codegen could not emit
// (the same check as the parser's), and parallelize_loop refuses a loop whose iterations would
// share one static allocation (the same predicate codegen uses).
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

namespace exocpp {
namespace {

Proc proc_of(const std::string& src, const std::string& name) {
  return parse_module(src).proc(name);
}

TEST(TrustMakeInstr, BadTemplatesAreRefusedWithTheParsersReason) {
  Proc p = proc_of("def ins(n: size, x: [f32][4] @ DRAM):\n    x[0] = 1.0\n", "ins");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{nonexistent} {x_data}", "the template hole {nonexistent} names no argument of 'ins'"},
      {"{x_data} = 0; {", "is never closed"},
      {"{x_data} = 0; }", "an unmatched '}'"},
      {"{n_data} = 0;", "which is a control value"},
  };
  for (const auto& [tmpl, phrase] : cases) {
    try {
      make_instr(p, tmpl);
      ADD_FAILURE() << tmpl << " accepted";
    } catch (const SchedulingError& e) {
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("make_instr"), std::string::npos) << e.what();
    }
  }
}

TEST(TrustMakeInstr, GoodTemplateIsAcceptedAndEquivalent) {
  Proc p = proc_of("def ins(n: size, x: [f32][4] @ DRAM):\n    x[0] = 1.0\n", "ins");
  Proc q = make_instr(p, "{ (&{x_data})[0] = 1.0f; (void){n}; }");
  EXPECT_TRUE(q.is_instr());
  for (int64_t n : {1, 4}) EXPECT_EQ(compare_procs(p, q, {{"n", n}}), "");
}

const char* kStaticInLoop =
    "def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):\n"
    "    for i in seq(0, N):\n"
    "        t: f32[64] @ DRAM_STATIC\n"
    "        for k in seq(0, 64):\n"
    "            t[k] = x[i]\n"
    "        y[i] = 0.0\n"
    "        for k in seq(0, 64):\n"
    "            y[i] += t[k]\n";

TEST(TrustParallelize, LoopAllocatingInStaticStorageIsRefused) {
  // redteam 15_parallelize_static_alloc
  Proc p = proc_of(kStaticInLoop, "f");
  try {
    parallelize_loop(p, "i");
    FAIL() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find("allocates 't' (DRAM_STATIC) in static storage"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(":3:"), std::string::npos) << e.what();
  }
}

TEST(TrustParallelize, LoopCallingAProcWithAStaticAllocationIsRefused) {
  Module m = parse_module(
      "def g(x: f32[4] @ DRAM):\n"
      "    t: f32[4] @ DRAM_STATIC\n"
      "    for k in seq(0, 4):\n"
      "        t[k] = x[k]\n"
      "    for k in seq(0, 4):\n"
      "        x[k] = t[3 - k]\n"
      "\n"
      "def f(N: size, x: f32[N, 4] @ DRAM):\n"
      "    for i in seq(0, N):\n"
      "        g(x[i, 0:4])\n");
  try {
    parallelize_loop(m.proc("f"), "i");
    FAIL() << "accepted";
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find("in proc 'g'"), std::string::npos) << e.what();
  }
}

TEST(TrustParallelize, AfterMovingTheBufferToTheStackTheLoopParallelizes) {
  Proc p = proc_of(kStaticInLoop, "f");
  Proc q = parallelize_loop(set_memory(p, "t", "DRAM_STACK"), "i");
  for (int64_t n : {1, 5}) {
    EXPECT_EQ(compare_procs(p, q, {{"N", n}}), "");
    EXPECT_EQ(compare_compiled_with_interpreter(q, {{"N", n}}, 1), "");
  }
}

}  // namespace
}  // namespace exocpp
