// The frame of every scheduling operation (rewrites/<op>.cpp): errors that name the operation,
// checker answers turned into refusals, the wrapper run_op, and the checks every result passes.
//
// Each operation lives in its own file under rewrites/ and is laid out the same way: its doc
// comment shows the rewrite rule; it resolves its arguments (rewrites/internal/targets.h), runs
// every check (no IR is built until all pass), then describes its change to an rw::Edit
// (rewrites/internal/edit.h), which makes the new proc and its forwarding, so p.forward(c)
// works for every operation.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "checker/answer.h"
#include "checker/context.h"
#include "core/cursor.h"
#include "core/errors.h"
#include "core/ir.h"
#include "rewrites/validate.h"

namespace exocpp::rw {

// The frame run_op opens around an operation: it holds the operation's name, which every
// refusal thrown while it is open carries (the innermost frame's, when one operation runs
// another), so no helper takes the name as a parameter. The outermost frame on a thread, when
// validation is on, also records the procs the operation derives (derive_proc) and, on success,
// validates the result against the operation's input (the first ancestor of the result that
// the operation did not make), throwing InternalError on a difference.
class OpFrame {
 public:
  explicit OpFrame(std::string name);
  ~OpFrame();
  OpFrame(const OpFrame&) = delete;
  OpFrame& operator=(const OpFrame&) = delete;
  const std::string& name() const { return name_; }
  void check(const Proc& result);
  template <class T>
  void check(const T&) {}  // results other than a Proc are not validated

 private:
  std::string name_;
  const OpFrame* outer_ = nullptr;
  bool active_ = false;
  std::vector<Proc> log_;
  std::vector<Proc>* saved_log_ = nullptr;
};

// The name of the innermost open operation on this thread ("" outside every operation).
const std::string& current_op();

// Throws SchedulingError(current_op(), why, location of `where`, text, counterexample): every
// refusal names its reason from the one table (core/reasons.h, `reason::k...`), which gives its
// code and id; `text` says what is wrong here.
[[noreturn]] void fail(const Reason& why, const Cursor& where, const std::string& text,
                       const std::string& counterexample = "");
[[noreturn]] void fail(const Reason& why, const SrcInfo& where, const std::string& text,
                       const std::string& counterexample = "");

// The text of a refusal, built only when the refusal is thrown: a string, or a function that
// makes one (`[&] { return "'" + to_string(e) + "' is positive"; }`), so that a check that passes
// prints no IR.
class Message {
 public:
  Message(const char* s) : fixed_(s) {}
  Message(std::string s) : fixed_(std::move(s)) {}
  template <class F, class = std::enable_if_t<std::is_invocable_r_v<std::string, const F&>>>
  Message(F f) : make_(std::move(f)) {}
  std::string str() const { return make_ ? make_() : fixed_; }

 private:
  std::string fixed_;
  std::function<std::string()> make_;
};

// Throws SchedulingError unless `a` is proved: `what` says what had to hold ("the loop
// carries no dependence"); a refutation is refused for `why` (a NotProved reason) with the
// checker's counterexample, an unknown is reason::kCheckerUnknown with the checker's reason.
void require_proved(const Cursor& where, const checker::Answer& a, const Message& what,
                    const Reason& why = reason::kCheckerRefuted);

// For an operation that moves or duplicates expression `e` (valid at `ctx`) so that it is
// evaluated again while or after `code` runs: throws SchedulingError unless `code` writes
// nothing `e` reads (checker::value_unchanged_by). `what` names e's role ("the bound `N` of
// loop i, re-read by the guard").
void require_unchanged(const Cursor& where, const checker::Context& ctx, const Expr& e,
                       const Block& code, const Message& what);

// For an operation whose result runs as one `par` loop iterations that the input did not
// already run in parallel with each other (fused, joined, merged or interchanged loops): throws
// SchedulingError unless the checker proves that no two iterations of `loop` conflict, reductions
// included (checker::loop_is_parallelizable); a `seq` loop passes. `ctx` is the context of the
// place the loop stands at; `what` names it ("the fused loop i").
void require_parallel(const Cursor& where, const checker::Context& ctx, const Stmt& loop,
                      const Message& what);

// Proves that two index lists name the same location in `ctx` (syntactically equal ones need
// no proof); throws SchedulingError saying `what` does not hold otherwise.
void require_same_location(const Cursor& where, const checker::Context& ctx,
                           const std::vector<Expr>& a, const std::vector<Expr>& b,
                           const Message& what);

// Refuses a buffer extent that is not built from the proc's arguments and constants (the type
// checker's rule for shapes): `what` names it in the message.
void require_size_expr(const Cursor& where, const Expr& e, const std::string& what);

// Runs `body` (the operation) in an OpFrame named `op`, so that any exocpp::Error escaping it
// names `op`: an error that already names an operation passes through; others (a TypeError,
// ParseError) are rethrown as SchedulingError(op, ...) with code BadArgument, keeping their
// location, reason and counterexample, and nesting the original (std::rethrow_if_nested gives it
// back). In validation mode (rewrites/validate.h) the outermost operation's result is checked
// against its input in the interpreter.
template <class F>
auto run_op(const std::string& op, F&& body) -> decltype(body());
// A refusal of an operation this one ran (fission inside autofission), rethrown with its place,
// counterexample, code and reason id under this operation's name, its reason after `prefix`.
[[noreturn]] void rethrow_as_current(const SchedulingError& e, const std::string& prefix = "");
// run_op's handler: rethrows `e` (being handled) as described above, named by current_op().
[[noreturn]] void rethrow_in_frame(const Error& e);

// A target of the wrong kind for the operation (BadArgument target.wrong_kind): "expected
// `expected`, but '<the target as it reads>' is not one".
[[noreturn]] void fail_wrong_kind(const Cursor& c, const std::string& expected);
// The statement node of kind N at statement cursor `c`; fail_wrong_kind(c, expected)
// otherwise (`expected` reads like "an assignment").
template <class N>
const N* stmt_as(const Cursor& c, const std::string& expected) {
  const N* n = c.is_stmt() ? c.stmt().as<N>() : nullptr;
  if (!n) fail_wrong_kind(c, expected);
  return n;
}
// The loop statement of a loop cursor (throws SchedulingError otherwise).
const ForNode* as_loop(const Cursor& c);

// The largest integer an operation accepts as a divisor, factor or stride: sizes and indices
// are int_fast32_t in emitted C, and the IR holds constants exactly only up to 2^53.
inline constexpr int64_t kMaxIntArg = 2147483647;
// Throws SchedulingError unless lo <= value <= hi; `what` names the argument
// ("the divisor").
void check_int_arg(const Cursor& where, const std::string& what, int64_t value, int64_t lo,
                   int64_t hi = kMaxIntArg);

// Every accepted rewrite returns a proc the front end accepts: names in scope, well-typed
// expressions, config writes invariant in loops; and every par loop the operation made or
// changed (a par loop node not in the result's parent) is proved parallel (require_parallel):
// a rewrite legal for a sequential loop may make the iterations of a par loop conflict. A result
// the type checker would refuse (an allocation moved away from a use, a config write put under a
// loop or a guard) is refused as the operation's own error, at the node at fault. Run by run_op on
// every Proc result; other results (a pair of procs) are checked by their operation.
void require_well_formed(const Proc& result);
template <class T>
void require_well_formed(const T&) {}

template <class F>
auto run_op(const std::string& op, F&& body) -> decltype(body()) {
  OpFrame frame(op);
  try {
    auto result = body();
    require_well_formed(result);
    frame.check(result);
    return result;
  } catch (const Error& e) {
    if (!e.op().empty()) throw;
    rethrow_in_frame(e);
  }
}

}  // namespace exocpp::rw
