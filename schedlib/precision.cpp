// schedlib::with_precision (schedlib.h): a proc written in R made one precision.
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

Proc with_precision(Proc p, const std::string& type) {
  for (const FnArg& a : p.args())
    if (a.type.base == ScalarKind::R) p = set_precision(p, a.name.name(), type);
  for (const Cursor& alloc : p.find_all("_ : _"))
    if (p.forward(alloc).type().base == ScalarKind::R) p = set_precision(p, alloc, type);
  return p;
}

}  // namespace schedlib
