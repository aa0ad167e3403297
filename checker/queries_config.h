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
#include "checker/context.h"
#include "checker/effects.h"
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

// `e` (an expression valid at the gap (path, index)) with each config read whose value is known
// there replaced by that value: the right-hand side of the last write of the field before the
// gap, when nothing in between may write the field or change what the right-hand side reads
// (as config_holds decides). Reads of fields whose value is not known stay. The checker does
// not model config values, so a fact about a config read (a callee's assert such as
// `stride(src, 0) == Cfg.src_stride` at a call) becomes decidable this way.
// `entry_values`: a field the proc has not written stands for the value it held on entry (a
// variable of its own, any value the caller may leave there); false leaves its read as it is.
Expr with_config_values(const Proc& proc, const BlockPath& path, int index, const Expr& e,
                        bool entry_values = true);

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

// For fission of `loop` (running in `ctx`) between `before` and `after` (its body's statements
// on either side of the gap, with effects `eff_before` and `eff_after`): the config fields whose
// accesses the split cannot reorder observably, so the dependence search may leave them out. A
// field qualifies when `before` writes it in every iteration (a top-level write, or one inside
// top-level loops that provably run), every write of it in `before` writes the same expression
// V, V mentions no iterator of the loop or of `before` and reads nothing `before` or `after`
// writes (so it has one value throughout the loop), and `after` never writes the field. Then
// every read after the gap sees V with or without the split, reads before the gap see what the
// previous iteration left (V) or the value before the loop, and the field ends holding V. This
// is Exo's rule that a config write which does not change the field's value commutes with
// reads of it (Commutes_Fissioning).
std::vector<std::pair<Config, std::string>> config_fields_settled_before(
    const Context& ctx, const ForNode& loop, const Block& before, const Block& after,
    const Effects& eff_before, const Effects& eff_after);

}  // namespace exocpp::checker
