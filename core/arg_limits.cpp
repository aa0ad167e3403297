// integer_arg_limits (core/arg_limits.h).
#include "core/arg_limits.h"

namespace exocpp {

std::vector<std::optional<std::pair<int64_t, int64_t>>> integer_arg_limits(
    const Proc& p, const std::vector<ArgValue>& args) {
  const auto ranges = index_arg_ranges(p, args);
  std::vector<std::optional<std::pair<int64_t, int64_t>>> out(args.size());
  for (size_t a = 0; a < args.size(); ++a) {
    const Buffer* b = std::get_if<Buffer>(&args[a]);
    if (!b || !is_int_precision(b->kind())) continue;
    if (a < ranges.size() && ranges[a]) {
      if (ranges[a]->first < ranges[a]->second)
        out[a] = std::make_pair(ranges[a]->first, ranges[a]->second - 1);
      continue;
    }
    out[a] = int_precision_limits(b->kind());
  }
  return out;
}

}  // namespace exocpp
