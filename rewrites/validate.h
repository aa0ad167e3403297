// Validation mode: every accepted scheduling operation is checked by running its input and its
// result in the reference interpreter on small random inputs; a difference throws InternalError.
//
//   EXOCPP_VALIDATE=1 ./my_schedule          // on for the whole process
//   exocpp::ValidationScope on;                // on for this scope (restored on exit)
//   exocpp::set_validation(true);              // on until turned off
//
// What is compared (validate_step): both procs run on the same arguments, drawn by random_args
// for the input proc with free sizes from {1}, {1, 2} and {1 .. 5} (index and int arguments from
// 0; sizes the asserts' moduli demand, such as 64 for `N % 64 == 0`, when small ones fail them),
// data small integers or, for integer precisions, values at and near the type's limits; the config
// state starts empty or with a random value in every field the procs use. Every data argument and
// (except for bind_config, write_config and delete_config, which may change the config state a
// caller sees afterwards) the final config state must agree. Two more trials draw float data at
// its corners: ±0, ±inf, NaN and non-integer values (small multiples of 1/4, which regrouped sums
// and products keep exact). Buffers are compared bit for bit (+0 is not -0; a NaN in the result
// where the input has a number differs), except for the operations that may regroup float
// arithmetic as reals (regroups_as_reals), whose float results are compared within the tolerance
// of the narrowest float precision the procs use (not at all when that is f16 or bf16, whose
// regrouped sums can move by more than any useful tolerance); an element that is NaN (never
// written, or NaN data) in the input proc's result is not compared.
//
// Nothing is reported (the trial is skipped) when the comparison cannot run: the input proc
// fails in the interpreter (a failed assert, a config field never written, an out-of-bounds
// access, too many steps), no arguments satisfy its asserts, or the result fails only on the
// step limit or on an assert the input proc does not have. Operations whose result has other
// arguments (names, precisions or ranks differ) and set_precision (a precision change is the
// user's choice, not a rewrite) are not compared. Everything else where the result fails or
// differs is a bug in the operation. Operations nested in another (a composite calling
// primitives) are validated once, at the outermost level.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir.h"

namespace exocpp {

// Turns validation on or off for the whole process (overrides EXOCPP_VALIDATE).
void set_validation(bool on);
// On when set_validation(true) was called, or, before any call, when EXOCPP_VALIDATE is set to
// anything but "" or "0".
bool validation_enabled();

// Validation on (or off) for the lifetime of the scope; the previous setting is restored.
class ValidationScope {
 public:
  explicit ValidationScope(bool on = true);
  ~ValidationScope();
  ValidationScope(const ValidationScope&) = delete;
  ValidationScope& operator=(const ValidationScope&) = delete;

 private:
  int saved_;
};

// Counts since the process started (all threads).
struct ValidationStats {
  uint64_t operations = 0;  // accepted operations validated
  uint64_t compared = 0;    // of those, compared on at least one input
  uint64_t trials = 0;      // inputs on which both procs ran and were compared
};
ValidationStats validation_stats();

// The check itself: "" when `after` computes what `before` does on every trial input (see
// above), else a report naming the operation, the seed, the control values, the initial
// configs and the first difference. `seed` picks the inputs (reported, so that a failure can
// be replayed).
std::string validate_step(const std::string& op, const Proc& before, const Proc& after,
                          uint64_t seed);

// Whether operation `op` may regroup or reorder float arithmetic as reals (reassociate a sum,
// reorder its terms, distribute a factor), so that its results agree with its input's as reals
// rather than bit for bit. A sequence of steps is compared as reals under the name
// kRegroupedSchedule when one of them is such an operation.
bool regroups_as_reals(const std::string& op);
inline constexpr const char* kRegroupedSchedule = "a schedule regrouping float arithmetic";

}  // namespace exocpp
