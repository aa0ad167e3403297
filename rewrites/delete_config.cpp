// ============================================================================================
// delete_config: delete a redundant or dead config write.
// ============================================================================================
//
//   s1 ; config.field = e ; s3   -->   s1 ; s3
//
// Legality (Exo's rule for deleting a config write): no later read sees a different value —
// the field already holds e before the write (in the proc without it: an earlier write of an
// equal expression, with no
// possible write of the field and no change to what e reads in between), or nothing after the
// write reads the field before a write replaces it. A dead write whose value reaches the end
// of the proc changes only the config state the caller sees afterwards, as in Exo: the result
// then records the field (ProcNode::eqv_configs), and call_eqv checks at each call that the
// caller does not read it before overwriting it.
#include "core/printer.h"
#include "rewrites/configs.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc delete_config(const Proc& p, const CursorLike& write_stmt) {
  return rw::run_op("delete_config", [&]() -> Proc {
    Cursor c = rw::resolve_stmt(p, write_stmt);
    const WriteConfigNode* w = rw::stmt_as<WriteConfigNode>(c, "a config write (Cfg.field = e)");
    const BlockPath& path = c.loc().block;
    const int k = c.loc().lo;
    rw::Edit edit(p);
    edit.remove(path, k, k + 1);
    const Proc candidate = edit.candidate();
    if (rw::require_invisible_write(c, p, path, k, k + 1, w->config, w->field, w->rhs, &candidate))
      rw::record_final_config(edit.node(), w->config, w->field);
    return edit.done();
  });
}

}  // namespace exocpp
