// ============================================================================================
// replace_once: Exo's stdlib replace_once, each subproc of a list replacing the first block it
// unifies with.
// ============================================================================================
//
// For each subproc in turn, replace_all's sweep (rw::replace_matches, outermost first and in
// program order) stops at the first block that unifies with its body and replaces it by a call,
// through replace's own rule and checks. A subproc that unifies nowhere changes nothing.
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/replace.h"

namespace exocpp {

Proc replace_once(const Proc& p, const std::vector<Proc>& subprocs) {
  return rw::run_op("replace_once",
                    [&]() -> Proc { return rw::replace_matches(p, subprocs, true); });
}

}  // namespace exocpp
