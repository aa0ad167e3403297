// The race rule on random kernels, against the thread-major oracle (thread_order.h): a block of
// up to 32 threads runs a few lane loops (random shapes) that move data between a global row,
// a shared array and an output row through random index maps (injective or not), with or
// without barriers between them and around a block-level seq loop. Whenever the rule accepts a
// kernel, the thread-major orders must compute what the interpreter computes. Each seed is one
// kernel; EXOCPP_RACE_FUZZ_SEEDS=n runs more.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "cuda_test_util.h"
#include "thread_order.h"

namespace exocpp {
namespace {

class KernelGen {
 public:
  explicit KernelGen(uint64_t seed) : rng_(seed) {}

  std::string kernel() {
    std::string out =
        "def p(N: size, K: size, A: f32[N, 32] @ CUDA_GLOBAL, X: f32[N, 32] @ CUDA_GLOBAL):\n"
        "    for b in cuda_blocks(0, N):\n"
        "        s: f32[32] @ CUDA_SHARED\n"
        "        for t in cuda_threads(0, 32):\n"  // every element defined (no NaN reads)
        "            s[t] = A[b, t] + 1.0\n"
        "        cuda_syncthreads()\n";
    const bool looped = pick(3) == 0;
    std::string ind = looped ? "            " : "        ";
    if (looped) out += "        for k in seq(0, K):\n";
    const int segments = 2 + pick(3);
    for (int g = 0; g < segments; ++g) {
      out += segment(ind);
      if (pick(3) != 0) out += ind + "cuda_syncthreads()\n";
    }
    return out;
  }

 private:
  std::mt19937_64 rng_;
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }

  // An index in [0, 32) from the lane value `v` (in [0, 32)).
  std::string index(const std::string& v) {
    const std::string c = std::to_string(pick(32));
    switch (pick(7)) {
      case 0:
      case 1:
        return v;
      case 2:
        return "31 - (" + v + ")";
      case 3:
        return "(" + v + " + " + c + ") % 32";
      case 4:
        return "(" + v + ") / 2";
      case 5:
        return "(3 * (" + v + ")) % 32";
      default:
        return c;
    }
  }

  std::string segment(const std::string& ind) {
    std::string out, v, inner = ind;
    if (pick(2) == 0) {
      const int e = 8 << pick(3);  // 8, 16, 32 threads
      out += ind + "for t in cuda_threads(0, " + std::to_string(e) + "):\n";
      v = "t";
      inner += "    ";
    } else {
      const int t1 = 2 << pick(2), t2 = 4 << pick(2);  // up to 8 x 16, capped to 32 below
      const int u = std::min(t2, 32 / t1);
      out += ind + "for t in cuda_threads(0, " + std::to_string(t1) + "):\n";
      out += ind + "    for u in cuda_threads(0, " + std::to_string(u) + "):\n";
      v = std::to_string(u) + " * t + u";
      inner += "        ";
    }
    // Mostly one map for the segment's shared accesses (each thread keeps to its elements),
    // sometimes another: the kernels the rule accepts and those it refuses both come up.
    const std::string mine = index(v);
    auto shared_index = [&] { return pick(3) == 0 ? index(v) : mine; };
    const int stmts = 1 + pick(2);
    for (int k = 0; k < stmts; ++k) {
      const char* op = pick(3) == 0 ? " += " : " = ";
      switch (pick(3)) {
        case 0:
          out += inner + "s[" + shared_index() + "]" + op + "A[b, " + index(v) + "]\n";
          break;
        case 1:
          out += inner + "X[b, " + v + "]" + op + "s[" + shared_index() + "]\n";
          break;
        default:
          out += inner + "s[" + shared_index() + "]" + op + "s[" + shared_index() + "] * 2.0\n";
          break;
      }
    }
    return out;
  }
};

bool accepted(const Proc& p) { return cuda_test::emission_error(p).empty(); }

TEST(CudaRaceFuzz, EveryAcceptedKernelAgreesWithTheThreadMajorOrders) {
  int seeds = 150;
  if (const char* n = std::getenv("EXOCPP_RACE_FUZZ_SEEDS")) seeds = std::atoi(n);
  int accepted_count = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    KernelGen gen(static_cast<uint64_t>(seed));
    std::string src = gen.kernel();
    Proc p = cuda_test::parse_cuda(src, "p");
    if (!accepted(p)) continue;
    ++accepted_count;
    const std::map<std::string, int64_t> sizes = {{"N", 2}, {"K", 2}};
    ASSERT_EQ(compare_procs(p, cuda_test::thread_major(p, false), sizes), "")
        << "seed " << seed << "\n"
        << src;
    ASSERT_EQ(compare_procs(p, cuda_test::thread_major(p, true), sizes), "")
        << "seed " << seed << "\n"
        << src;
  }
  // The generator must give the rule both kinds of kernel, or the test checks nothing.
  EXPECT_GT(accepted_count, seeds / 10);
  EXPECT_LT(accepted_count, seeds);
  std::cout << "race fuzz: " << accepted_count << " of " << seeds << " kernels accepted\n";
}

// The same kernels after `fission` splits a two-statement lane loop in two: both loops bind one
// iterator, which the rule must not take for one loop. Every fission the operation accepts (it
// proves the changed kernel race free) must leave a kernel that agrees with the oracle.
TEST(CudaRaceFuzz, KernelsSplitByFissionAgreeWithTheThreadMajorOrders) {
  int seeds = 150;
  if (const char* n = std::getenv("EXOCPP_RACE_FUZZ_SEEDS")) seeds = std::atoi(n);
  int split = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    KernelGen gen(static_cast<uint64_t>(seed));
    std::string src = gen.kernel();
    Proc p = cuda_test::parse_cuda(src, "p");
    if (!accepted(p)) continue;
    for (const Cursor& loop : p.find_all("for t in _: _")) {
      const ForNode* f = loop.stmt().as<ForNode>();
      if (f == nullptr || f->body.size() != 2) continue;
      Proc q;
      try {
        q = fission(p, p.forward(loop).body()[1].before());
      } catch (const SchedulingError&) {
        continue;  // refused: the split kernel would race
      }
      ++split;
      const std::map<std::string, int64_t> sizes = {{"N", 2}, {"K", 2}};
      ASSERT_EQ(compare_procs(p, cuda_test::thread_major(q, false), sizes), "")
          << "seed " << seed << "\n"
          << q;
      ASSERT_EQ(compare_procs(p, cuda_test::thread_major(q, true), sizes), "")
          << "seed " << seed << "\n"
          << q;
      break;
    }
  }
  EXPECT_GT(split, 0);  // some fission was accepted, or the test checks nothing
  std::cout << "race fuzz (fission): " << split << " split kernels accepted\n";
}

}  // namespace
}  // namespace exocpp
