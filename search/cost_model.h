// The search's cost model, learned online (TVM's idea, with XGBoost): gradient-boosted trees over
// features of scheduled procs (search/features.h) predicting log2 of the running time. The tuner
// retrains it after every round on all times measured so far and uses it to choose which of many
// built candidates to time. Training is deterministic (one thread, a fixed seed).
//
//   CostModel m;
//   m.train(rows, log2_seconds);                 // rows: features() of timed candidates
//   std::vector<double> guess = m.predict(more);  // lower is faster
#pragma once

#include <vector>

namespace exocpp::search {

class CostModel {
 public:
  CostModel() = default;
  ~CostModel();
  CostModel(const CostModel&) = delete;
  CostModel& operator=(const CostModel&) = delete;

  // Fits a new model to `rows` (one feature vector each) and `targets`. Throws SearchError on an
  // XGBoost failure or rows of different lengths.
  void train(const std::vector<std::vector<float>>& rows, const std::vector<float>& targets,
             int rounds = 40);
  bool trained() const { return booster_ != nullptr; }
  // The model's targets for `rows`; all zero before the first train().
  std::vector<double> predict(const std::vector<std::vector<float>>& rows) const;

 private:
  void* booster_ = nullptr;  // BoosterHandle; XGBoost's headers stay in cost_model.cpp
};

}  // namespace exocpp::search
