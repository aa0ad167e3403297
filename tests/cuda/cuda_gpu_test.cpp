// The CUDA GEMM stages on a real GPU: emitted, built with nvcc together with a small host program,
// run on random inputs, and compared element for element with the interpreter. The inputs are
// small integers, so every sum is exact in f32 whatever order a tensor core adds in. Skipped,
// saying so, on a machine without a CUDA GPU (CI has none; the `device` machines do).
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "cuda_gemm_schedule.h"
#include "cuda_test_util.h"

namespace exocpp {
namespace {

// Reads M, N, K and A, B, C (as floats) from argv[2], runs gemm stage argv[1] on the GPU, writes C
// to argv[3]. STAGE stands for the one stage the file holds.
const char* kHostProgram = R"(#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <vector>
#include "cuda_gemm.h"
int main(int argc, char **argv) {
  if (argc != 4) return 2;
  FILE *in = std::fopen(argv[2], "rb");
  if (!in) return 3;
  long long mnk[3];
  if (std::fread(mnk, sizeof mnk, 1, in) != 1) return 3;
  const long long M = mnk[0], N = mnk[1], K = mnk[2];
  std::vector<float> a(M * K), b(K * N), c(M * N);
  if (std::fread(a.data(), 4, a.size(), in) != a.size() || std::fread(b.data(), 4, b.size(), in) != b.size() ||
      std::fread(c.data(), 4, c.size(), in) != c.size()) return 3;
  std::fclose(in);
  std::vector<exo_f16> ha(a.size()), hb(b.size());
  for (size_t i = 0; i < a.size(); ++i) ha[i] = __float2half(a[i]);
  for (size_t i = 0; i < b.size(); ++i) hb[i] = __float2half(b[i]);
  exo_f16 *da, *db;
  float *dc;
  cudaMalloc(&da, ha.size() * sizeof(exo_f16));
  cudaMalloc(&db, hb.size() * sizeof(exo_f16));
  cudaMalloc(&dc, c.size() * sizeof(float));
  cudaMemcpy(da, ha.data(), ha.size() * sizeof(exo_f16), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), hb.size() * sizeof(exo_f16), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice);
  if (std::strcmp(argv[1], "STAGE") == 0) STAGE(nullptr, M, N, K, da, db, dc);
  else return 4;
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) { std::fprintf(stderr, "%s\n", cudaGetErrorString(err)); return 5; }
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  FILE *out = std::fopen(argv[3], "wb");
  if (!out || std::fwrite(c.data(), 4, c.size(), out) != c.size()) return 6;
  std::fclose(out);
  return 0;
}
)";

class CudaGpu : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaGpu, TheStageComputesWhatTheInterpreterComputes) {
  // The program is built everywhere (for sm_80 without a GPU), so that it stays buildable.
  cuda_test::TempDir dir;
  // Only this stage, so that nvcc builds one kernel per test.
  const std::string stage = GetParam();
  emit_cuda({cuda_gemm_example::stage(stage)}, "cuda_gemm", dir.path());
  std::string host = kHostProgram;
  for (size_t at = host.find("STAGE"); at != std::string::npos; at = host.find("STAGE", at))
    host.replace(at, 5, stage);
  std::ofstream(dir.path() + "/main.cu") << host;
  cuda_test::CommandResult build =
      cuda_test::nvcc_build_program(dir.path(), "main.cu cuda_gemm.cu", "gemm", "-fmad=false -O2");
  ASSERT_EQ(build.status, 0) << build.output;
  if (!cuda_test::gpu_present()) GTEST_SKIP() << cuda_test::kNoGpu;

  const Proc plain = cuda_gemm_example::plain_gemm();
  const std::map<std::string, int64_t> sizes = {{"M", 128}, {"N", 256}, {"K", 96}};
  std::vector<ArgValue> args = random_args(plain, sizes, 7);  // (M, N, K, A, B, C)
  {
    std::ofstream in(dir.path() + "/in.bin", std::ios::binary);
    const long long mnk[3] = {128, 256, 96};
    in.write(reinterpret_cast<const char*>(mnk), sizeof mnk);
    for (int k = 3; k < 6; ++k) {
      const Buffer& b = std::get<Buffer>(args[static_cast<size_t>(k)]);
      for (int64_t i = 0; i < b.num_elements(); ++i) {
        float v = static_cast<float>(b.flat(i));
        in.write(reinterpret_cast<const char*>(&v), sizeof v);
      }
    }
  }
  cuda_test::CommandResult run =
      cuda_test::run_command("cd '" + dir.path() + "' && ./gemm " + GetParam() + " in.bin out.bin");
  ASSERT_EQ(run.status, 0) << run.output;
  interpret(plain, args);
  const Buffer& c = std::get<Buffer>(args[5]);
  std::ifstream out(dir.path() + "/out.bin", std::ios::binary);
  for (int64_t i = 0; i < c.num_elements(); ++i) {
    float v = 0;
    out.read(reinterpret_cast<char*>(&v), sizeof v);
    ASSERT_TRUE(out.good());
    ASSERT_EQ(v, static_cast<float>(c.flat(i))) << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Stages, CudaGpu,
                         ::testing::Values("gemm_naive", "gemm_smem_tiled", "gemm_wmma",
                                           "gemm_wmma_smem", "gemm_wmma_async", "gemm_mma",
                                           "gemm_mma_pipelined", "gemm_wmma_large",
                                           "gemm_mma_large"));

}  // namespace
}  // namespace exocpp
