// Positive tests of the parser: the IR built for each construct of the procedure language.
#include <gtest/gtest.h>

#include "core/parser.h"

using namespace exocpp;

TEST(Parser, Smoke) {
  Module m = parse_module(R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    assert N >= 1
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)");
  ASSERT_EQ(m.procs.size(), 1u);
}

// Until core/printer.cpp lands, core/externs.cpp's use of to_string(Type) needs a definition.
// Weak, so the printer's real one replaces it without a link error. Remove once merged.
namespace exocpp {
[[gnu::weak]] std::string to_string(const Type& t) { return to_string(t.base); }
}  // namespace exocpp
