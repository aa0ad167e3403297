// The port of Exo's examples/avx2_matmul/x86_matmul.py (examples/exo_ports/x86_matmul.cpp): the
// scheduled kernel computes what the plain one does, calls the AVX2 instructions Exo's schedule
// puts in, and, compiled, agrees with the interpreter.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <string>

#include "x86_matmul.h"

using namespace exocpp;

namespace {

// The port is built once: every test looks at the same result of the schedule.
const exo_ports::Port& port() {
  static const exo_ports::Port p = exo_ports::x86_matmul();
  return p;
}

}  // namespace

// K = 1 is the smallest size (one rank-1 update); larger K exercise the accumulation that C_reg
// carries across iterations of k.
TEST(ExoPortX86Matmul, ScheduledComputesTheOriginalInTheInterpreter) {
  for (int64_t k : {1, 2, 7, 16})
    EXPECT_EQ(compare_procs(port().original, port().scheduled, {{"K", k}}), "")
        << "K = " << k << "\n"
        << port().scheduled;
}

// Exo's schedule ends with every access to a register in an instruction: the two kinds of loads
// (C and B rows), the broadcast of A, the FMA and the store of C.
TEST(ExoPortX86Matmul, ScheduledCallsTheAvx2Instructions) {
  std::string text = to_string(port().scheduled);
  for (const char* call :
       {"mm256_loadu_ps(", "mm256_broadcast_ss(", "mm256_fmadd_ps(", "mm256_storeu_ps("})
    EXPECT_NE(text.find(call), std::string::npos) << call << " missing in\n" << text;
}

// Exo's lift_alloc(n_lifts=2), fission(n_lifts=2) and remove_loop take A's broadcast out of
// the jo loop: one broadcast per (k, i), in front of the two FMAs that use it.
TEST(ExoPortX86Matmul, BroadcastsAOncePerRowOutsideTheJoLoop) {
  std::string text = to_string(port().scheduled);
  size_t broadcast = text.find("mm256_broadcast_ss(");
  ASSERT_NE(broadcast, std::string::npos) << text;
  EXPECT_EQ(text.find("mm256_broadcast_ss(", broadcast + 1), std::string::npos) << text;
  size_t jo = text.find("for jo in");
  ASSERT_NE(jo, std::string::npos) << text;
  EXPECT_LT(broadcast, jo) << text;
  EXPECT_EQ(text.find("for jo in", jo + 1), std::string::npos) << text;
}

// The emitted C uses _mm256_fmadd_ps, so the CPU needs FMA as well as AVX2. Inputs are small
// integers (random_args's default), whose products and sums are exact, so the single rounding
// of the hardware FMA gives the interpreter's result bit for bit.
TEST(ExoPortX86Matmul, EmittedCMatchesTheInterpreter) {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
    GTEST_SKIP() << "this CPU has no AVX2 with FMA: the emitted kernel cannot run here";
  for (int64_t k : {1, 9})
    EXPECT_EQ(compare_compiled_with_interpreter(port().scheduled, {{"K", k}}, 1), "")
        << "K = " << k;
}
