// The random-schedule differential generator shared by the CI test
// (tests/properties/random_schedule_test.cpp) and the soak program (tests/soak/schedule_soak.cpp,
// scripts/soak.sh).
//
// For a seed it generates a module (a config, small sub-procs taking windows, and a main proc
// with config fields read in loop bounds, window bounds, call arguments and indices and written
// in bodies; window statements; f32, f64, f16 and i8/ui8/ui16/i32 buffers with values stored
// across precisions and temporaries of another precision than their value, used in their own
// arithmetic; literals of every kind, 0.0 and -0.0 stored to one place and to a config field;
// externs; 2-D locals whose windows' strides are observed; empty and negative ranges; par
// loops, some racy; DRAM_STATIC allocations; an index argument read as indices and loop bounds,
// and conditions on data), then applies a random sequence of scheduling
// operations, aimed at what each can apply to part of the time.
// Every accepted step is compared with its input in the interpreter (validate_step,
// rewrites/validate.h: sizes 1, 2 and small, index arguments from 0, integer data near its
// limits, random initial configs). A refused step (SchedulingError) is fine; any other exception
// is a failure. The final procs of several seeds are compiled as one C library and compared
// with the interpreter (compile_and_compare).
#pragma once

#include <exocpp/exocpp.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace exocpp::fuzz {

// What the generator may produce. The CI test turns off what still finds open bugs.
struct Features {
  bool configs = true;  // config reads in bounds/windows/args/indices, writes in bodies
  bool config_writes_in_loops = true;  // (with configs) config writes inside loop bodies too
  bool windows = true;                 // window statements
  bool int_precisions = true;          // i8, ui8, ui16, i32 buffers
  bool odd_ranges = true;        // seq(0, N - 8), seq(2, N), seq(N, N + 2), seq(0, K) with K = 0
  bool calls = true;             // calls to sub-procs with window arguments
  bool par = true;               // par loops
  bool static_alloc = true;      // DRAM_STATIC allocations
  bool float_precisions = true;  // f64 and f16 buffers beside f32
  bool conversions = true;       // values stored into another precision: temporaries, cross stores
  bool literals = true;          // literals of every kind: large, inexact, -0.0, literal-only sums
  bool externs = true;           // sqrt, relu, select, abs in data expressions
  bool strides = true;   // 2-D locals, windows whose stride() a condition or a callee observes
  bool racy_par = true;  // parsed par loops whose iterations conflict (C emission refuses them)
  bool out_of_bounds = true;  // an access out of bounds for some sizes (C emission refuses it)
  // Value-dependent control: an index argument P (i32, values in [0, N)) read as an index
  // (A[P[i]], written through too) and as loop bounds (seq(P[i], P[i + 1])); if-conditions
  // comparing data (x[i] > y[j], with else); loop variables stored into integer data.
  bool data_control = true;
};

struct Options {
  Features features;
  int steps = 8;                       // scheduling steps tried per proc
  std::set<std::string> excluded_ops;  // operations never tried
};

// One failure: the seed replays it (run_seed(seed, same options)).
struct Failure {
  uint64_t seed = 0;
  std::string what;  // the operation and the report
};

struct SeedResult {
  std::string source;  // the generated module
  Proc final_proc;     // after the accepted steps (undefined when generation failed)
  int accepted = 0, refused = 0, compared = 0;
  std::vector<std::string> trace;  // accepted operations, in order
  std::vector<Failure> failures;
};

// What the CI test (tests/properties/random_schedule_test.cpp) generates and tries: everything
// the soak program does (a finding that cannot be fixed at once is excluded here, saying why).
Options ci_options();

// Whether a generated module draws literals that are inexact or large in some precision (half
// of them do). The operations that regroup float arithmetic as reals (regroups_as_reals) are not
// tried on those: regrouped around such a literal, a sum legitimately moves by more than any
// tolerance (16777217.0 * x + y - z cancels to a few units that rounding decides).
bool has_wild_literals(const std::string& source);

// The generated module source for `seed`.
std::string generate_source(uint64_t seed, const Features& f);
// Generates, schedules and compares one seed.
SeedResult run_seed(uint64_t seed, const Options& opts);
// Names of every operation the generator can try.
std::vector<std::string> operation_names();

// Compiles `procs` as one C library (procs whose emission is refused with a CodegenError are
// left out: a located refusal is fine) and compares each with the interpreter on random inputs
// (integer data near its limits some of the time), once built by the system compiler and, when
// exocpp has the C JIT, once by clang in process. Returns the failures (C that does not compile,
// a crash-free run that differs, a non-exocpp exception), each naming the compiler; `compiled`
// counts the procs run in C.
std::vector<Failure> compile_and_compare(const std::vector<std::pair<uint64_t, Proc>>& procs,
                                         int* compiled = nullptr);

}  // namespace exocpp::fuzz
