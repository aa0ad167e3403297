// Private to the random-schedule generator (schedule_fuzz*.cpp): its random-choice helpers.
#pragma once

#include <random>
#include <vector>

namespace exocpp::fuzz {

using Rng = std::mt19937_64;

inline int pick(Rng& r, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(r); }
inline bool chance(Rng& r, int percent) { return pick(r, 0, 99) < percent; }
template <class T>
const T& choose(const std::vector<T>& v, Rng& r) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(r)];
}

}  // namespace exocpp::fuzz
