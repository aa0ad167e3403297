// ============================================================================================
// bind_config: bind an expression to a config field.
// ============================================================================================
//
//   s[ e ]   -->   config.field = e ; s[ config.field ]
//
// The write goes right before s, the innermost statement holding e (s evaluates e before it
// can write anything, so its read of the field sees e). Legality (Exo's rule for inserting a
// config write): e fits the field's type — for a data field, the write keeps e's value exactly
// (rw::store_keeps_value) and the operators around e keep their arithmetic with a read of the
// field in its place (rw::require_arithmetic_kept) — and the new write changes no later read — the
// field already holds e there, or nothing from s on reads it before a write replaces it. When s is
// a loop whose bound is e, its body must not write the field. The result must type-check (config
// writes may not depend on loop variables). A buffer argument of a call is a location, not a
// value: it is never bound.
#include "checker/queries_config.h"
#include "core/printer.h"
#include "rewrites/configs.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc bind_config(const Proc& p, const CursorLike& expr, const Config& config,
                 const std::string& field) {
  return rw::run_op("bind_config", [&]() -> Proc {
    Cursor c = rw::resolve_expr(p, expr);
    const Expr e = c.expr();
    if (rw::is_call_buffer_argument(c))
      rw::fail(reason::kTargetWrongKind, c,
               "'" + c.to_string() +
                   "' is a buffer argument of the call: the callee receives its location, not a "
                   "value, so the callee's writes would no longer reach it");
    const ConfigField& f = rw::config_field(c, config, field);
    rw::check_fits_field(c, config, f, e);
    const BlockPath& path = c.loc().block;
    const int k = c.loc().lo;
    const Stmt s = c.list()[static_cast<size_t>(k)];
    if (const ForNode* loop = s.as<ForNode>())
      if (checker::may_write_config(loop->body, config, field))
        rw::fail(
            reason::kDepReadWritten, c,
            "the loop reads its bound once, but its body writes " + config->name + "." + field);
    const bool final_only = rw::require_invisible_write(c, p, path, k, k, config, field, e);

    Stmt write = WriteConfigNode::make(config, field, e, s.srcinfo());
    const Expr read = ReadConfigNode::make(config, field, e.srcinfo());
    Stmt bound = replace_expr(s, c.loc().expr, read);
    // Precision (internal/precision.h): the field holds e rounded or wrapped to its type, and
    // the operators around e then compute with a value of that type.
    if (is_data(f.type)) {
      if (!rw::store_keeps_value(e, f.type))
        rw::fail(reason::kPrecisionStore, c,
                 config->name + "." + field + " (" + to_string(f.type) +
                     ") does not hold the value of '" + to_string(e) + "' (of type " +
                     to_string(e.type().base) + ") exactly: the write rounds or wraps it");
      rw::require_arithmetic_kept(c, Block{s}, Block{bound},
                                  "reading " + config->name + "." + field + " (" +
                                      to_string(f.type) + ") where '" + to_string(e) + "' stood");
    }
    rw::Edit edit(p);
    edit.insert(path, k, {write}).rewrite(path, k + 1, k + 2, {bound});
    rw::typecheck_candidate(edit.node(), "the bound proc is ill-typed");
    // A write seen only by the caller (the final config state): recorded for call_eqv.
    if (final_only) rw::record_final_config(edit.node(), config, field);
    return edit.done();
  });
}

}  // namespace exocpp
