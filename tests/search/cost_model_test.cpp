// The cost model (search/cost_model.h): it learns an ordering from examples, deterministically,
// and refuses malformed training data.
#include "search/cost_model.h"

#include <gtest/gtest.h>

#include "search/choices.h"

using namespace exocpp::search;

namespace {

// Targets that grow with the first feature and ignore the second.
void examples(std::vector<std::vector<float>>& rows, std::vector<float>& y) {
  for (int i = 0; i < 40; ++i) {
    float x = static_cast<float>(i % 10), noise = static_cast<float>((i * 7) % 5);
    rows.push_back({x, noise});
    y.push_back(2 * x);
  }
}

TEST(CostModel, PredictsZeroBeforeTraining) {
  CostModel m;
  EXPECT_FALSE(m.trained());
  EXPECT_EQ(m.predict({{1, 2}, {3, 4}}), (std::vector<double>{0, 0}));
}

TEST(CostModel, LearnsTheOrderOfItsExamples) {
  std::vector<std::vector<float>> rows;
  std::vector<float> y;
  examples(rows, y);
  CostModel m;
  m.train(rows, y);
  std::vector<double> p = m.predict({{1, 0}, {5, 3}, {9, 1}});
  EXPECT_LT(p[0], p[1]);
  EXPECT_LT(p[1], p[2]);
  EXPECT_NEAR(p[1], 10, 1.5);
}

TEST(CostModel, TrainingIsDeterministic) {
  std::vector<std::vector<float>> rows;
  std::vector<float> y;
  examples(rows, y);
  CostModel a, b;
  a.train(rows, y);
  b.train(rows, y);
  EXPECT_EQ(a.predict(rows), b.predict(rows));
}

TEST(CostModel, MalformedTrainingDataIsRefused) {
  CostModel m;
  EXPECT_THROW(m.train({{1, 2}, {3}}, {1, 2}), SearchError);
  EXPECT_THROW(m.train({{1, 2}}, {1, 2}), SearchError);
  EXPECT_THROW(m.train({}, {}), SearchError);
}

}  // namespace
