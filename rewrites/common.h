// What every scheduling operation shares: naming targets (CursorLike), turning checker answers
// into SchedulingErrors, and the wrapper that puts the operation's name on every error.
//
// Each operation lives in its own file under rewrites/ and is laid out the same way
// (STYLE.md): its doc comment shows the rewrite rule; it resolves its arguments, runs every
// check (no IR is built until all pass), then builds the new proc and its forwarding function
// with derive_proc (core/cursor.h), so p.forward(c) works for every operation.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "checker/answer.h"
#include "checker/context.h"
#include "core/cursor.h"
#include "core/ir.h"
#include "core/parser.h"
#include "core/pattern.h"
#include "rewrites/validate.h"

namespace exocpp {

// A target named by a pattern string (core/pattern.h) or by a cursor (from this proc or one of
// its ancestors: it is forwarded, as in Exo).
class CursorLike {
 public:
  CursorLike(const char* pattern) : v_(std::string(pattern)) {}  // NOLINT: implicit by design
  CursorLike(std::string pattern) : v_(std::move(pattern)) {}    // NOLINT
  CursorLike(Cursor c) : v_(std::move(c)) {}                     // NOLINT
  bool is_pattern() const { return std::holds_alternative<std::string>(v_); }
  const std::string& pattern() const { return std::get<std::string>(v_); }
  const Cursor& cursor() const { return std::get<Cursor>(v_); }
  std::string describe() const;  // the pattern in quotes, or the cursor's printed target

 private:
  std::variant<std::string, Cursor> v_;
};

namespace rw {

// Throws SchedulingError(op, location of `where`, reason, counterexample).
[[noreturn]] void fail(const std::string& op, const Cursor& where, const std::string& reason,
                       const std::string& counterexample = "");
[[noreturn]] void fail(const std::string& op, const SrcInfo& where, const std::string& reason,
                       const std::string& counterexample = "");

// Resolves `target` in `p`: a pattern by find(), a cursor by forwarding it into `p`. Throws
// SchedulingError when nothing matches or the cursor is invalid in `p`.
Cursor resolve(const std::string& op, const Proc& p, const CursorLike& target);
// The same, requiring a statement cursor (a one-statement block is accepted).
Cursor resolve_stmt(const std::string& op, const Proc& p, const CursorLike& target);
// A loop: patterns may use the "i" / "i #n" shorthand of find_loop.
Cursor resolve_loop(const std::string& op, const Proc& p, const CursorLike& target);
// A block (a statement cursor becomes a one-statement block).
Cursor resolve_block(const std::string& op, const Proc& p, const CursorLike& target);
// A gap (a statement cursor means the gap after it, as Exo's fission does).
Cursor resolve_gap(const std::string& op, const Proc& p, const CursorLike& target);
// An allocation (or argument) named by a name, "x: _" pattern or cursor.
Cursor resolve_alloc(const std::string& op, const Proc& p, const CursorLike& target);
// An expression.
Cursor resolve_expr(const std::string& op, const Proc& p, const CursorLike& target);

// Throws SchedulingError unless `a` is proved: `what` says what had to hold ("the loop
// carries no dependence"); refutations carry the checker's counterexample, unknowns its reason.
void require_proved(const std::string& op, const Cursor& where, const checker::Answer& a,
                    const std::string& what);

// For an operation that moves or duplicates expression `e` (valid at `ctx`) so that it is
// evaluated again while or after `code` runs: throws SchedulingError unless `code` writes
// nothing `e` reads (checker::value_unchanged_by). `what` names e's role ("the bound `N` of
// loop i, re-read by the guard").
void require_unchanged(const std::string& op, const Cursor& where, const checker::Context& ctx,
                       const Expr& e, const Block& code, const std::string& what);

// For an operation whose result runs as one `par` loop iterations that the input did not
// already run in parallel with each other (fused, joined, merged or interchanged loops): throws
// SchedulingError unless the checker proves that no two iterations of `loop` conflict, reductions
// included (checker::loop_is_parallelizable); a `seq` loop passes. `ctx` is the context of the
// place the loop stands at; `what` names it ("the fused loop i").
void require_parallel(const std::string& op, const Cursor& where, const checker::Context& ctx,
                      const Stmt& loop, const std::string& what);

// Runs `body` (the operation) so that any exocpp::Error escaping it names `op`: an error that
// already names an operation passes through; others are rethrown as SchedulingError(op, ...)
// keeping their location, reason and counterexample. In validation mode (rewrites/validate.h)
// the outermost operation's result is checked against its input in the interpreter.
template <class F>
auto run_op(const std::string& op, F&& body) -> decltype(body());
[[noreturn]] void rethrow_with_op(const std::string& op, const Error& e);

// The loop statement of a loop cursor (throws SchedulingError naming `op` otherwise).
const ForNode* as_loop(const std::string& op, const Cursor& c);
// The one validator of every name an operation introduces. A new name must be a name of the
// procedure language (is_identifier), not one of its keywords (`for`, `if`, ...), and not the
// name of a proc or config `p` refers to (directly or through its callees): otherwise the
// printed proc would not parse back, or would mean something else. Throws SchedulingError
// naming `op`, the bad name and `what` it was meant to be ("new name": "'for' is not a valid
// new name: it is a keyword ...").
void check_new_name(const std::string& op, const Proc& p, const std::string& name,
                    const Cursor& where, const std::string& what = "new name");
// The same for a new proc name (rename, extract_subproc): it must also differ from `p`'s own
// name when `other_than_self` (a second proc beside `p`) and from every proc `p` calls,
// transitively, since codegen emits them into one library.
void check_new_proc_name(const std::string& op, const Proc& p, const std::string& name,
                         const SrcInfo& where, bool other_than_self);
// A call of `callee` about to be put into `p` (replace, call_eqv, insert_noop_call): refused
// when `callee`, or a proc it calls, has `p`'s name, since a printed module cannot define both
// and C cannot emit both.
void check_callee_name(const std::string& op, const Proc& p, const Proc& callee,
                       const Cursor& where);
// A fresh symbol named `name`: check_new_name, and `name` must not be used in `p` where the
// new binding would be visible (argument, loop, buffer): throws SchedulingError then, because
// a printed proc must not be ambiguous.
Sym fresh_name(const std::string& op, const Proc& p, const std::string& name, const Cursor& where);
// The variables visible at statement `index` of the list at `path` (or at a cursor): the
// proc's arguments, the enclosing loop variables, and the allocations and windows before it
// in enclosing lists: the scope in which a user's expression string is parsed (parse_expr).
std::vector<ScopeVar> scope_at(const Proc& p, const BlockPath& path, int index);
std::vector<ScopeVar> scope_at(const Cursor& c);
// Parses an expression string a user passed to an operation (a bound, a window, a new value)
// in `scope`. A syntax, name or type error in it is reported at `where` (the statement the
// expression is for, so the user sees which part of the proc), quoting the string and the
// column at fault; the operation's run_op names the operation.
Expr parse_user_expr(const Cursor& where, const std::string& text,
                     const std::vector<ScopeVar>& scope, const ParseOptions& opts = {},
                     bool allow_window = false);
// A name of the procedure language: a letter or '_', then letters, digits and '_'.
// The largest integer an operation accepts as a divisor, factor or stride: sizes and indices
// are int_fast32_t in emitted C, and the IR holds constants exactly only up to 2^53.
inline constexpr int64_t kMaxIntArg = 2147483647;
// Throws SchedulingError naming `op` unless lo <= value <= hi; `what` names the argument
// ("the divisor").
void check_int_arg(const std::string& op, const Cursor& where, const std::string& what,
                   int64_t value, int64_t lo, int64_t hi = kMaxIntArg);
bool is_identifier(const std::string& s);
// Every name bound in `p` (arguments, loop variables, allocations, windows).
std::vector<std::string> bound_names(const Proc& p);

// Every accepted rewrite returns a proc the front end accepts: names in scope, well-typed
// expressions, config writes invariant in loops; and every par loop the operation made or
// changed (a par loop node not in the result's parent) is proved parallel (require_parallel):
// a rewrite legal for a sequential loop may make the iterations of a par loop conflict. A result
// the type checker would refuse (an allocation moved away from a use, a config write put under a
// loop or a guard) is refused as the operation's own error, at the node at fault. Run by run_op on
// every Proc result; other results (a pair of procs) are checked by their operation.
void require_well_formed(const std::string& op, const Proc& result);
template <class T>
void require_well_formed(const std::string&, const T&) {}

// Whether expression cursor `c` is a buffer (data) argument of a call: the callee receives
// the caller's location, not a value, so the argument cannot be bound to a new name or
// replaced by an equal value without cutting the callee's writes off from the caller.
bool is_call_buffer_argument(const Cursor& c);

template <class F>
auto run_op(const std::string& op, F&& body) -> decltype(body()) {
  ValidationFrame frame;
  try {
    auto result = body();
    require_well_formed(op, result);
    frame.check(op, result);
    return result;
  } catch (const Error& e) {
    if (!e.op().empty()) throw;
    rethrow_with_op(op, e);
  }
}

}  // namespace rw
}  // namespace exocpp
