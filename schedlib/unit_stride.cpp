// schedlib::specialize_unit_stride (schedlib.h): a block copied under a unit-stride test, so one
// copy may use vector instructions and the other keeps every increment.
#include <stdexcept>

#include "internal.h"
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

Cursor specialize_unit_stride(const Proc& p, const CursorLike& block,
                              const std::vector<std::string>& windows, Proc* out) {
  if (windows.empty())
    throw std::invalid_argument("schedlib::specialize_unit_stride: no window named");
  // Each window's last dimension: the one whose elements are adjacent in a row-major layout
  // (for a matrix stored by columns, viewed as [columns, rows], down a column).
  std::string cond;
  for (const std::string& w : windows) {
    const Cursor arg = p.find_alloc_or_arg(w);
    const int last = arg.type().rank() - 1;
    cond +=
        (cond.empty() ? "" : " and ") + ("stride(" + w + ", " + std::to_string(last) + ") == 1");
  }
  const Cursor target = internal::resolve(p, block, TargetKind::Block);
  *out = specialize(p, target, {cond});
  // specialize leaves `if cond: B else: B` where the block was: its first branch is the copy.
  const Cursor branch = out->forward(target.is_block() ? target[0] : target).parent();
  return branch.body().size() == 1 ? branch.body()[0] : branch.body();
}

}  // namespace schedlib
