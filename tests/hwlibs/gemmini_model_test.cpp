// The C functional model of the Gemmini-like accelerator (hwlibs/gemmini/gemmini_model.c):
// data movement, scaling and rounding, the weight-stationary execute, allocation, the counters
// and cycle model, and the aborts on violated limits.
#include "gemmini_model.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

constexpr int kDim = GEMMINI_DIM;

// Every test starts from a freshly reset accelerator: the model's state is process-global.
class ResetModel : public ::testing::Test {
 protected:
  void SetUp() override { gemmini_reset(); }
};

class GemminiModelMvin : public ResetModel {};
class GemminiModelMvout : public ResetModel {};
class GemminiModelExecute : public ResetModel {};
class GemminiModelAlloc : public ResetModel {};
class GemminiModelCounters : public ResetModel {};
class GemminiModelTimeline : public ResetModel {};
class GemminiModelDeathTest : public ResetModel {
 protected:
  // Re-running the test in a fresh process is robust to threads other suites may have started.
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    ResetModel::SetUp();
  }
};

// Helpers that move whole 16-wide rows through slot 2 / the store path; tests that check the
// counters do not use them.
void write_spad(uint32_t addr, const std::vector<int8_t>& rows16) {
  gemmini_config_ld(2, kDim, 1.0f);
  uint32_t n = static_cast<uint32_t>(rows16.size() / kDim);
  for (uint32_t r = 0; r < n; r += kDim) {
    uint32_t chunk = n - r < kDim ? n - r : kDim;
    gemmini_mvin(2, rows16.data() + r * kDim, addr + r, kDim, chunk);
  }
}

std::vector<int8_t> read_spad(uint32_t addr, uint32_t rows) {
  std::vector<int8_t> out(rows * kDim);
  gemmini_config_st(kDim, GEMMINI_NO_ACTIVATION, 1.0f);
  gemmini_mvout(out.data(), addr, kDim, rows);
  return out;
}

void write_acc(uint32_t row, const std::vector<int32_t>& rows16) {
  gemmini_config_ld(2, kDim * 4, 1.0f);
  gemmini_mvin(2, rows16.data(), GEMMINI_ACC_ADDR | row, kDim,
               static_cast<uint32_t>(rows16.size() / kDim));
}

std::vector<int32_t> read_acc(uint32_t row, uint32_t rows) {
  std::vector<int32_t> out(rows * kDim);
  gemmini_config_st(kDim * 4, GEMMINI_NO_ACTIVATION, 1.0f);
  gemmini_mvout(out.data(), GEMMINI_ACC_ADDR | GEMMINI_ACC_FULL | row, kDim, rows);
  return out;
}

std::vector<int8_t> random_i8(std::mt19937& rng, size_t n) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

std::vector<int32_t> random_i32(std::mt19937& rng, size_t n) {
  std::uniform_int_distribution<int32_t> d(INT32_MIN, INT32_MAX);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// ---- mvin ----

TEST_F(GemminiModelMvin, BlockLoadLandsBlockMajorAndLeavesThePartialBlocksTailAlone) {
  constexpr uint32_t kRows = 5, kCols = 40, kBase = 100;           // 3 blocks: 16 + 16 + 8 columns
  write_spad(kBase, std::vector<int8_t>(3 * kRows * kDim, 0x55));  // the tail must keep this
  std::mt19937 rng(1);
  std::vector<int8_t> src = random_i8(rng, kRows * kCols);
  gemmini_config_ld(0, kCols, 1.0f);
  gemmini_mvin(0, src.data(), kBase, kCols, kRows);

  std::vector<int8_t> got = read_spad(kBase, 3 * kRows);
  for (uint32_t b = 0; b < 3; b++)
    for (uint32_t r = 0; r < kRows; r++)
      for (uint32_t c = 0; c < kDim; c++) {
        uint32_t col = b * kDim + c;
        int8_t want = col < kCols ? src[r * kCols + col] : 0x55;
        EXPECT_EQ(got[(b * kRows + r) * kDim + c], want) << "block " << b << " row " << r;
      }
}

TEST_F(GemminiModelMvin, StrideZeroBroadcastsOneDramRow) {
  std::vector<int8_t> src = {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 127, -128};
  gemmini_config_ld(0, 0, 1.0f);
  gemmini_mvin(0, src.data(), 7, kDim, 4);
  std::vector<int8_t> got = read_spad(7, 4);
  for (uint32_t r = 0; r < 4; r++)
    for (uint32_t c = 0; c < kDim; c++) EXPECT_EQ(got[r * kDim + c], src[c]);
}

TEST_F(GemminiModelMvin, NullDramIsAZeroingLoad) {
  write_spad(0, std::vector<int8_t>(4 * kDim, 9));
  uint64_t bytes_before = gemmini_get_counters()->bytes_in;
  gemmini_mvin(1, nullptr, 0, kDim, 4);  // reads no DRAM: slot 1 needs no stride
  EXPECT_EQ(read_spad(0, 4), std::vector<int8_t>(4 * kDim, 0));
  EXPECT_EQ(gemmini_get_counters()->mvin_zero, 1u);
  EXPECT_EQ(gemmini_get_counters()->bytes_in, bytes_before);
}

TEST_F(GemminiModelMvin, AccumulatorLoadOverwritesOnlyItsColumns) {
  write_acc(3, std::vector<int32_t>(2 * kDim, 77));
  // 16777217 has no float: scale 1.0f must copy the int32 exactly.
  std::vector<int32_t> src = {INT32_MIN, INT32_MAX, 16777217, -16777217, 1, -1,  0,  42, 43, 44,
                              -5,        6,         -7,       8,         9, -10, 11, 12, 13, 14};
  gemmini_config_ld(0, 10 * 4, 1.0f);
  gemmini_mvin(0, src.data(), GEMMINI_ACC_ADDR | 3, 10, 2);
  std::vector<int32_t> got = read_acc(3, 2);
  for (uint32_t r = 0; r < 2; r++)
    for (uint32_t c = 0; c < kDim; c++)
      EXPECT_EQ(got[r * kDim + c], c < 10 ? src[r * 10 + c] : 77) << r << "," << c;
}

TEST_F(GemminiModelMvin, AccumulateBitAddsWithWrapAround) {
  std::vector<int32_t> old(kDim, 5);
  old[0] = INT32_MAX;
  old[1] = INT32_MIN;
  write_acc(0, old);
  std::vector<int32_t> add = {1, -1, 100, -100};
  gemmini_config_ld(0, 0, 1.0f);
  gemmini_mvin(0, add.data(), GEMMINI_ACC_ADDR | GEMMINI_ACC_ACCUMULATE, 4, 1);
  std::vector<int32_t> got = read_acc(0, 1);
  EXPECT_EQ(got[0], INT32_MIN);  // INT32_MAX + 1 wraps
  EXPECT_EQ(got[1], INT32_MAX);  // INT32_MIN - 1 wraps
  EXPECT_EQ(got[2], 105);
  EXPECT_EQ(got[3], -95);
  for (uint32_t c = 4; c < kDim; c++) EXPECT_EQ(got[c], 5) << "column past cols is untouched";
}

TEST_F(GemminiModelMvin, ZeroingLoadIntoTheAccumulatorWithAccumulateChangesNothing) {
  std::mt19937 rng(2);
  std::vector<int32_t> old = random_i32(rng, 2 * kDim);
  write_acc(8, old);
  gemmini_config_ld(0, 64, 1.0f);
  gemmini_mvin(0, nullptr, GEMMINI_ACC_ADDR | GEMMINI_ACC_ACCUMULATE | 8, kDim, 2);
  EXPECT_EQ(read_acc(8, 2), old);
}

TEST_F(GemminiModelMvin, Int8ScaleRoundsHalfToEvenAndSaturates) {
  std::vector<int8_t> src = {3, 5, -3, -5, 1, -1, 127, -128, 7, -7, 2, 0, 100, -100, 64, -65};
  gemmini_config_ld(0, kDim, 0.5f);
  gemmini_mvin(0, src.data(), 0, kDim, 1);
  // x * 0.5: 1.5 -> 2, 2.5 -> 2, -1.5 -> -2, -2.5 -> -2, 0.5 -> 0, -0.5 -> 0, 63.5 -> 64,
  // -64, 3.5 -> 4, -3.5 -> -4, ...
  std::vector<int8_t> half = {2, 2, -2, -2, 0, 0, 64, -64, 4, -4, 1, 0, 50, -50, 32, -32};
  EXPECT_EQ(read_spad(0, 1), half);

  gemmini_config_ld(0, kDim, 2.0f);
  gemmini_mvin(0, src.data(), 1, kDim, 1);
  std::vector<int8_t> twice = {6,  10,  -6, -10, 2,   -2,   127, -128,
                               14, -14, 4,  0,   127, -128, 127, -128};
  EXPECT_EQ(read_spad(1, 1), twice);
}

TEST_F(GemminiModelMvin, AccumulatorScaleRoundsHalfToEvenAndSaturates) {
  std::vector<int32_t> src = {5, 7, -5, -7, INT32_MAX, INT32_MIN, 3, 0};
  gemmini_config_ld(0, 0, 0.5f);
  gemmini_mvin(0, src.data(), GEMMINI_ACC_ADDR, 8, 1);
  gemmini_config_ld(0, 0, 4.0f);
  gemmini_mvin(0, src.data(), GEMMINI_ACC_ADDR | 1, 8, 1);
  std::vector<int32_t> got = read_acc(0, 2);
  // (float)INT32_MAX is 2^31: half of it is exactly 2^30.
  std::vector<int32_t> half = {2, 4, -2, -4, 1073741824, -1073741824, 2, 0};
  std::vector<int32_t> quad = {20, 28, -20, -28, INT32_MAX, INT32_MIN, 12, 0};
  for (uint32_t c = 0; c < 8; c++) {
    EXPECT_EQ(got[c], half[c]) << c;
    EXPECT_EQ(got[kDim + c], quad[c]) << c;
  }
}

// ---- mvout ----

// Accumulator values whose scaled int8 outputs cover the rounding ties and the saturation.
const std::vector<int32_t> kAccValues = {5,    7,   -5,   -7,    3,         1,         -1, 253,
                                         -253, 255, 1000, -1000, INT32_MAX, INT32_MIN, 0,  -3};

TEST_F(GemminiModelMvout, AccumulatorScaleRoundsHalfToEvenAndSaturates) {
  write_acc(0, kAccValues);
  std::vector<int8_t> got(kDim);
  gemmini_config_st(kDim, GEMMINI_NO_ACTIVATION, 0.5f);
  gemmini_mvout(got.data(), GEMMINI_ACC_ADDR, kDim, 1);
  std::vector<int8_t> want = {2, 4, -2, -4, 2, 0, 0, 126, -126, 127, 127, -128, 127, -128, 0, -2};
  EXPECT_EQ(got, want);
}

TEST_F(GemminiModelMvout, ReluClampsNegativesAfterScaling) {
  write_acc(0, kAccValues);
  std::vector<int8_t> got(kDim);
  gemmini_config_st(kDim, GEMMINI_RELU, 0.5f);
  gemmini_mvout(got.data(), GEMMINI_ACC_ADDR, kDim, 1);
  std::vector<int8_t> want = {2, 4, 0, 0, 2, 0, 0, 126, 0, 127, 127, 0, 127, 0, 0, 0};
  EXPECT_EQ(got, want);
}

TEST_F(GemminiModelMvout, FullWidthCopiesInt32WithoutScaleOrActivation) {
  write_acc(5, kAccValues);
  std::vector<int32_t> got(kDim, 99);
  gemmini_config_st(0, GEMMINI_RELU, 0.25f);
  gemmini_mvout(got.data(), GEMMINI_ACC_ADDR | GEMMINI_ACC_FULL | 5, 12, 1);
  for (uint32_t c = 0; c < kDim; c++) EXPECT_EQ(got[c], c < 12 ? kAccValues[c] : 99) << c;
}

TEST_F(GemminiModelMvout, StrideSpacesTheDramRows) {
  std::mt19937 rng(3);
  std::vector<int8_t> rows = random_i8(rng, 3 * kDim);
  write_spad(20, rows);
  std::vector<int8_t> got(3 * 40, 0);
  gemmini_config_st(40, GEMMINI_RELU, 0.5f);  // neither applies to a scratchpad source
  gemmini_mvout(got.data(), 20, 10, 3);
  for (uint32_t r = 0; r < 3; r++)
    for (uint32_t c = 0; c < 40; c++)
      EXPECT_EQ(got[r * 40 + c], c < 10 ? rows[r * kDim + c] : 0) << r << "," << c;
}

// ---- execute ----

struct Shape {
  uint32_t a_rows, a_cols, b_rows, b_cols, c_rows, c_cols;
};

// Runs one preload + compute on random A, B (whole 16-wide rows, so the padding is tested) and
// random old C, and checks C against a triple loop.
void check_matmul(const Shape& s, bool accumulate, uint32_t seed) {
  gemmini_reset();
  std::mt19937 rng(seed);
  std::vector<int8_t> a = random_i8(rng, kDim * kDim), b = random_i8(rng, kDim * kDim);
  a[0] = -128, a[1] = 127, b[0] = -128, b[kDim + 1] = 127;  // the extremes always take part
  std::vector<int32_t> old_c = random_i32(rng, kDim * kDim);
  old_c[0] = INT32_MAX;  // with accumulate, wraps whenever the product is positive
  constexpr uint32_t kA = 0, kB = 64, kC = 32;
  write_spad(kA, a);
  write_spad(kB, b);
  write_acc(kC, old_c);

  gemmini_config_ex(GEMMINI_WS);
  uint32_t c_addr = GEMMINI_ACC_ADDR | (accumulate ? GEMMINI_ACC_ACCUMULATE : 0) | kC;
  gemmini_preload(kB, c_addr, s.b_cols, s.b_rows, s.c_cols, s.c_rows);
  gemmini_compute(kA, s.a_cols, s.a_rows);

  std::vector<int32_t> got = read_acc(kC, kDim);
  for (uint32_t i = 0; i < kDim; i++)
    for (uint32_t j = 0; j < kDim; j++) {
      int32_t want = old_c[i * kDim + j];
      if (i < s.c_rows && j < s.c_cols) {
        int32_t sum = 0;
        for (uint32_t k = 0; k < kDim; k++) {
          int32_t av = i < s.a_rows && k < s.a_cols ? a[i * kDim + k] : 0;
          int32_t bv = k < s.b_rows && j < s.b_cols ? b[k * kDim + j] : 0;
          sum += av * bv;
        }
        want = accumulate ? wrap_add(want, sum) : sum;
      }
      ASSERT_EQ(got[i * kDim + j], want) << "C[" << i << "][" << j << "]";
    }
}

const Shape kShapes[] = {
    {5, 7, 7, 9, 5, 9},        // partial sizes, consistent
    {16, 16, 16, 16, 16, 16},  // the full array
    {5, 7, 6, 9, 8, 12},       // C larger than A x B: the extra rows / columns get 0
    {1, 1, 1, 1, 1, 1},
};

TEST_F(GemminiModelExecute, PreloadComputeOverwritesCLikeATripleLoop) {
  uint32_t seed = 10;
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(::testing::Message()
                 << "a " << s.a_rows << "x" << s.a_cols << " c " << s.c_rows << "x" << s.c_cols);
    check_matmul(s, /*accumulate=*/false, seed++);
  }
}

TEST_F(GemminiModelExecute, AccumulateBitAddsIntoCWithWrapAround) {
  uint32_t seed = 20;
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(::testing::Message()
                 << "a " << s.a_rows << "x" << s.a_cols << " c " << s.c_rows << "x" << s.c_cols);
    check_matmul(s, /*accumulate=*/true, seed++);
  }
}

TEST_F(GemminiModelExecute, AllMinusOneTwentyEightSumsWithoutSaturating) {
  write_spad(0, std::vector<int8_t>(kDim * kDim, -128));
  gemmini_config_ex(GEMMINI_WS);
  gemmini_preload(0, GEMMINI_ACC_ADDR, kDim, kDim, kDim, kDim);
  gemmini_compute(0, kDim, kDim);
  EXPECT_EQ(read_acc(0, kDim), std::vector<int32_t>(kDim * kDim, 16 * 128 * 128));
}

TEST_F(GemminiModelExecute, GarbageBReusesTheWeightsInTheArray) {
  std::mt19937 rng(4);
  std::vector<int8_t> b = random_i8(rng, kDim * kDim), a = random_i8(rng, kDim * kDim);
  write_spad(0, b);
  write_spad(16, a);
  gemmini_config_ex(GEMMINI_WS);
  gemmini_preload(0, GEMMINI_ACC_ADDR | 0, kDim, kDim, kDim, kDim);
  gemmini_compute(16, kDim, kDim);
  write_spad(0, std::vector<int8_t>(kDim * kDim, 0));  // the array latched B: this changes nothing
  gemmini_preload(GEMMINI_GARBAGE_ADDR, GEMMINI_ACC_ADDR | 16, kDim, kDim, kDim, kDim);
  gemmini_compute(16, kDim, kDim);
  EXPECT_EQ(read_acc(16, kDim), read_acc(0, kDim));
  EXPECT_NE(read_acc(16, kDim), std::vector<int32_t>(kDim * kDim, 0));
}

TEST_F(GemminiModelExecute, GarbageCDiscardsTheResults) {
  std::mt19937 rng(5);
  write_spad(0, random_i8(rng, kDim * kDim));
  std::vector<int32_t> old = random_i32(rng, kDim * kDim);
  write_acc(0, old);
  gemmini_config_ex(GEMMINI_WS);
  gemmini_preload(0, GEMMINI_GARBAGE_ADDR, kDim, kDim, kDim, kDim);
  gemmini_compute(0, kDim, kDim);
  EXPECT_EQ(read_acc(0, kDim), old);
  EXPECT_EQ(gemmini_get_counters()->compute, 1u);
}

TEST_F(GemminiModelExecute, ASecondPreloadReplacesThePendingOne) {
  std::vector<int8_t> ones(kDim * kDim, 1), twos(kDim * kDim, 2);
  write_spad(0, ones);
  write_spad(16, twos);
  gemmini_config_ex(GEMMINI_WS);
  gemmini_preload(0, GEMMINI_ACC_ADDR | 0, kDim, kDim, kDim, kDim);
  gemmini_preload(16, GEMMINI_ACC_ADDR | 16, kDim, kDim, kDim, kDim);
  gemmini_compute(0, kDim, kDim);
  EXPECT_EQ(read_acc(16, kDim), std::vector<int32_t>(kDim * kDim, 16 * 2));
  EXPECT_EQ(read_acc(0, kDim), std::vector<int32_t>(kDim * kDim, 0));
}

// ---- allocation ----

TEST_F(GemminiModelAlloc, RowOfAnElementOffsetKeepsTheAddressBits) {
  EXPECT_EQ(gemmini_row(GEMMINI_ACC_ADDR | 4, 48), GEMMINI_ACC_ADDR | 7u);
  EXPECT_EQ(gemmini_row(100, 0), 100u);
}

TEST_F(GemminiModelAlloc, AnEmptyBufferTakesNoRowAndFreesCleanly) {
  uint32_t s = gemmini_spad_alloc(0), a = gemmini_acc_alloc(0);
  EXPECT_EQ(s, GEMMINI_SPAD_ROWS);
  EXPECT_EQ(a, GEMMINI_ACC_ADDR | GEMMINI_ACC_ROWS);
  EXPECT_EQ(gemmini_spad_alloc(GEMMINI_SPAD_ROWS), 0u) << "the empty buffer took no row";
  gemmini_spad_free(s);
  gemmini_acc_free(a);
}

TEST_F(GemminiModelAlloc, DistinctAllocationsDoNotOverlap) {
  uint32_t a = gemmini_spad_alloc(16), b = gemmini_spad_alloc(64), c = gemmini_spad_alloc(1);
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 16u);
  EXPECT_EQ(c, 80u);
  uint32_t x = gemmini_acc_alloc(16), y = gemmini_acc_alloc(16);
  EXPECT_EQ(x, GEMMINI_ACC_ADDR | 0);
  EXPECT_EQ(y, GEMMINI_ACC_ADDR | 16);
}

TEST_F(GemminiModelAlloc, FirstFitReusesAFreedRun) {
  uint32_t a = gemmini_spad_alloc(16), b = gemmini_spad_alloc(32), c = gemmini_spad_alloc(16);
  gemmini_spad_free(b);
  EXPECT_EQ(gemmini_spad_alloc(40), c + 16) << "40 rows do not fit in the freed 32";
  EXPECT_EQ(gemmini_spad_alloc(8), b) << "first fit: the freed run comes first";
  EXPECT_EQ(gemmini_spad_alloc(24), b + 8);
  EXPECT_EQ(gemmini_spad_alloc(1), c + 16 + 40);
  gemmini_spad_free(a);
  EXPECT_EQ(gemmini_spad_alloc(16), a);

  uint32_t x = gemmini_acc_alloc(512), y = gemmini_acc_alloc(512);
  gemmini_acc_free(x);
  EXPECT_EQ(gemmini_acc_alloc(100), x);
  EXPECT_EQ(y, GEMMINI_ACC_ADDR | 512);
}

TEST_F(GemminiModelAlloc, ResetFreesEverything) {
  gemmini_spad_alloc(GEMMINI_SPAD_ROWS);
  gemmini_acc_alloc(GEMMINI_ACC_ROWS);
  gemmini_reset();
  EXPECT_EQ(gemmini_spad_alloc(GEMMINI_SPAD_ROWS), 0u);
  EXPECT_EQ(gemmini_acc_alloc(GEMMINI_ACC_ROWS), GEMMINI_ACC_ADDR);
}

// ---- counters and cycles ----

// A small sequence whose counters are worked out by hand in the tests below (the cycle rules
// are in gemmini_model.h).
void run_known_sequence() {
  static int8_t a[16 * 64];
  static int32_t accdata[4 * 10];
  static int8_t out8[16 * 64];
  static int32_t out32[4 * 16];
  gemmini_config_ld(0, 64, 1.0f);                        // load 1
  gemmini_config_ld(1, 40, 1.0f);                        // load 1
  gemmini_config_st(64, GEMMINI_NO_ACTIVATION, 1.0f);    // store 1
  gemmini_config_ex(GEMMINI_WS);                         // exec 1, overlapped 1
  gemmini_mvin(0, a, 0, 64, 16);                         // 1024 B; load 16 * 4 = 64
  gemmini_mvin(0, nullptr, 64, 20, 3);                   // zeroing, 0 B; load 3 * 2 = 6
  gemmini_mvin(1, accdata, GEMMINI_ACC_ADDR, 10, 4);     // 160 B; load 4 * ceil(40/16) = 12
  gemmini_preload(0, GEMMINI_ACC_ADDR, 16, 16, 16, 16);  // exec 16, overlapped 16 - 0
  gemmini_compute(16, 16, 16);                           // exec 16; 4096 macs
  // exec 8, overlapped max(0, 8 - 16) = 0: hidden behind the previous compute
  gemmini_preload(32, GEMMINI_ACC_ADDR | GEMMINI_ACC_ACCUMULATE, 16, 8, 16, 16);
  gemmini_compute(48, 8, 12);  // exec 12; 12 * 8 * 16 = 1536 macs
  gemmini_preload(GEMMINI_GARBAGE_ADDR, GEMMINI_GARBAGE_ADDR, 1, 1, 5, 3);  // exec 0
  gemmini_compute(0, 4, 2);                                                 // exec 2; 40 macs
  gemmini_mvout(out8, GEMMINI_ACC_ADDR, 16, 16);                            // 256 B; store 16
  gemmini_mvout(out32, GEMMINI_ACC_ADDR | GEMMINI_ACC_FULL, 10, 4);         // 160 B; store 4 * 3
  gemmini_mvout(out8, 0, 5, 2);                                             // 10 B; store 2
}

TEST_F(GemminiModelCounters, CountInstructionsBytesAndMacs) {
  run_known_sequence();
  const gemmini_counters& c = *gemmini_get_counters();
  EXPECT_EQ(c.mvin, 3u);
  EXPECT_EQ(c.mvin_zero, 1u);
  EXPECT_EQ(c.mvout, 3u);
  EXPECT_EQ(c.preload, 3u);
  EXPECT_EQ(c.compute, 3u);
  EXPECT_EQ(c.config_ld, 2u);
  EXPECT_EQ(c.config_st, 1u);
  EXPECT_EQ(c.config_ex, 1u);
  EXPECT_EQ(gemmini_config_writes(), 4u);
  EXPECT_EQ(c.bytes_in, 1024u + 160u);
  EXPECT_EQ(c.bytes_out, 256u + 160u + 10u);
  EXPECT_EQ(c.macs, 4096u + 1536u + 40u);
}

TEST_F(GemminiModelCounters, CyclesFollowTheModel) {
  run_known_sequence();
  const gemmini_counters& c = *gemmini_get_counters();
  EXPECT_EQ(c.load_cycles, 2u + 64u + 6u + 12u);
  EXPECT_EQ(c.store_cycles, 1u + 16u + 12u + 2u);
  EXPECT_EQ(c.exec_cycles, 1u + 16u + 16u + 8u + 12u + 0u + 2u);
  EXPECT_EQ(c.exec_cycles_overlapped, 1u + 16u + 16u + 0u + 12u + 0u + 2u);
  EXPECT_EQ(gemmini_cycles_serial(), 84u + 31u + 55u);
  EXPECT_EQ(gemmini_cycles_overlapped(), 84u);  // load-bound
}

TEST_F(GemminiModelCounters, PreloadsHideBehindThePreviousCompute) {
  static int8_t tile[16 * 16];
  gemmini_config_ld(0, 16, 1.0f);    // load 1
  gemmini_mvin(0, tile, 0, 16, 16);  // load 16
  gemmini_config_ex(GEMMINI_WS);     // exec 1
  for (int i = 0; i < 3; i++) {
    gemmini_preload(0, GEMMINI_ACC_ADDR, 16, 16, 16, 16);  // 16; hidden after the first compute
    gemmini_compute(0, 16, 16);                            // 16
  }
  // A preload right after another finds no compute left to hide behind.
  gemmini_preload(0, GEMMINI_ACC_ADDR, 16, 16, 16, 16);
  gemmini_preload(0, GEMMINI_ACC_ADDR, 16, 4, 16, 16);
  const gemmini_counters& c = *gemmini_get_counters();
  EXPECT_EQ(c.exec_cycles, 1u + 3u * 32u + 16u + 4u);
  EXPECT_EQ(c.exec_cycles_overlapped, 1u + 16u + 3u * 16u + 0u + 4u);
  EXPECT_EQ(gemmini_cycles_serial(), 17u + 117u);
  EXPECT_EQ(gemmini_cycles_overlapped(), 69u);  // execute-bound
}

TEST_F(GemminiModelCounters, UtilizationIsMacsOverPeakOfOverlappedCycles) {
  EXPECT_EQ(gemmini_utilization(), 0.0) << "no cycles yet";
  run_known_sequence();
  EXPECT_DOUBLE_EQ(gemmini_utilization(), 5672.0 / (84.0 * 256.0));
}

TEST_F(GemminiModelCounters, ResetClearsTheCounters) {
  run_known_sequence();
  gemmini_reset();
  const gemmini_counters& c = *gemmini_get_counters();
  gemmini_counters zero;
  std::memset(&zero, 0, sizeof zero);
  EXPECT_EQ(std::memcmp(&c, &zero, sizeof zero), 0);
}

// ---- limits: each aborts with one line naming the instruction and the value ----

TEST_F(GemminiModelDeathTest, MvinOfSeventeenRows) {
  static int8_t buf[17 * 16];
  gemmini_config_ld(0, 16, 1.0f);
  EXPECT_DEATH(gemmini_mvin(0, buf, 0, 16, 17),
               "gemmini: mvin: rows out of range \\(got 17, limit 1\\.\\.16\\)");
}

TEST_F(GemminiModelDeathTest, MvinOfSixtyFiveColumnsIntoTheScratchpad) {
  static int8_t buf[65];
  gemmini_config_ld(0, 65, 1.0f);
  EXPECT_DEATH(gemmini_mvin(0, buf, 0, 65, 1),
               "gemmini: mvin: cols \\(scratchpad\\) out of range \\(got 65, limit 1\\.\\.64\\)");
}

TEST_F(GemminiModelDeathTest, MvinOfSeventeenColumnsIntoTheAccumulator) {
  static int32_t buf[17];
  gemmini_config_ld(0, 68, 1.0f);
  EXPECT_DEATH(gemmini_mvin(0, buf, GEMMINI_ACC_ADDR, 17, 1),
               "gemmini: mvin: cols \\(accumulator\\) out of range \\(got 17, limit 1\\.\\.16\\)");
}

TEST_F(GemminiModelDeathTest, MvinPastTheEndOfTheScratchpad) {
  static int8_t buf[16 * 64];
  gemmini_config_ld(0, 64, 1.0f);
  // 2 blocks of 8 rows from row 16370 end at row 16385.
  EXPECT_DEATH(gemmini_mvin(0, buf, 16370, 32, 8),
               "gemmini: mvin: destination runs past the end of the scratchpad \\(got last row "
               "16385, limit 16383\\)");
}

TEST_F(GemminiModelDeathTest, MvinPastTheEndOfTheAccumulator) {
  static int32_t buf[16 * 16];
  gemmini_config_ld(0, 64, 1.0f);
  EXPECT_DEATH(gemmini_mvin(0, buf, GEMMINI_ACC_ADDR | 1020, 16, 5),
               "gemmini: mvin: destination runs past the end of the accumulator \\(got last row "
               "1024, limit 1023\\)");
}

TEST_F(GemminiModelDeathTest, AWindowStartingInsideARow) {
  EXPECT_DEATH(gemmini_row(GEMMINI_ACC_ADDR | 4, 35),
               "gemmini: address: a window must start at the first column of a row \\(got element "
               "offset 35\\)");
}

TEST_F(GemminiModelDeathTest, MvinFromDramWithAnUnconfiguredSlot) {
  static int8_t buf[16];
  gemmini_config_ld(0, 16, 1.0f);
  EXPECT_DEATH(gemmini_mvin(2, buf, 0, 16, 1), "gemmini: mvin: load slot 2 was never configured");
}

TEST_F(GemminiModelDeathTest, MvinFlagBitsThatDoNotApply) {
  static int32_t buf[16];
  gemmini_config_ld(0, 64, 1.0f);
  EXPECT_DEATH(gemmini_mvin(0, buf, GEMMINI_ACC_ADDR | GEMMINI_ACC_FULL, 16, 1),
               "gemmini: mvin: full-width bit on a mvin destination \\(got 0xa0000000");
  EXPECT_DEATH(gemmini_mvin(0, buf, GEMMINI_ACC_ACCUMULATE | 3, 16, 1),
               "gemmini: mvin: accumulate bit on scratchpad destination \\(got 0x40000003");
  EXPECT_DEATH(gemmini_mvin(0, buf, GEMMINI_GARBAGE_ADDR, 16, 1),
               "gemmini: mvin: destination is the garbage address \\(got 0xffffffff");
}

TEST_F(GemminiModelDeathTest, MvoutWithTheAccumulateBitOrNoConfig) {
  static int8_t buf[16];
  EXPECT_DEATH(gemmini_mvout(buf, GEMMINI_ACC_ADDR, 16, 1),
               "gemmini: mvout: the store configuration was never written");
  gemmini_config_st(16, GEMMINI_NO_ACTIVATION, 1.0f);
  EXPECT_DEATH(gemmini_mvout(buf, GEMMINI_ACC_ADDR | GEMMINI_ACC_ACCUMULATE, 16, 1),
               "gemmini: mvout: accumulate bit on a mvout source \\(got 0xc0000000");
  EXPECT_DEATH(gemmini_mvout(buf, GEMMINI_ACC_ADDR, 17, 1),
               "gemmini: mvout: cols out of range \\(got 17, limit 1\\.\\.16\\)");
}

TEST_F(GemminiModelDeathTest, ComputeWithoutPreload) {
  gemmini_config_ex(GEMMINI_WS);
  EXPECT_DEATH(gemmini_compute(0, 16, 16), "gemmini: compute: compute without a preceding preload");
  gemmini_preload(0, GEMMINI_ACC_ADDR, 16, 16, 16, 16);
  gemmini_compute(0, 16, 16);
  EXPECT_DEATH(gemmini_compute(0, 16, 16), "compute without a preceding preload")
      << "a compute consumes its preload";
}

TEST_F(GemminiModelDeathTest, PreloadBeforeConfigEx) {
  EXPECT_DEATH(gemmini_preload(0, GEMMINI_ACC_ADDR, 16, 16, 16, 16),
               "gemmini: preload: the dataflow was never configured");
}

TEST_F(GemminiModelDeathTest, PreloadLimits) {
  gemmini_config_ex(GEMMINI_WS);
  EXPECT_DEATH(gemmini_preload(GEMMINI_GARBAGE_ADDR, GEMMINI_ACC_ADDR, 16, 16, 16, 16),
               "gemmini: preload: B is the garbage address but no weights were ever loaded");
  EXPECT_DEATH(gemmini_preload(0, GEMMINI_ACC_ADDR, 16, 16, 0, 16),
               "gemmini: preload: c_cols out of range \\(got 0, limit 1\\.\\.16\\)");
  EXPECT_DEATH(gemmini_preload(0, 5, 16, 16, 16, 16),
               "gemmini: preload: C must be an accumulator address \\(got 0x00000005");
  EXPECT_DEATH(gemmini_preload(GEMMINI_ACC_ADDR, GEMMINI_ACC_ADDR, 16, 16, 16, 16),
               "gemmini: preload: B must be a scratchpad address \\(got 0x80000000");
}

TEST_F(GemminiModelDeathTest, ConfigLimits) {
  EXPECT_DEATH(gemmini_config_ex(0), "gemmini: config_ex: dataflow .* \\(got 0, limit 1\\.\\.1\\)");
  EXPECT_DEATH(gemmini_config_ld(3, 16, 1.0f),
               "gemmini: config_ld: load slot id out of range \\(got 3, limit 0\\.\\.2\\)");
  EXPECT_DEATH(gemmini_config_st(16, 2, 1.0f),
               "gemmini: config_st: activation out of range \\(got 2, limit 0\\.\\.1\\)");
}

TEST_F(GemminiModelDeathTest, AllocationLimits) {
  gemmini_spad_alloc(GEMMINI_SPAD_ROWS - 10);
  EXPECT_DEATH(gemmini_spad_alloc(11),
               "gemmini: spad_alloc: no free run of scratchpad rows that long \\(got 11, limit "
               "10\\)");
  EXPECT_DEATH(gemmini_acc_alloc(GEMMINI_ACC_ROWS + 1),
               "gemmini: acc_alloc: rows out of range \\(got 1025");
  EXPECT_DEATH(gemmini_spad_free(3), "gemmini: spad_free: no allocation starts at this address");
  EXPECT_DEATH(gemmini_acc_free(GEMMINI_ACC_ADDR),
               "gemmini: acc_free: no allocation starts at this address \\(got 0x80000000\\)");
}

// ---- the dependence-aware timeline ----

// A and B loaded (16 cycles each on the load unit, after its config), then a preload that waits
// for B and a compute that waits for the preload: 1 + 16 + 16 = 33, preload 33..49, compute
// 49..65.
void load_and_multiply_one_tile() {
  static int8_t src[16 * 16];
  gemmini_config_ld(0, 16, 1.0f);
  gemmini_mvin(0, src, 0, 16, 16);   // A: rows 0..15, ready at 17
  gemmini_mvin(0, src, 16, 16, 16);  // B: rows 16..31, ready at 33
  gemmini_config_ex(GEMMINI_WS);
  gemmini_preload(16, GEMMINI_ACC_ADDR, 16, 16, 16, 16);
  gemmini_compute(0, 16, 16);
}

TEST_F(GemminiModelTimeline, AComputeWaitsForItsOperandsAndItsPreload) {
  load_and_multiply_one_tile();
  EXPECT_EQ(gemmini_cycles_timeline(), 65u);
  EXPECT_LT(gemmini_cycles_overlapped(), gemmini_cycles_timeline());
  EXPECT_LT(gemmini_cycles_timeline(), gemmini_cycles_serial());
}

TEST_F(GemminiModelTimeline, ALoadWaitsForTheComputeThatReadsItsRows) {
  load_and_multiply_one_tile();
  static int8_t src[16 * 16];
  gemmini_mvin(0, src, 0, 16, 16);  // overwrites A, which the compute reads until 65
  EXPECT_EQ(gemmini_cycles_timeline(), 81u);
}

TEST_F(GemminiModelTimeline, LoadsOfOtherRowsOverlapTheCompute) {
  load_and_multiply_one_tile();
  static int8_t src[16 * 16];
  gemmini_mvin(0, src, 32, 16, 16);  // rows no one reads: right after the B load, 33..49
  EXPECT_EQ(gemmini_cycles_timeline(), 65u);
}

TEST_F(GemminiModelTimeline, AStoreWaitsForTheComputeThatWritesItsRows) {
  load_and_multiply_one_tile();
  static int8_t dst[16 * 16];
  gemmini_config_st(16, GEMMINI_NO_ACTIVATION, 1.0f);  // store unit 0..1
  gemmini_mvout(dst, GEMMINI_ACC_ADDR, 16, 16);        // waits for the compute: 65..81
  EXPECT_EQ(gemmini_cycles_timeline(), 81u);
}

}  // namespace
