// Features of scheduled procs (search/features.h): what they count, at the sizes given.
#include "search/features.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "search/search_fixtures.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

float feature(const std::vector<float>& f, const std::string& name) {
  const std::vector<std::string>& names = feature_names();
  size_t i = static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  EXPECT_LT(i, f.size()) << name;
  return i < f.size() ? f[i] : 0;
}

TEST(Features, OneValuePerName) {
  EXPECT_EQ(features(parse_proc(kScale), {{"N", 8}}).size(), feature_names().size());
}

TEST(Features, ExecutionsAreCountedAtTheGivenSizes) {
  Proc p = parse_proc(kScale);
  EXPECT_FLOAT_EQ(feature(features(p, {{"N", 1023}}), "stmt_executions"), 10);  // log2(1 + 1023)
  EXPECT_FLOAT_EQ(feature(features(p, {{"N", 7}}), "stmt_executions"), 3);
}

TEST(Features, GuardsAndTheInnermostExtentFollowTheSchedule) {
  Proc p = parse_proc(kScale);
  Proc q = divide_loop(p, "i", 8, {"io", "ii"}, {.tail = Tail::Guard});
  std::vector<float> f = features(q, {{"N", 1000}});
  EXPECT_FLOAT_EQ(feature(f, "innermost_extent"), std::log2(9.0f));
  EXPECT_GT(feature(f, "if_executions"), 0);
  EXPECT_FLOAT_EQ(feature(features(p, {{"N", 1000}}), "if_executions"), 0);
  EXPECT_FLOAT_EQ(feature(f, "max_depth"), 2);
}

TEST(Features, UnitStrideIsTheShareOfAccessesAlongTheInnermostLoop) {
  Proc rows = parse_proc(R"(def f(A: f32[8, 8] @ DRAM):
    for i in seq(0, 8):
        for j in seq(0, 8):
            A[i, j] = A[i, j] + 1.0
)");
  Proc cols = reorder_loops(rows, "i j");
  EXPECT_FLOAT_EQ(feature(features(rows, {}), "unit_stride"), 1);
  EXPECT_FLOAT_EQ(feature(features(cols, {}), "unit_stride"), 0);
}

TEST(Features, AParallelLoopIsCountedWithItsExtent) {
  Proc p = set_loop_mode(parse_proc(kScale), "i", "par");
  std::vector<float> f = features(p, {{"N", 255}});
  EXPECT_FLOAT_EQ(feature(f, "par_loops"), 1);
  EXPECT_FLOAT_EQ(feature(f, "par_extent"), 8);
}

TEST(Features, FootprintsCountTheElementsTheInnermostLoopsTouch) {
  // A 16 x 16 matmul: over k alone, A's row (16), B's column (16) and one C cell: 33 elements;
  // over j and k, A's row, all of B and C's row: 16 + 256 + 16.
  Proc mm =
      parse_proc(R"(def mm(A: f32[16, 16] @ DRAM, B: f32[16, 16] @ DRAM, C: f32[16, 16] @ DRAM):
    for i in seq(0, 16):
        for j in seq(0, 16):
            for k in seq(0, 16):
                C[i, j] += A[i, k] * B[k, j]
)");
  std::vector<float> f = features(mm, {});
  EXPECT_FLOAT_EQ(feature(f, "footprint1"), std::log2(1.0f + 4 * 33));
  EXPECT_FLOAT_EQ(feature(f, "footprint2"), std::log2(1.0f + 4 * (16 + 256 + 16)));
  // Over all three loops: 3 accesses per iteration, 16^3 iterations, 3 * 256 elements.
  EXPECT_FLOAT_EQ(feature(f, "reuse3"), std::log2(1.0f + 3.0f * 4096 / 768));
}

TEST(Features, TilingShrinksTheInnerFootprint) {
  Proc p = parse_proc(R"(def t(A: f32[64, 64] @ DRAM, B: f32[64, 64] @ DRAM):
    for i in seq(0, 64):
        for j in seq(0, 64):
            B[i, j] = A[j, i]
)");
  Proc q = divide_loop(p, "j", 8, {"jo", "ji"}, {.perfect = true});
  q = divide_loop(q, "i", 8, {"io", "ii"}, {.perfect = true});
  q = reorder_loops(q, "ii jo");
  EXPECT_LT(feature(features(q, {}), "footprint2"), feature(features(p, {}), "footprint2"));
}

}  // namespace
