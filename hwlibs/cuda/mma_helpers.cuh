// The device functions behind hwlibs/cuda/mma.exo: the tensor-core product
// mma.sync.aligned.m16n8k16 (f16 in, f32 accumulate) on fragments that ldmatrix loads from shared
// memory, plain or XOR-swizzled (CUDA_SHARED_SWIZZLED). exocpp puts this text into every .cu
// whose code uses an MMA_A, MMA_B or MMA_ACC fragment or a swizzled array; it is also valid host
// C++, so the lane layout and the swizzle below are tested on the CPU against the layout tables
// of the PTX ISA (tests/cuda/cuda_mma_layout_test.cpp, cuda_swizzle_test.cpp).
//
// A warp holds one fragment across its 32 lanes. With g = lane / 4 and t = lane % 4 (PTX's
// groupID and threadID_in_group), lane `lane` holds, as registers:
//   MMA_A   (16 x 16 f16, row-major A)  a[0] = A[g][2t..2t+1]      a[1] = A[g+8][2t..2t+1]
//                                       a[2] = A[g][2t+8..2t+9]    a[3] = A[g+8][2t+8..2t+9]
//   MMA_B   (16 x 8 f16, B as K x N)    b[0] = B[2t..2t+1][g]      b[1] = B[2t+8..2t+9][g]
//   MMA_ACC (16 x 8 f32)                c[0..1] = C[g][2t..2t+1]   c[2..3] = C[g+8][2t..2t+1]
// (two f16 per 32-bit register, the lower-numbered element in the low half).
//
// ldmatrix.x4 builds the A fragment from four 8 x 8 matrices, each row's address given by one
// lane: lanes 0-7 the rows of A's top-left quarter, 8-15 bottom-left, 16-23 top-right, 24-31
// bottom-right. ldmatrix.x2.trans builds the B fragment from B's two 8 x 8 halves (k 0-7, k 8-15),
// lanes 0-15 giving the addresses of B's 16 rows, which it delivers transposed.
//
// CUDA_SHARED_SWIZZLED stores the element of row-major index L of an f16 array at index
// exocpp_swizzle128(L) = L ^ (f(L / 64) << 3), f(h) = (h ^ (h >> 3)) & 7: within each 128-byte
// line h (64 elements) the 16-byte chunk q moves to chunk q ^ f(h). Runs of 8 elements that
// start at a multiple of 8 stay whole and in order, so a 16-byte copy or an ldmatrix row address
// needs only the run's first element. And the 8 rows one ldmatrix phase reads (rows 8r..8r+7 of
// a tile, at one column) land in 8 different chunks of the banks' 128 bytes for rows of 32, 64
// or 128 elements: two rows a line, a row a line (f = h % 8 within 8 lines), or a row every
// other line (the h >> 3 term tells the two halves of the 8 rows apart).
#ifndef EXOCPP_MMA_HELPERS
#define EXOCPP_MMA_HELPERS

#ifdef __CUDACC__
#define EXOCPP_MMA_HD __host__ __device__ __forceinline__
#else
#define EXOCPP_MMA_HD static inline
#endif

// The element (row, column) of a 16 x 16 A tile whose address lane `lane` hands ldmatrix.x4.
EXOCPP_MMA_HD int exocpp_mma_a_ldmatrix_row(int lane) { return lane % 16; }
EXOCPP_MMA_HD int exocpp_mma_a_ldmatrix_col(int lane) { return lane / 16 * 8; }
// The row of a 16 x 8 B tile (column 0) whose address lane `lane` hands ldmatrix.x2.trans; lanes
// 16-31 repeat lanes 0-15 (ldmatrix.x2 ignores them, but their addresses stay valid).
EXOCPP_MMA_HD int exocpp_mma_b_ldmatrix_row(int lane) { return lane % 16; }
// Where CUDA_SHARED_SWIZZLED stores the element of row-major index `index`.
EXOCPP_MMA_HD long exocpp_swizzle128(long index) {
  return index ^ ((((index >> 6) ^ (index >> 9)) & 7) << 3);
}
// The element of the 16 x 8 accumulator that register r (0-3) of lane `lane` holds.
EXOCPP_MMA_HD int exocpp_mma_acc_row(int lane, int r) { return lane / 4 + r / 2 * 8; }
EXOCPP_MMA_HD int exocpp_mma_acc_col(int lane, int r) { return lane % 4 * 2 + r % 2; }

// Lane `lane`'s share of an accumulator load from, and store to, a row-major 16 x 8 f32 window
// with row stride `ld`.
EXOCPP_MMA_HD void exocpp_mma_load_acc_lane(int lane, float c[4], const float* src, long ld) {
  for (int r = 0; r < 4; ++r)
    c[r] = src[exocpp_mma_acc_row(lane, r) * ld + exocpp_mma_acc_col(lane, r)];
}
EXOCPP_MMA_HD void exocpp_mma_store_acc_lane(int lane, float* dst, long ld, const float c[4]) {
  for (int r = 0; r < 4; ++r)
    dst[exocpp_mma_acc_row(lane, r) * ld + exocpp_mma_acc_col(lane, r)] = c[r];
}
// The address lane `lane` hands ldmatrix for an A (16 x 16) or B (16 x 8) f16 tile at `tile`
// with row stride `ld` elements.
EXOCPP_MMA_HD const void* exocpp_mma_a_ldmatrix_addr(int lane, const void* tile, long ld) {
  return (const char*)tile +
         2 * (exocpp_mma_a_ldmatrix_row(lane) * ld + exocpp_mma_a_ldmatrix_col(lane));
}
EXOCPP_MMA_HD const void* exocpp_mma_b_ldmatrix_addr(int lane, const void* tile, long ld) {
  return (const char*)tile + 2 * (exocpp_mma_b_ldmatrix_row(lane) * ld);
}
// The same for a tile of a swizzled array at `base` whose first element has row-major index
// `offset` (row stride `ld`): the swizzled index of the element lane `lane` addresses.
EXOCPP_MMA_HD long exocpp_mma_a_ldmatrix_swizzled(int lane, long offset, long ld) {
  return exocpp_swizzle128(offset + exocpp_mma_a_ldmatrix_row(lane) * ld +
                           exocpp_mma_a_ldmatrix_col(lane));
}
EXOCPP_MMA_HD long exocpp_mma_b_ldmatrix_swizzled(int lane, long offset, long ld) {
  return exocpp_swizzle128(offset + exocpp_mma_b_ldmatrix_row(lane) * ld);
}

#ifdef __CUDACC__
__device__ __forceinline__ int exocpp_mma_lane() { return (int)(threadIdx.x % 32); }

__device__ __forceinline__ void exocpp_mma_zero_acc(float c[4]) {
  for (int r = 0; r < 4; ++r) c[r] = 0.0f;
}
__device__ __forceinline__ void exocpp_mma_load_acc(float c[4], const float* src, long ld) {
  exocpp_mma_load_acc_lane(exocpp_mma_lane(), c, src, ld);
}
__device__ __forceinline__ void exocpp_mma_store_acc(float* dst, long ld, const float c[4]) {
  exocpp_mma_store_acc_lane(exocpp_mma_lane(), dst, ld, c);
}
// ldmatrix with this lane's row address `row`. The "memory" clobbers keep the shared-memory reads
// after the barriers that order them.
__device__ __forceinline__ void exocpp_ldmatrix_x4(unsigned a[4], const void* row) {
  const unsigned addr = (unsigned)__cvta_generic_to_shared(row);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(addr)
               : "memory");
}
__device__ __forceinline__ void exocpp_ldmatrix_x2_trans(unsigned b[2], const void* row) {
  const unsigned addr = (unsigned)__cvta_generic_to_shared(row);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(b[0]), "=r"(b[1])
               : "r"(addr)
               : "memory");
}
__device__ __forceinline__ void exocpp_mma_ldmatrix_a(unsigned a[4], const void* tile, long ld) {
  exocpp_ldmatrix_x4(a, exocpp_mma_a_ldmatrix_addr(exocpp_mma_lane(), tile, ld));
}
__device__ __forceinline__ void exocpp_mma_ldmatrix_b(unsigned b[2], const void* tile, long ld) {
  exocpp_ldmatrix_x2_trans(b, exocpp_mma_b_ldmatrix_addr(exocpp_mma_lane(), tile, ld));
}
// `base`: the swizzled f16 array (2 bytes an element).
__device__ __forceinline__ void exocpp_mma_ldmatrix_a_swizzled(unsigned a[4], const void* base,
                                                               long offset, long ld) {
  exocpp_ldmatrix_x4(
      a, (const char*)base + 2 * exocpp_mma_a_ldmatrix_swizzled(exocpp_mma_lane(), offset, ld));
}
__device__ __forceinline__ void exocpp_mma_ldmatrix_b_swizzled(unsigned b[2], const void* base,
                                                               long offset, long ld) {
  exocpp_ldmatrix_x2_trans(
      b, (const char*)base + 2 * exocpp_mma_b_ldmatrix_swizzled(exocpp_mma_lane(), offset, ld));
}
__device__ __forceinline__ void exocpp_mma_m16n8k16(float c[4], const unsigned a[4],
                                                    const unsigned b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif  // __CUDACC__

#endif  // EXOCPP_MMA_HELPERS
