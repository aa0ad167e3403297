// Private helpers of the config-state and memory operations (see config_fields.h).
#include "rewrites/internal/config_fields.h"

#include "checker/queries_config.h"
#include "core/printer.h"
#include "core/typecheck.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"

namespace exocpp::rw {

const ConfigField& config_field(const Cursor& where, const Config& cfg, const std::string& field) {
  if (!cfg) fail(reason::kArgInvalid, where, "no config given");
  if (const ConfigField* f = cfg->field(field)) return *f;
  std::string have;
  for (const ConfigField& f : cfg->fields) have += (have.empty() ? "" : ", ") + f.name;
  fail(reason::kArgUndefined, where,
       "config '" + cfg->name + "' has no field '" + field + "' (its fields: " + have + ")");
}

void check_fits_field(const Cursor& where, const Config& cfg, const ConfigField& f, const Expr& e) {
  const Type& t = e.type();
  bool ok = false;
  if (t.is_scalar()) {
    if (is_data(f.type))
      ok = is_data(t.base) || t.base == ScalarKind::Int;
    else if (is_indexable(f.type))
      ok = is_indexable(t.base);
    else if (f.type == ScalarKind::Bool)
      ok = t.base == ScalarKind::Bool;
    else if (f.type == ScalarKind::Stride)
      ok = t.base == ScalarKind::Stride || t.base == ScalarKind::Int;
  }
  if (!ok)
    fail(reason::kArgType, where,
         "'" + to_string(e) + "' has type " + to_string(t) + ", which does not fit " + cfg->name +
             "." + f.name + " of type " + to_string(f.type));
}

bool require_invisible_write(const Cursor& where, const Proc& p, const BlockPath& path, int index,
                             int after, const Config& cfg, const std::string& field,
                             const Expr& value, const Proc* without) {
  bool escapes = false;
  checker::Answer unread = checker::config_unread_after(p, path, after, cfg, field, &escapes);
  if (unread.proved() && !escapes) return false;
  checker::Answer holds =
      checker::config_holds(without ? *without : p, path, index, cfg, field, value);
  if (holds.proved()) return false;
  if (unread.proved()) return true;
  std::string f = cfg->name + "." + field;
  fail(reason::kConfigObservable, where,
       "requires that " + f + " already holds " + to_string(value) +
           " here or is not read afterwards, but " + unread.counterexample + "; and " +
           (holds.reason.empty() ? "its value here is unknown" : holds.reason),
       holds.counterexample);
}

void record_final_config(ProcNode& node, const Config& cfg, const std::string& field) {
  for (const auto& [c, f] : node.eqv_configs)
    if (c->name == cfg->name && f == field) return;
  node.eqv_configs.emplace_back(cfg, field);
}

void typecheck_candidate(const ProcNode& candidate, const std::string& why, const SrcInfo* at) {
  try {
    // Mid-schedule, plain code may still touch a buffer already moved to a register memory
    // (its copy loops are replaced by instructions next), and a kernel may be half made (its
    // loops become GPU loops one step at a time); codegen enforces those rules.
    typecheck(Proc(ProcNode::make(candidate)), {.memory_access = false, .cuda_structure = false});
  } catch (const TypeError& e) {
    fail(reason::kResultIllTyped, at ? *at : e.loc(), why + ": " + e.reason());
  }
}

}  // namespace exocpp::rw
