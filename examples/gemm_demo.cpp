// The main demo: parse examples/gemm.exo, check it, print it, run it in the reference
// interpreter on a small input, and check the result against a plain C++ loop.
#include <exocpp/exocpp.h>

#include <cstdio>
#include <iostream>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "examples/gemm.exo";
  try {
    exocpp::Module m = exocpp::parse_file(path);  // parses and type-checks
    exocpp::Proc gemm = m.proc("gemm");
    std::cout << "== " << path << " parsed and checked; printed back:\n\n" << gemm << "\n";

    const int64_t M = 4, N = 5, K = 3;
    std::mt19937 rng(42);
    std::uniform_int_distribution<int> small(-4, 4);
    auto random_matrix = [&](int64_t rows, int64_t cols) {
      std::vector<double> v(static_cast<size_t>(rows * cols));
      for (double& x : v) x = small(rng);
      return exocpp::Buffer::from_values(exocpp::ScalarKind::F32, {rows, cols}, v);
    };
    exocpp::Buffer A = random_matrix(M, K), B = random_matrix(K, N), C = random_matrix(M, N);
    exocpp::Buffer C_expected = C.deep_copy();

    std::vector<exocpp::ArgValue> args = {M, N, K, A, B, C};
    exocpp::interpret(gemm, args);

    // The same computation as a plain C++ loop.
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        float acc = static_cast<float>(C_expected.get({i, j}));
        for (int64_t k = 0; k < K; ++k)
          acc += static_cast<float>(A.get({i, k})) * static_cast<float>(B.get({k, j}));
        C_expected.set({i, j}, acc);
      }

    std::cout << "== interpreted gemm on M=" << M << " N=" << N << " K=" << K << ", C =\n";
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) std::printf("%7.1f", C.get({i, j}));
      std::printf("\n");
    }
    std::string diff = exocpp::compare_buffers(C, C_expected, "C");
    if (!diff.empty()) {
      std::cout << "== MISMATCH against the plain C++ loop: " << diff << "\n";
      return 1;
    }
    std::cout << "== matches the plain C++ loop (" << M * N << " elements)\n";
    return 0;
  } catch (const exocpp::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
