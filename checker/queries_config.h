// Legality queries about configuration VALUES (what a config field holds at a point of a proc,
// and whether that value is read later), for the config-state rewrites (bind_config,
// write_config, delete_config). checker/queries.h models config fields only as locations;
// these queries follow the proc's control flow to decide Exo's rule for inserting or deleting a
// config write: the change is invisible when the field already holds the written value, or
// when no later code reads the field before a write definitely replaces it.
//
// Points are gaps: `index` of the statement list at `path` (index == size: the end of the list).
// Both queries are sound and conservative: any doubt answers Unknown (or Refuted with the read
// at fault), which a rewrite treats as a refusal.
#pragma once

#include <string>

#include "checker/answer.h"
#include "core/ir.h"
#include "core/loc.h"

namespace exocpp::checker {

// Does `cfg.field` hold `value` at the gap (path, index)? `value` is an expression valid at the
// gap. Proved when the last write of the field before the gap (walking back through the
// enclosing lists) writes an expression equal to `value` (structurally, or proved equal for
// index arithmetic), and nothing between that write and the gap changes what its right-hand
// side reads. Unknown when some statement in between may write the field, when an enclosing
// loop writes it, or when no write precedes the gap in the proc (the caller's value).
Answer config_holds(const Proc& proc, const BlockPath& path, int index, const Config& cfg,
                    const std::string& field, const Expr& value);

// Is the value `cfg.field` holds at the gap (path, index) never read afterwards? Code runs from
// the gap to the end of its list, then (in a loop body) from the top of the next iteration's
// body, then after the enclosing statement, and so on to the end of the proc. Proved when a
// write that definitely replaces the field (an unconditional write, or one on both branches of
// an if, also inside a callee) comes before any possible read, or when the end of the proc is
// reached unread (then only the final config state the caller sees differs, which Exo allows:
// `escapes`, when given, is set). Refuted, naming the read, otherwise. Reads include callee
// asserts and reads inside callees.
Answer config_unread_after(const Proc& proc, const BlockPath& path, int index, const Config& cfg,
                           const std::string& field, bool* escapes = nullptr);

// Whether the statements may write `cfg.field` (directly or inside a callee).
bool may_write_config(const Block& code, const Config& cfg, const std::string& field);

}  // namespace exocpp::checker
