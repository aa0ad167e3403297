// Test support for the x86 library (hwlibs/x86): for any instruction, a wrapper proc with DRAM
// arguments only (it loads each register operand, calls the instruction, stores the registers
// back), and the instruction's meaning computed in plain C++ from its name alone, so that a
// body that does not do what its name says is caught.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hwlibs/x86/x86.h"

namespace exocpp::x86_test {

// What an instruction's name says it does.
struct InstrMeaning {
  std::string op;  // "setzero", "loadu", "storeu", "set1", "fmadd", "add", "sub", "mul",
                   // "mullo", "mulhi", "avg", "min", "max", "relu", "cvt", "cvtus", "srli",
                   // "slli", "adds", "subs", "prefetch", "dpbusd", "dpbf16" (broadcast_ss/sd read
                   // as "set1")
  bool masked = false;  // mask_* / maskz_*: lanes N.. are not computed
  bool zero = false;    // maskz_*: lanes N.. become 0
  int width = 0;        // lanes: 16 / 8 / 32 / 64 (AVX-512 f32 or i32 / f64 / ui16 / ui8), 8 / 4
                        // (AVX2); a conversion's, those of its wider type
  ScalarKind elem = ScalarKind::F32;      // the destination's element type
  ScalarKind src_elem = ScalarKind::F32;  // the operands': elem but for a conversion
  int shift = 0;                          // srli / slli: the count in the name (srli1: 1)
};
// Throws std::invalid_argument for a name that follows no known pattern.
InstrMeaning meaning_of(const std::string& instr_name);

struct Wrapped {
  Proc instr;
  Proc wrapper;        // def wrap_<instr>(<instr's args, data ones as DRAM tensors>)
  std::string source;  // the wrapper's .exo text
  // The wrapper with the instruction's body in place of its call (`plain_<instr>`): what
  // replace turns back into the call. Parsed without the type checker, which refuses plain
  // code touching registers.
  Proc plain;
  std::string plain_source;
};
// Control arguments and asserts without stride() are the instruction's own.
Wrapped wrap(const Proc& instr);

// Applies the instruction named `instr_name` to `args` (keyed by the instruction's argument
// names, as wrap() keeps them) in plain C++: the expected result of running its wrapper.
void apply_reference(const std::string& instr_name, std::map<std::string, ArgValue>& args);

// Arguments for `wrapper` as random_args draws them, with every integer buffer then refilled
// with values of its type's whole range, half of them at or next to its limits (0, the maximum,
// the minimum, the wrap-around points of 8, 16 and 32 bits): random_args's small integers would
// never show an instruction that wraps or saturates differently from its body.
std::vector<ArgValue> limit_args(const Proc& wrapper, const std::map<std::string, int64_t>& sizes,
                                 uint64_t seed);

// The control values to try for `instr`: each N in 1..width for a masked instruction, else one
// empty map.
std::vector<std::map<std::string, int64_t>> size_cases(const Proc& instr);

// Runs the wrapper of `instr` in the interpreter on random inputs (seed) with `sizes` and
// compares it with apply_reference; "" when they agree, else the difference.
std::string check_against_reference(const Proc& instr, const std::map<std::string, int64_t>& sizes,
                                    uint64_t seed);

// The SchedulingError that replace(p, block, instr) throws; fails the calling test (and
// returns an empty error) when replace succeeds.
SchedulingError refusal(const Proc& p, const std::string& block, const Proc& instr);

}  // namespace exocpp::x86_test
