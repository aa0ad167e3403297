// Choice points and traces (search/choices.h).
#include "search/choices.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

namespace exocpp::search {

const Decision* Trace::find(const std::string& name) const {
  for (const Decision& d : decisions)
    if (d.name == name) return &d;
  return nullptr;
}

std::string Trace::to_string() const {
  std::string out;
  for (const Decision& d : decisions) {
    if (!out.empty()) out += ' ';
    out += d.name + "=" + d.value();
  }
  return out;
}

std::map<std::string, std::string> parse_trace(const std::string& text) {
  std::map<std::string, std::string> values;
  std::istringstream in(text);
  std::string entry;
  while (in >> entry) {
    size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size() ||
        entry.find('=', eq + 1) != std::string::npos)
      throw SearchError("trace entry '" + entry + "' is not name=value");
    if (!values.emplace(entry.substr(0, eq), entry.substr(eq + 1)).second)
      throw SearchError("trace names '" + entry.substr(0, eq) + "' twice");
  }
  return values;
}

Choices::Choices(Mode m, std::map<std::string, std::string> values, uint64_t seed)
    : mode_(m), values_(std::move(values)), rng_(seed) {}

Choices Choices::random(uint64_t seed) { return Choices(Mode::Random, {}, seed); }
Choices Choices::replay(const std::map<std::string, std::string>& values) {
  return Choices(Mode::Replay, values, 0);
}
Choices Choices::replay(const Trace& t) { return replay(parse_trace(t.to_string())); }
Choices Choices::guided(const std::map<std::string, std::string>& values, uint64_t seed) {
  return Choices(Mode::Guided, values, seed);
}

int Choices::decide(const std::string& name, std::vector<std::string> options) {
  if (name.empty() || name.find_first_of(" =") != std::string::npos)
    throw SearchError("choice point name '" + name + "' is empty or has a space or '='");
  if (options.empty()) throw SearchError("choice point '" + name + "' offers no option");
  if (trace_.find(name)) throw SearchError("choice point '" + name + "' is asked for twice");
  int chosen = -1;
  if (mode_ != Mode::Random) {
    auto v = values_.find(name);
    if (v != values_.end()) {
      auto it = std::find(options.begin(), options.end(), v->second);
      if (it != options.end())
        chosen = static_cast<int>(it - options.begin());
      else if (mode_ == Mode::Replay)
        throw SearchError("choice point '" + name + "' no longer offers '" + v->second + "'");
    } else if (mode_ == Mode::Replay) {
      throw SearchError("the trace has no value for choice point '" + name + "'");
    }
  }
  if (chosen < 0)
    chosen = static_cast<int>(std::uniform_int_distribution<size_t>(0, options.size() - 1)(rng_));
  trace_.decisions.push_back({name, std::move(options), chosen});
  return chosen;
}

int64_t Choices::pick_int(const std::string& name, const std::vector<int64_t>& options) {
  std::vector<std::string> printed;
  for (int64_t o : options) printed.push_back(std::to_string(o));
  return options[static_cast<size_t>(decide(name, printed))];
}

int64_t Choices::factor(const std::string& name, int64_t n, int64_t lo, int64_t hi) {
  if (hi <= 0) hi = n;
  std::vector<int64_t> divisors;
  for (int64_t d = std::max<int64_t>(lo, 1); d <= std::min(hi, n); ++d)
    if (n % d == 0) divisors.push_back(d);
  if (divisors.empty())
    throw SearchError("choice point '" + name + "': " + std::to_string(n) + " has no divisor in [" +
                      std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return pick_int(name, divisors);
}

std::string Choices::pick(const std::string& name, const std::vector<std::string>& options) {
  return options[static_cast<size_t>(decide(name, options))];
}

bool Choices::flip(const std::string& name) { return decide(name, {"0", "1"}) == 1; }

std::vector<int> Choices::order(const std::string& name, int n) {
  if (n < 1 || n > 6) throw SearchError("choice point '" + name + "': orders of 1 to 6 loops");
  std::vector<int> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<std::vector<int>> all;
  std::vector<std::string> printed;
  do {
    all.push_back(perm);
    std::string s;
    for (int i : perm) s += (s.empty() ? "" : ",") + std::to_string(i);
    printed.push_back(s);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return all[static_cast<size_t>(decide(name, printed))];
}

}  // namespace exocpp::search
