// exoblas's routines as the generator sees them: each a plain proc (the specification, in the
// procedure language: level<k>/<routine>.exo, embedded at build time) and a few lines of schedule
// that call schedlib (level<k>/<routine>.cpp, schedlib/schedlib.h).
// The generator (gen.cpp) makes every variant, schedules it and emits the kernels' C; the
// interface (interface/*.c) puts BLAS's and CBLAS's conventions on them.
#pragma once

#include <exocpp/exocpp.h>
#include <schedlib/schedlib.h>

#include <functional>
#include <string>
#include <vector>

namespace exoblas {

// One emitted kernel of a routine: its C name, the spec it starts from and the precision R takes
// in it.
struct Variant {
  std::string name;  // "exoblas_saxpy"
  std::string proc;  // the spec's proc ("axpy")
  std::string type;  // "f32" or "f64": what R becomes, and the vector unit's precision
};

struct Routine {
  std::vector<Variant> variants;
  // The schedule of one variant: the spec with R set to the variant's precision, scheduled onto
  // `unit` (of that precision).
  std::function<exocpp::Proc(exocpp::Proc, const schedlib::VectorUnit&)> schedule;
};

// The two real precisions' variants of the spec `name`: exoblas_s<name>, exoblas_d<name>.
std::vector<Variant> real_variants(const std::string& name);

// Every routine of level 1 (level1/*.cpp) and of level 2 (level2/*.cpp: one Routine per spec
// proc, a file per family), in the order the header lists them.
std::vector<Routine> level1();
std::vector<Routine> level2();

// The first loop among the statements of `loop`'s body, or in an if among them (a loop nested
// directly in it, perhaps behind a test such as trmv's `if x[j] == 0.0: pass else:`).
exocpp::Cursor inner_loop(const exocpp::Cursor& loop);

// Every spec of the embedded .exo files, parsed once.
const exocpp::Module& specs();

// The variant scheduled: its spec with R set, the schedule run, renamed to the variant's name.
exocpp::Proc build(const Routine& r, const Variant& v);

}  // namespace exoblas
