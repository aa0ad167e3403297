// ============================================================================================
// write_config: insert a config write at a gap.
// ============================================================================================
//
//   s1 ; <gap> ; s3   -->   s1 ; config.field = rhs ; s3
//
// `rhs` is parsed in the scope of the gap. Legality (Exo's rule for inserting a config write):
// rhs fits the field's type, and the write changes no later read — the field already holds
// rhs there, or nothing after the gap reads it before a write replaces it. The result must
// type-check (config writes may not depend on loop variables).
#include "core/printer.h"
#include "rewrites/configs.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc write_config(const Proc& p, const CursorLike& gap, const Config& config,
                  const std::string& field, const std::string& rhs) {
  return rw::run_op("write_config", [&]() -> Proc {
    Cursor g = rw::resolve_gap(p, gap);
    const ConfigField& f = rw::config_field(g, config, field);
    const BlockPath& path = g.loc().block;
    const int k = g.loc().lo;
    ParseOptions po;
    po.configs.push_back(config);
    Expr e = rw::parse_user_expr(g, rhs, rw::scope_at(p, path, k), po);
    rw::check_fits_field(g, config, f, e);
    const bool final_only = rw::require_invisible_write(g, p, path, k, k, config, field, e);

    Stmt write = WriteConfigNode::make(config, field, e, g.srcinfo());
    rw::Edit edit(p);
    edit.insert(path, k, {write});
    rw::typecheck_candidate(edit.node(), "the new write is ill-typed");
    // A write seen only by the caller (the final config state): recorded for call_eqv.
    if (final_only) rw::record_final_config(edit.node(), config, field);
    return edit.done();
  });
}

}  // namespace exocpp
