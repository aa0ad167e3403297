// The XGBoost cost model (search/cost_model.h).
#include "search/cost_model.h"

#include <xgboost/c_api.h>

#include <string>

#include "search/choices.h"

namespace exocpp::search {
namespace {

void check(int rc, const char* what) {
  if (rc != 0) throw SearchError(std::string("cost model: ") + what + ": " + XGBGetLastError());
}

// A dense DMatrix of `rows`, freed with the object.
struct Matrix {
  DMatrixHandle h = nullptr;
  explicit Matrix(const std::vector<std::vector<float>>& rows) {
    const size_t ncol = rows.empty() ? 0 : rows[0].size();
    std::vector<float> flat;
    for (const std::vector<float>& r : rows) {
      if (r.size() != ncol) throw SearchError("cost model: feature rows of different lengths");
      flat.insert(flat.end(), r.begin(), r.end());
    }
    check(XGDMatrixCreateFromMat(flat.data(), rows.size(), ncol, -1e30f, &h), "matrix");
  }
  ~Matrix() { XGDMatrixFree(h); }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
};

}  // namespace

CostModel::~CostModel() {
  if (booster_) XGBoosterFree(static_cast<BoosterHandle>(booster_));
}

void CostModel::train(const std::vector<std::vector<float>>& rows,
                      const std::vector<float>& targets, int rounds) {
  if (rows.empty() || rows.size() != targets.size())
    throw SearchError("cost model: training needs one target per feature row");
  Matrix m(rows);
  check(XGDMatrixSetFloatInfo(m.h, "label", targets.data(), targets.size()), "labels");
  BoosterHandle b = nullptr;
  check(XGBoosterCreate(&m.h, 1, &b), "booster");
  try {
    const std::pair<const char*, const char*> params[] = {{"objective", "reg:squarederror"},
                                                          {"max_depth", "4"},
                                                          {"eta", "0.3"},
                                                          {"min_child_weight", "1"},
                                                          {"nthread", "1"},
                                                          {"seed", "0"},
                                                          {"verbosity", "0"}};
    for (const auto& [k, v] : params) check(XGBoosterSetParam(b, k, v), "parameters");
    for (int i = 0; i < rounds; ++i) check(XGBoosterUpdateOneIter(b, i, m.h), "training");
  } catch (...) {
    XGBoosterFree(b);
    throw;
  }
  if (booster_) XGBoosterFree(static_cast<BoosterHandle>(booster_));
  booster_ = b;
}

std::vector<double> CostModel::predict(const std::vector<std::vector<float>>& rows) const {
  std::vector<double> out(rows.size(), 0);
  if (!booster_ || rows.empty()) return out;
  Matrix m(rows);
  bst_ulong n = 0;
  const float* res = nullptr;
  check(XGBoosterPredict(static_cast<BoosterHandle>(booster_), m.h, 0, 0, 0, &n, &res),
        "prediction");
  for (bst_ulong i = 0; i < n && i < out.size(); ++i) out[i] = res[i];
  return out;
}

}  // namespace exocpp::search
