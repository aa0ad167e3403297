// schedlib's own helpers, shared by its operation files (not part of schedlib.h).
#pragma once

#include <exocpp/exocpp.h>

namespace schedlib::internal {

// `target` in `p`: a pattern resolved as `kind` (core/pattern.h's find_target), or a cursor
// forwarded to `p` and converted to `kind`.
exocpp::Cursor resolve(const exocpp::Proc& p, const exocpp::CursorLike& target,
                       exocpp::TargetKind kind);

}  // namespace schedlib::internal
