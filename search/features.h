// Features of a scheduled proc for the search's cost model (search/cost_model.h): numbers a
// model can learn running time from, computed from the proc and the sizes it will run at, the
// same for every space. Trip counts are evaluated at those sizes (a bound that depends on data
// or an unknown counts as one iteration); counts that span orders of magnitude are log2(1 + x).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/ir.h"

namespace exocpp::search {

// The names of the features, in the order features() returns them.
const std::vector<std::string>& feature_names();

std::vector<float> features(const Proc& p, const std::map<std::string, int64_t>& sizes);

}  // namespace exocpp::search
