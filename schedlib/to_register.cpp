// schedlib::to_register (schedlib.h): equal expressions of a lane loop into a register of lanes.
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

Proc to_register(Proc p, const std::vector<Cursor>& es, const std::string& name, int width,
                 const std::string& lane) {
  p = bind_expr(p, std::vector<CursorLike>(es.begin(), es.end()), name);
  p = expand_dim(p, name, std::to_string(width), lane);
  p = lift_alloc(p, name);
  return fission(p, p.find(name + "[_] = _").after());
}

}  // namespace schedlib
