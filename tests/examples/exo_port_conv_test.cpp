// Exo's apps/x86/conv/conv.py ported line by line (examples/exo_ports/conv.h): the scheduled
// convolution computes what the plain one does, calls the AVX-512 instructions Exo's schedule
// replaces into, and its emitted C agrees with the interpreter on a machine with AVX-512.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "conv.h"

using namespace exocpp;

namespace {

// The loops of a printed proc in order, each as its variable and nesting depth ("oy@2").
std::vector<std::string> loop_nest(const std::string& text) {
  std::vector<std::string> loops;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos || line.compare(indent, 4, "for ") != 0) continue;
    size_t name_end = line.find(' ', indent + 4);
    // The proc's body is indented by 4 spaces, each level by 4 more.
    loops.push_back(line.substr(indent + 4, name_end - indent - 4) + "@" +
                    std::to_string(indent / 4 - 1));
  }
  return loops;
}

// The schedule runs once for the whole suite: every step is checked (and, under
// EXOCPP_VALIDATE, run in the interpreter), which is the slow part.
const exo_ports::Port& port() {
  static const exo_ports::Port p = exo_ports::conv();
  return p;
}

}  // namespace

TEST(ExoPortConv, ScheduledComputesWhatTheOriginalComputes) {
  // The original runs with the sizes the scheduled proc was specialized to; its size arguments
  // are the ones the scheduled proc lacks, so only the buffers are compared.
  EXPECT_EQ(compare_procs(port().original, port().scheduled, exo_ports::conv_sizes()), "")
      << port().scheduled;
}

TEST(ExoPortConv, ScheduledCallsTheInstructionsTheExoScheduleReplacesInto) {
  std::string text = to_string(port().scheduled);
  for (const char* call : {"mm512_loadu_ps(", "mm512_storeu_ps(", "mm512_relu_ps(",
                           "mm512_set1_ps(", "mm512_fmadd_ps("})
    EXPECT_NE(text.find(call), std::string::npos) << call << " missing in\n" << text;
  // Every 16-lane loop became an instruction: none is left over the lanes.
  EXPECT_EQ(text.find("for oc_v in"), std::string::npos) << text;
  for (const char* reg : {"res: f32[5, 4, 16] @ AVX512", "relu_v: f32[16] @ AVX512",
                          "wt_vec: f32[16] @ AVX512", "in_vec: f32[16] @ AVX512"})
    EXPECT_NE(text.find(reg), std::string::npos) << reg << " missing in\n" << text;
}

// Exo's golden C for this app (tests/golden/test_apps/test_x86_conv.txt) nests its loops so: a
// tile of 5 x 64 outputs loaded from the bias, accumulated over the kernel window and input
// channels, then stored through the ReLU. The port gives the same nest (with smaller trip counts).
TEST(ExoPortConv, ScheduledLoopNestIsTheOneOfExosGolden) {
  std::vector<std::string> expected = {"oc_o@0", "n@1",    "oy@2",   "ox_o@3", "ox_i@4",
                                       "oc_u@5", "ky@4",   "kx@5",   "kc_o@6", "kc_i@7",
                                       "ox_i@8", "oc_u@9", "ox_i@4", "oc_u@5"};
  EXPECT_EQ(loop_nest(to_string(port().scheduled)), expected) << port().scheduled;
}

TEST(ExoPortConv, EmittedCMatchesTheInterpreter) {
  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "this CPU has no AVX-512F";
  // Integer-valued inputs: the hardware's fused multiply-add rounds as the interpreter's
  // separate multiply and add do (hwlibs/x86/README.md).
  EXPECT_EQ(compare_compiled_with_interpreter(port().scheduled, {}, 1), "");
}
