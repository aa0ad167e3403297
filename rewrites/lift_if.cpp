// ============================================================================================
// lift_if: Exo's stdlib lift_if, an if moved up past the loops and ifs around it n times.
// ============================================================================================
//
//   for i in _:                     if p:
//       if p: s1         -->            for i in _: s1
//       else: s2                    else:
//                                       for i in _: s2
//
// n_lifts applications of lift_scope to the if (each forwarded to where the previous one put
// it), so every condition is lift_scope's. A refusal after k lifts says how many remain and
// carries lift_scope's reason, as Exo's does. The target must be an if (lift_scope would also
// move a loop).
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

Proc lift_if(const Proc& p, const CursorLike& if_stmt, int n_lifts) {
  return rw::run_op("lift_if", [&]() -> Proc {
    const Cursor target = rw::resolve_stmt(p, if_stmt);
    if (!target.stmt().as<IfNode>())
      rw::fail(reason::kTargetWrongKind, target, "the target must be an if statement");
    if (n_lifts < 1) rw::fail(reason::kArgRange, target, "n_lifts must be at least 1");
    Proc q = p;
    for (int k = 0; k < n_lifts; ++k) {
      try {
        q = lift_scope(q, q.forward(target));
      } catch (const SchedulingError& e) {
        rw::rethrow_as_current(e, "could not lift the if " + std::to_string(n_lifts) +
                                      " time(s): " + std::to_string(n_lifts - k) +
                                      " lift(s) remain: ");
      }
    }
    return q;
  });
}

}  // namespace exocpp
