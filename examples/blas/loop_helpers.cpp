// Loop helpers of the BLAS example (see loop_helpers.h).
#include "loop_helpers.h"

#include <vector>

namespace blas_example {

using namespace exocpp;

namespace {

// The loops inside `block`, at any depth, that run `seq(0, count)`.
std::vector<Cursor> loops_up_to(const Cursor& block, const std::string& count) {
  std::vector<Cursor> loops, work = {block};
  while (!work.empty()) {
    const Cursor b = work.back();
    work.pop_back();
    for (int i = 0; i < b.size(); ++i) {
      const Cursor s = b[i];
      if (s.stmt().kind() == StmtKind::For) {
        if (s.hi().to_string() == count) loops.push_back(s);
        work.push_back(s.body());
      } else if (s.stmt().kind() == StmtKind::If) {
        work.push_back(s.body());
        if (s.orelse().is_valid()) work.push_back(s.orelse());
      }
    }
  }
  return loops;
}

}  // namespace

Proc unroll_all(Proc p, const std::string& iter) {
  while (!p.find_all("for " + iter + " in _: _").empty())
    p = unroll_loop(p, "for " + iter + " in _: _");
  return p;
}

Proc specialize_count(Proc p, const Cursor& guard, const std::string& count, int max) {
  std::vector<std::string> cases;
  for (int v = 1; v < max - 1; ++v) cases.push_back(count + " == " + std::to_string(v));
  p = specialize(p, p.forward(guard).body(), cases);
  // The versions: if count == 1: .. else: if count == 2: .. ... else: (count == max - 1)
  Cursor version = p.forward(guard).body()[0];
  for (int v = 1; v < max; ++v) {
    // `version` is the if of count == v, or of count == max - 2 for the last version, its else.
    const Cursor block = v < max - 1 ? version.body() : version.orelse();
    for (const Cursor& loop : loops_up_to(block, count))
      p = rewrite_expr(p, p.forward(loop).hi(), std::to_string(v));
    if (v < max - 2) version = p.forward(version).orelse()[0];
    version = p.forward(version);
  }
  return p;
}

}  // namespace blas_example
