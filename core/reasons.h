// The one table of refusal reasons: every SchedulingError names one, and its code comes from here.
//
// A reason is a stable id ("loop.bound_not_constant"), the ErrorCode it always carries and what
// it means. Programs decide on the code and the id, never on the message text. Operations name a
// reason by its constant (`rw::fail(reason::kStmtForm, where, text)`), so an id cannot be paired
// with another code and an unknown id does not compile. docs/scheduling.md lists every reason
// with its code; scripts/check-conventions.sh fails when the two lists differ.
#pragma once

#include <span>

namespace exocpp {

// What kind of refusal a SchedulingError is. Programs decide on the code and the reason id,
// never on the message text (replace_all skips a block whose replacement is NotProved, never
// one that is Unknown).
enum class ErrorCode {
  NotFound,     // the target does not exist: no match, a count past the matches, a removed cursor
  BadArgument,  // a malformed argument: a target of the wrong kind, a bad name, number or
                // expression string, an undefined proc
  NotProved,    // a condition the rewrite needs does not hold: the checker refuted it (with a
                // counterexample), or the code is not of the form the rule requires
  Unknown,      // the checker could not decide a condition (solver time-out, outside its logic)
  Unsupported,  // a legal request exocpp does not implement
};
const char* to_string(ErrorCode c);  // "not found", "bad argument", ...

// One reason for a refusal: its id (family.name), its code, and a one-line meaning.
struct Reason {
  const char* id;
  ErrorCode code;
  const char* meaning;
};

// Every reason: X(constant, id, code, meaning). Ids are grouped by concept and shared across
// operations; a new one is added here and to docs/scheduling.md's table.
#define EXOCPP_FOR_EACH_REASON(X)                                                                  \
  /* The target. */                                                                                \
  X(kTargetNoMatch, "target.no_match", NotFound, "no code matches the pattern")                    \
  X(kTargetCount, "target.count", NotFound, "the pattern asks for a match past the last one")      \
  X(kTargetRemoved, "target.removed", NotFound, "an earlier rewrite removed the cursor's target")  \
  X(kTargetWrongKind, "target.wrong_kind", BadArgument,                                            \
    "the target is not of the kind the operation takes (a loop, an assignment, an argument)")      \
  X(kTargetNotAdjacent, "target.not_adjacent", BadArgument,                                        \
    "two targets that must be neighbours (fuse, join_loops) are not")                              \
  /* Malformed arguments. */                                                                       \
  X(kArgRange, "arg.range", BadArgument, "a number outside the range the operation accepts")       \
  X(kArgName, "arg.name", BadArgument, "a new name that is not valid or not free")                 \
  X(kArgExpression, "arg.expression", BadArgument,                                                 \
    "an expression string that is not the kind of expression the operation takes")                 \
  X(kArgParseOrType, "arg.parse_or_type", BadArgument,                                             \
    "the front end refused an argument string (its ParseError or TypeError is nested)")            \
  X(kArgCursor, "arg.cursor", BadArgument, "a cursor misused (InvalidCursorError nested)")         \
  X(kArgUndefinedProc, "arg.undefined_proc", BadArgument, "a default-constructed Proc")            \
  X(kArgType, "arg.type", BadArgument,                                                             \
    "an argument of the wrong type (not a data type, a value that does not fit its field)")        \
  X(kArgUndefined, "arg.undefined", BadArgument,                                                   \
    "an argument names something that does not exist (an unregistered memory, a missing field)")   \
  X(kArgInvalid, "arg.invalid", BadArgument, "another malformed argument")                         \
  /* The checker's answers. */                                                                     \
  X(kCheckerRefuted, "checker.refuted", NotProved,                                                 \
    "the checker refuted a condition of the rewrite (with a counterexample)")                      \
  X(kCheckerValueChanged, "checker.value_changed", NotProved,                                      \
    "an expression moved or duplicated would read a value the code in between changes")            \
  X(kCheckerParConflict, "checker.par_conflict", NotProved,                                        \
    "two iterations of a par loop the rewrite made or changed may conflict")                       \
  X(kCheckerCudaRace, "checker.cuda_race", NotProved,                                              \
    "the threads of a CUDA kernel the rewrite made or changed may race")                           \
  X(kCheckerUnknown, "checker.unknown", Unknown,                                                   \
    "the checker could not decide a condition (time-out, outside its logic)")                      \
  /* Dependences and scopes. */                                                                    \
  X(kDepReadWritten, "dep.read_written", NotProved,                                                \
    "a value the rewrite reads at another place (or reuses) is written in between")                \
  X(kDepLoopVariant, "dep.loop_variant", NotProved,                                                \
    "a bound, condition or factor the rewrite needs fixed depends on a loop's iteration")          \
  X(kScopeEscapes, "scope.escapes", NotProved,                                                     \
    "a name declared in the code the rewrite moves or encloses is used outside it")                \
  X(kScopeNotVisible, "scope.not_visible", NotProved,                                              \
    "an expression reads a name that is not visible where the rewrite puts it")                    \
  X(kScopeShadowed, "scope.shadowed", NotProved,                                                   \
    "two variables of one name would be confused (one hides the other)")                           \
  /* Allocations and buffers. */                                                                   \
  X(kAllocLive, "alloc.live", NotProved,                                                           \
    "the buffer is still used where the rewrite needs it dead")                                    \
  X(kAllocMismatch, "alloc.mismatch", NotProved, "two buffers differ in type or memory")           \
  X(kAllocSharedByParallel, "alloc.shared_by_parallel", NotProved,                                 \
    "the parallel iterations of a loop would share one buffer")                                    \
  X(kResultIllTyped, "result.ill_typed", NotProved,                                                \
    "the rewritten proc would not type-check (a use moved from its declaration, say)")             \
  X(kAllocSize, "alloc.size", NotProved,                                                           \
    "a buffer extent is not built from size arguments and constants")                              \
  X(kBufferLayoutUse, "buffer.layout_use", NotProved,                                              \
    "a use that sees the buffer's layout (passed whole, windowed, its stride) would see it "       \
    "change")                                                                                      \
  X(kBufferOtherUse, "buffer.other_use", NotProved,                                                \
    "the buffer is used, or may be, where the rewrite cannot follow it")                           \
  X(kBufferAliased, "buffer.aliased", NotProved,                                                   \
    "the buffer is also reached through another name (a window, a second argument)")               \
  X(kBufferNotAccessed, "buffer.not_accessed", NotProved,                                          \
    "the code does not access the buffer, so there is nothing to do")                              \
  X(kBufferNotConstant, "buffer.not_constant", NotProved,                                          \
    "a dimension or index the rewrite needs constant is not")                                      \
  X(kBufferOutOfBounds, "buffer.out_of_bounds", NotProved,                                         \
    "a constant index is outside its dimension")                                                   \
  /* Statements and loops. */                                                                      \
  X(kStmtForm, "stmt.form", NotProved,                                                             \
    "the code is not of the form the rule rewrites (a statement, operand or nest of other shape)") \
  X(kStmtOrder, "stmt.order", NotProved,                                                           \
    "statements the operation relates are not in the order or list it requires")                   \
  X(kStmtNoNext, "stmt.no_next", NotProved, "there is no statement after the target")              \
  X(kStmtNoEnclosingScope, "stmt.no_enclosing_scope", NotProved,                                   \
    "the target is at the top level, with no loop or if around it")                                \
  X(kStmtEmptyPart, "stmt.empty_part", NotProved, "the split would leave one part empty")          \
  X(kLoopLowerBoundNotZero, "loop.lower_bound_not_zero", NotProved,                                \
    "the rule needs a loop that starts at 0")                                                      \
  X(kLoopBoundNotConstant, "loop.bound_not_constant", NotProved,                                   \
    "the rule needs constant loop bounds")                                                         \
  X(kLoopNotAPerfectNest, "loop.not_a_perfect_nest", NotProved,                                    \
    "the rule needs a loop whose body is exactly one loop or if")                                  \
  X(kLoopMode, "loop.mode", NotProved,                                                             \
    "the loop's mode (seq, par, a CUDA mode) is not one the rewrite takes")                        \
  X(kLoopTooManyCopies, "loop.too_many_copies", Unsupported,                                       \
    "unrolling would make more statements than exocpp's limit")                                    \
  X(kExprUnsafeToMove, "expr.unsafe_to_move", NotProved,                                           \
    "evaluated at its new place the expression could fail (divide by zero, read out of bounds)")   \
  X(kRegionNotInferred, "region.not_inferred", Unsupported,                                        \
    "bounds inference cannot describe the region the code touches")                                \
  X(kRegionEmpty, "region.empty", NotProved, "the region to stage is always empty")                \
  /* Configs, calls, precision, layouts, replace. */                                               \
  X(kConfigObservable, "config.observable", NotProved,                                             \
    "the rewrite would leave another value in a config field that later code may read")            \
  X(kCallSignature, "call.signature", BadArgument,                                                 \
    "a proc does not fit the call (argument count, types or memories differ)")                     \
  X(kCallNotEquivalent, "call.not_equivalent", BadArgument,                                        \
    "the proc was not scheduled from the callee, so it is not known equivalent")                   \
  X(kCallPrecondition, "call.precondition", NotProved,                                             \
    "the call would not meet its callee's preconditions or would pass aliasing buffers")           \
  X(kPrecisionStore, "precision.store", NotProved,                                                 \
    "storing the value in the buffer would round or wrap it")                                      \
  X(kPrecisionContext, "precision.context", NotProved,                                             \
    "the expression would compute in another precision at its new place")                          \
  X(kPrecisionRegroup, "precision.regroup", NotProved,                                             \
    "regrouping would round or wrap integer or float arithmetic differently")                      \
  X(kLayoutUnmatched, "layout.unmatched", Unsupported,                                             \
    "a layout change meets a use it cannot rewrite")                                               \
  X(kLayoutStrideChanged, "layout.stride_changed", NotProved,                                      \
    "a stride the code reads would change value")                                                  \
  X(kLayoutCallPrecondition, "layout.call_precondition", NotProved,                                \
    "a call handed a changed buffer would no longer meet its callee's preconditions")              \
  X(kReplaceNoUnify, "replace.no_unify", NotProved,                                                \
    "the code does not unify with the proc's body (or no instruction computes it)")

namespace reason {
#define EXOCPP_REASON_CONSTANT(name, id, code, meaning) \
  inline constexpr Reason name{id, ErrorCode::code, meaning};
EXOCPP_FOR_EACH_REASON(EXOCPP_REASON_CONSTANT)
#undef EXOCPP_REASON_CONSTANT
}  // namespace reason

// Every reason of the table, in its order.
std::span<const Reason> all_reasons();

}  // namespace exocpp
