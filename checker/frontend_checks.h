// Front-end checks decided by the checker: every access of a proc is in bounds under its
// asserts, the asserts can hold together, and every call satisfies its callee's asserts (and
// passes windows of the callee's extents and positive sizes).
#pragma once

#include <optional>
#include <string>

#include "checker/answer.h"
#include "checker/context.h"
#include "core/errors.h"
#include "core/ir.h"

namespace exocpp::checker {

// Base of the checker's front-end errors. `counterexample()` gives the values that reach the
// failing access or call ("i = 3, N = 4").
class CheckError : public Error {
 public:
  CheckError(std::string kind, SrcInfo loc, std::string reason, std::string cex = "")
      : Error(std::move(kind), "", std::move(loc), std::move(reason), std::move(cex)) {}
};

// An access (or window) that may fall outside its buffer, reported at the access.
class BoundsError : public CheckError {
 public:
  BoundsError(SrcInfo loc, std::string reason, std::string cex = "")
      : CheckError("bounds error", std::move(loc), std::move(reason), std::move(cex)) {}
};

// Asserts that can never hold, or a call that may violate its callee's asserts.
class AssertError : public CheckError {
 public:
  AssertError(SrcInfo loc, std::string reason, std::string cex = "")
      : CheckError("assert error", std::move(loc), std::move(reason), std::move(cex)) {}
};

// A call that may pass overlapping buffers where the callee writes one of them. A proc is
// analysed (and scheduled) assuming its buffer arguments do not overlap where one is written or
// reduced into, as in C with `restrict`; every call must keep that promise.
class AliasError : public CheckError {
 public:
  AliasError(SrcInfo loc, std::string reason, std::string cex = "")
      : CheckError("alias error", std::move(loc), std::move(reason), std::move(cex)) {}
};

// Each throws at the first failing access / assert / call. An access the checker cannot decide
// (outside the quasi-affine fragment, time-out) is an error too, saying why.
void check_bounds(const Proc& p);               // BoundsError
void check_asserts_satisfiable(const Proc& p);  // AssertError
void check_calls(const Proc& p);                // AssertError, AliasError
// All three, asserts first.
void check_proc(const Proc& p);
// What emission relies on (driver/lower.cpp): check_proc's rules, but only a refutation is an
// error (values that break the rule, the counterexample, or asserts that can never hold): an
// access, call or assert the checker cannot decide (a config value, which it does not model;
// outside its logic; a time-out) passes, and call arguments may alias (emitted C, like the
// interpreter, lets them: no `restrict`).
void check_proc_refutations(const Proc& p);
// The call statement `index` of the list at `path` of `p`: its window arguments lie inside their
// buffers, its sizes are positive, its extents match, its callee's asserts hold there, and no
// buffer argument the callee writes or reduces into overlaps another buffer argument
// (BoundsError / AssertError / AliasError). For a rewrite that puts a call in or changes its
// callee.
void check_call(const Proc& p, const BlockPath& path, int index);
// Only the last of check_call's checks: the call statement `index` of the list at `path` passes
// no buffer argument its callee writes or reduces into overlapping another (AliasError). For a
// rewrite that swaps a callee for one with the same signature (call_eqv), where the rest holds
// as it did for the old callee.
void check_call_aliasing(const Proc& p, const BlockPath& path, int index);
// Whether two buffer arguments of one call at the place of `ctx` (elements, windows or whole
// buffers) are proved not to overlap: they reach different root buffers, or in some dimension
// their ranges are apart. The rule the call aliasing check applies, for a rewrite about to put
// such a call in (replace).
Answer arguments_disjoint(const Context& ctx, const Expr& a, const Expr& b);
// Whether `window` (a window expression, or the name of a window), at the place of `ctx`, is
// dense: row-major with no gaps, so that a pointer to its first element can stand for it (as
// a window given for a tensor parameter must).
Answer window_is_dense(const Context& ctx, const Expr& window);

// A call argument of a proc that is a window given for a tensor parameter (a plain pointer in
// C) and is not proved dense: the code generator's one precondition on calls, checked before
// emission (driver/lower.cpp).
struct StridedTensorArgument {
  SrcInfo where;       // the call
  std::string window;  // the argument as printed ("A[0:4, 1]")
  std::string param, callee;
  std::string why;  // the counterexample, or why the checker could not decide
};
// The first such argument of `p`'s own calls (not of its callees'), if any.
std::optional<StridedTensorArgument> find_strided_tensor_argument(const Proc& p);

// A buffer argument of an instruction call whose memory keeps runs of g > 1 elements together
// (Memory::window_granule, e.g. a swizzled layout) and whose window is not proved to start at
// a multiple of g in its last dimension and span a multiple of g there: the instruction's
// template could not address it as one run. Checked before emission (driver/lower.cpp).
struct MisalignedInstrWindow {
  SrcInfo where;       // the call
  std::string window;  // the argument as printed ("As[0, r, 4:12]")
  std::string param, instr, memory;
  int64_t granule = 1;
  std::string why;  // the counterexample, or why the checker could not decide
};
// The first such argument of `p`'s own instruction calls, if any.
std::optional<MisalignedInstrWindow> find_misaligned_instr_window(const Proc& p);

}  // namespace exocpp::checker
