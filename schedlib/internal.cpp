// schedlib's own helpers (internal.h).
#include "internal.h"

namespace schedlib::internal {

using namespace exocpp;

Cursor resolve(const Proc& p, const CursorLike& target, TargetKind kind) {
  if (target.is_pattern()) return find_target(p, target.pattern(), kind, "schedlib");
  return as_target(p.forward(target.cursor()), kind, target.describe(), "schedlib");
}

}  // namespace schedlib::internal
