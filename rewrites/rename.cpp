// ============================================================================================
// rename: give a proc a new name.
// ============================================================================================
//
//   def f(...): s   -->   def new_name(...): s
//
// Nothing inside the proc moves, so every cursor forwards to itself.
#include "rewrites/internal/edit.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc rename(const Proc& p, const std::string& name) {
  return rw::run_op("rename", [&]() -> Proc {
    rw::check_new_proc_name(p, name, p->srcinfo, /*other_than_self=*/false);
    rw::Edit edit(p);
    edit.node().name = name;
    return edit.done();
  });
}

}  // namespace exocpp
