// Type checker. (Placeholder: accepts everything; replaced by the real checker.)
#include "core/typecheck.h"

namespace exocpp {

void typecheck(const Proc&) {}
void typecheck(const Module& m) {
  for (const Proc& p : m.procs) typecheck(p);
}

}  // namespace exocpp
