// The lane layout of hwlibs/cuda/mma_helpers.cuh (the mma.sync.m16n8k16 and ldmatrix
// instructions of mma.exo), tested on the CPU: the helpers' host half (which lane hands ldmatrix
// which row address, which accumulator element each lane loads and stores) is composed with a
// model of ldmatrix and mma.sync written from the PTX ISA's layout tables, and a warp's product
// built that way must equal what the interpreter computes from the instructions' bodies.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "cuda_test_util.h"
#include "hwlibs/cuda/mma_helpers.cuh"

namespace exocpp {
namespace {

constexpr int kLanes = 32;

// --- The PTX ISA's tables (mma.m16n8k16 with .f16 operands, "Matrix Fragments for
// mma.m16n8k16"), with groupID = lane / 4 and threadID_in_group = lane % 4. ---
struct RowCol {
  int row, col;
};
// Element i (0-7) of a lane's A fragment: a0..a7, two per 32-bit register.
RowCol ptx_a(int lane, int i) {
  const int group = lane >> 2, tig = lane % 4;
  const int row = (i < 2 || (i >= 4 && i < 6)) ? group : group + 8;
  const int col = tig * 2 + (i & 1) + (i >= 4 ? 8 : 0);
  return {row, col};
}
// Element i (0-3) of a lane's B fragment (B is K x N): b0..b3.
RowCol ptx_b(int lane, int i) {
  const int group = lane >> 2, tig = lane % 4;
  return {tig * 2 + (i & 1) + (i >= 2 ? 8 : 0), group};
}
// Element i (0-3) of a lane's C or D fragment (f32): c0..c3.
RowCol ptx_c(int lane, int i) {
  const int group = lane >> 2, tig = lane % 4;
  return {i < 2 ? group : group + 8, tig * 2 + (i & 1)};
}

// --- ldmatrix.sync.aligned.m8n8.{x2,x4}[.trans].shared.b16, as the PTX ISA describes it: matrix
// m's row r is 8 consecutive 16-bit elements at the address lane 8m + r gives; lane t receives
// in register m row t/4's elements 2(t%4) and 2(t%4)+1 of matrix m, or with .trans those of
// column t/4. Memory is an array of 16-bit cells; a register holds two cell positions. ---
using Reg = std::pair<int64_t, int64_t>;  // (low half, high half), as positions in `memory`
std::vector<std::vector<Reg>> ldmatrix(const std::vector<uint16_t>& memory, int matrices,
                                       bool trans, const std::vector<const void*>& addrs) {
  auto position = [&](int lane) {
    return (static_cast<const char*>(addrs[lane]) - reinterpret_cast<const char*>(memory.data())) /
           2;
  };
  std::vector<std::vector<Reg>> regs(kLanes, std::vector<Reg>(matrices));
  for (int t = 0; t < kLanes; ++t)
    for (int m = 0; m < matrices; ++m) {
      auto cell = [&](int r, int c) { return position(8 * m + r) + c; };
      const int a = 2 * (t % 4), b = t / 4;
      regs[t][m] = trans ? Reg{cell(a, b), cell(a + 1, b)} : Reg{cell(b, a), cell(b, a + 1)};
    }
  return regs;
}

// A 16 x `ld` f16 array (cells numbered 0, 1, ... in order) and the helper's ldmatrix addresses
// for the tile at column `col0` of it.
struct SharedTile {
  std::vector<uint16_t> memory;
  int ld, col0;
  int64_t cell(int r, int c) const { return r * ld + col0 + c; }
  const void* origin() const { return memory.data() + col0; }
};
SharedTile make_tile(int ld, int col0) {
  SharedTile t{std::vector<uint16_t>(16 * static_cast<size_t>(ld)), ld, col0};
  return t;
}

TEST(CudaMmaLayout, ThePtxTablesCoverEachFragmentElementOnce) {
  std::vector<int> a(16 * 16), b(16 * 8), c(16 * 8);
  for (int lane = 0; lane < kLanes; ++lane) {
    for (int i = 0; i < 8; ++i) ++a[ptx_a(lane, i).row * 16 + ptx_a(lane, i).col];
    for (int i = 0; i < 4; ++i) ++b[ptx_b(lane, i).row * 8 + ptx_b(lane, i).col];
    for (int i = 0; i < 4; ++i) ++c[ptx_c(lane, i).row * 8 + ptx_c(lane, i).col];
  }
  for (int n : a) EXPECT_EQ(n, 1);
  for (int n : b) EXPECT_EQ(n, 1);
  for (int n : c) EXPECT_EQ(n, 1);
}

TEST(CudaMmaLayout, LdmatrixX4AtTheHelpersAddressesGivesPtxsAFragment) {
  const SharedTile tile = make_tile(40, 8);  // row stride 40, tile at column 8
  std::vector<const void*> addrs;
  for (int lane = 0; lane < kLanes; ++lane)
    addrs.push_back(exocpp_mma_a_ldmatrix_addr(lane, tile.origin(), tile.ld));
  const auto regs = ldmatrix(tile.memory, 4, false, addrs);
  for (int lane = 0; lane < kLanes; ++lane)
    for (int r = 0; r < 4; ++r) {
      const RowCol lo = ptx_a(lane, 2 * r), hi = ptx_a(lane, 2 * r + 1);
      EXPECT_EQ(regs[lane][r].first, tile.cell(lo.row, lo.col)) << "lane " << lane << " a" << r;
      EXPECT_EQ(regs[lane][r].second, tile.cell(hi.row, hi.col)) << "lane " << lane << " a" << r;
    }
}

TEST(CudaMmaLayout, LdmatrixX2TransAtTheHelpersAddressesGivesPtxsBFragment) {
  const SharedTile tile = make_tile(24, 16);  // B's 16 x 8 tile at column 16 of a 16 x 24 array
  std::vector<const void*> addrs;
  for (int lane = 0; lane < kLanes; ++lane)
    addrs.push_back(exocpp_mma_b_ldmatrix_addr(lane, tile.origin(), tile.ld));
  const auto regs = ldmatrix(tile.memory, 2, true, addrs);
  for (int lane = 0; lane < kLanes; ++lane)
    for (int r = 0; r < 2; ++r) {
      const RowCol lo = ptx_b(lane, 2 * r), hi = ptx_b(lane, 2 * r + 1);
      EXPECT_EQ(regs[lane][r].first, tile.cell(lo.row, lo.col)) << "lane " << lane << " b" << r;
      EXPECT_EQ(regs[lane][r].second, tile.cell(hi.row, hi.col)) << "lane " << lane << " b" << r;
    }
}

TEST(CudaMmaLayout, AccumulatorLoadsAndStoresFollowPtxsCLayout) {
  const int ld = 12;
  std::vector<float> src(16 * ld), dst(16 * ld, -1.0f);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  for (int lane = 0; lane < kLanes; ++lane) {
    float c[4];
    exocpp_mma_load_acc_lane(lane, c, src.data(), ld);
    for (int r = 0; r < 4; ++r)
      EXPECT_EQ(c[r], src[ptx_c(lane, r).row * ld + ptx_c(lane, r).col]) << "lane " << lane;
    exocpp_mma_store_acc_lane(lane, dst.data(), ld, c);
  }
  // The warp's stores wrote the 16 x 8 window back, and nothing beside it.
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < ld; ++j) EXPECT_EQ(dst[i * ld + j], j < 8 ? src[i * ld + j] : -1.0f);
}

// One warp: A and B from shared memory by ldmatrix, C loaded, D = C + A B by mma.sync (the PTX
// tables say which lane holds what), D stored. The interpreter runs the same instructions'
// bodies; with small integers every sum is exact, so the two agree exactly.
TEST(CudaMmaLayout, AWarpsProductThroughTheLayoutsEqualsTheInstructionsBodies) {
  const Proc p = cuda_test::parse_cuda(R"(
def warp_mma(A: f16[16, 40] @ CUDA_SHARED, B: f16[16, 24] @ CUDA_SHARED, C: f32[16, 8] @ CUDA_GLOBAL, D: f32[16, 8] @ CUDA_GLOBAL):
    for bx in cuda_blocks(0, 1):
        for w in cuda_warps(0, 1):
            a: f16[16, 16] @ MMA_A
            b: f16[16, 8] @ MMA_B
            c: f32[16, 8] @ MMA_ACC
            mma_ldmatrix_a(a, A[:, 8:24])
            mma_ldmatrix_b(b, B[:, 16:24])
            mma_load_acc(c, C)
            mma_m16n8k16(c, a, b)
            mma_store_acc(D, c)
)",
                                       "warp_mma");
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> small(-4, 4);
  SharedTile ta = make_tile(40, 8), tb = make_tile(24, 16);
  std::vector<double> a_vals(ta.memory.size()), b_vals(tb.memory.size()), c_vals(16 * 8);
  for (double& v : a_vals) v = small(rng);
  for (double& v : b_vals) v = small(rng);
  for (double& v : c_vals) v = small(rng);

  // The warp, as the emitted code and the hardware compute it.
  std::vector<const void*> a_addrs, b_addrs;
  for (int lane = 0; lane < kLanes; ++lane) {
    a_addrs.push_back(exocpp_mma_a_ldmatrix_addr(lane, ta.origin(), ta.ld));
    b_addrs.push_back(exocpp_mma_b_ldmatrix_addr(lane, tb.origin(), tb.ld));
  }
  const auto a_regs = ldmatrix(ta.memory, 4, false, a_addrs);
  const auto b_regs = ldmatrix(tb.memory, 2, true, b_addrs);
  std::vector<float> c_mem(c_vals.begin(), c_vals.end()), d_mem(16 * 8, 0.0f);
  std::vector<std::vector<float>> c_regs(kLanes, std::vector<float>(4));
  for (int lane = 0; lane < kLanes; ++lane)
    exocpp_mma_load_acc_lane(lane, c_regs[lane].data(), c_mem.data(), 8);
  // mma.sync: gather the matrices from the lanes by the PTX tables, multiply, scatter D.
  double am[16][16], bm[16][8], cm[16][8];
  for (int lane = 0; lane < kLanes; ++lane) {
    for (int i = 0; i < 8; ++i) {
      const Reg& reg = a_regs[lane][i / 2];
      am[ptx_a(lane, i).row][ptx_a(lane, i).col] = a_vals[i % 2 ? reg.second : reg.first];
    }
    for (int i = 0; i < 4; ++i) {
      const Reg& reg = b_regs[lane][i / 2];
      bm[ptx_b(lane, i).row][ptx_b(lane, i).col] = b_vals[i % 2 ? reg.second : reg.first];
      cm[ptx_c(lane, i).row][ptx_c(lane, i).col] = c_regs[lane][i];
    }
  }
  for (int lane = 0; lane < kLanes; ++lane) {
    float d[4];
    for (int i = 0; i < 4; ++i) {
      const RowCol e = ptx_c(lane, i);
      double sum = cm[e.row][e.col];
      for (int k = 0; k < 16; ++k) sum += am[e.row][k] * bm[k][e.col];
      d[i] = static_cast<float>(sum);
    }
    exocpp_mma_store_acc_lane(lane, d_mem.data(), 8, d);
  }

  // The interpreter, on the same values.
  std::vector<ArgValue> args = {Buffer::from_values(ScalarKind::F16, {16, 40}, a_vals),
                                Buffer::from_values(ScalarKind::F16, {16, 24}, b_vals),
                                Buffer::from_values(ScalarKind::F32, {16, 8}, c_vals),
                                Buffer(ScalarKind::F32, {16, 8})};
  interpret(p, args);
  const Buffer& d = std::get<Buffer>(args[3]);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(d.get({i, j}), d_mem[i * 8 + j]) << "D[" << i << ", " << j << "]";
}

}  // namespace
}  // namespace exocpp
