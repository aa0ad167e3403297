// Private helpers of the config-state and memory operations (rewrites/configs.h,
// rewrites/memories.h): field lookup and type fit, Exo's "invisible config write" rule, and
// the type check of a candidate proc before it is returned.
#pragma once

#include <functional>
#include <string>

#include "core/ir.h"

namespace exocpp::rw {

// The field `field` of `cfg`; refuses (listing the fields) when there is none.
const ConfigField& config_field(const Cursor& where, const Config& cfg, const std::string& field);
// Refuses unless a scalar value `e` fits a config field of type `ft` (as the type checker
// would accept `cfg.field = e`).
void check_fits_field(const Cursor& where, const Config& cfg, const ConfigField& f, const Expr& e);
// Exo's rule for inserting (or deleting) `cfg.field = value` at the gap (path, index): refuses
// unless the field already holds `value` there or the value at that point is never read
// afterwards (checker/queries_config.h). `after` is the gap from which reads are looked for.
// "Already holds" is asked of `without` (the proc without the write: `p` itself when a write is
// inserted, the candidate when one is deleted), so a write repeated by every iteration of a
// loop is redundant when the field holds its value before the loop: by induction over the
// executions of the write, each one writes what the field already holds.
// Returns true when the change is visible only in the config state the proc leaves to its caller
// (the value reaches the end of the proc unread and the field may not already hold it): the
// operation must then record the field in its result's equivalence record (record_final_config).
bool require_invisible_write(const Cursor& where, const Proc& p, const BlockPath& path, int index,
                             int after, const Config& cfg, const std::string& field,
                             const Expr& value, const Proc* without = nullptr);
// Adds `cfg.field` to node.eqv_configs (the fields whose final value may differ within the
// equivalence class; call_eqv checks them at each call).
void record_final_config(ProcNode& node, const Config& cfg, const std::string& field);
// Type-checks the proc a rewrite is about to return; a TypeError becomes a refusal at the
// offending node (or at `at`, when the node came from a user's string), with `why` in front of
// the type checker's reason.
void typecheck_candidate(const ProcNode& candidate, const std::string& why,
                         const SrcInfo* at = nullptr);

}  // namespace exocpp::rw
