// Type checking as Exo does it: control vs data values, index expressions built only from
// control values, window/tensor argument compatibility, calls against callee signatures,
// memories plain code may not touch (Memory::can_read), positive sizes.
#pragma once

#include <optional>
#include <string>

#include "core/ir.h"

namespace exocpp {

struct TypecheckOptions {
  // Refuse plain code that reads or writes a buffer in a memory only instructions may touch
  // (Memory::can_read() false). Schedules relax it in the middle of a rewrite sequence: a buffer
  // is put in a register memory (set_memory) before its copy loops become instruction calls
  // (replace); codegen and the final type check still enforce it.
  bool memory_access = true;
  // Enforce the structural rules of CUDA kernels (core/typecheck_cuda.cpp). Schedules relax it
  // in the middle of a rewrite sequence: a kernel takes shape one loop mode at a time, and no
  // single step can make all of a kernel's loops GPU loops at once. CUDA emission enforces it;
  // and an operation proves a new or changed kernel race-free whenever the proc meets it.
  bool cuda_structure = true;
};

// Why `p` breaks the structural rules of CUDA kernels (the TypeError's located message), or ""
// when it meets them. With `host_memory`, also the rule that host code never reads or writes
// device memory (CUDA emission asks it; the type checker leaves it out, since the plain proc a
// GPU schedule starts from is host code over device buffers).
std::string cuda_structure_problem(const Proc& p, bool host_memory);

// Throws TypeError at the first ill-typed node, naming its location and what was expected.
void typecheck(const Proc& p, const TypecheckOptions& opts = {});
void typecheck(const Module& m);

// Why the C template `c_instr` of instruction `p` cannot be emitted ("" when it can): a hole
// `{name}` must name an argument (`{x}`) or a buffer argument's data (`{x_data}`), and the
// template's other braces (C blocks) must balance outside string and character literals, or the
// emitted C would not compile. The one check of templates: the parser (at @instr), the type
// checker and make_instr all ask it.
std::string instr_template_problem(const ProcNode& p, const std::string& c_instr);

}  // namespace exocpp

namespace exocpp {

// Why allocation `a` cannot be made ("" when it can): an array in a memory with static storage
// (Memory::static_storage(): DRAM_STATIC) needs a shape of constants (`static float t[N]` is not
// C). The type checker and codegen ask it.
std::string static_alloc_problem(const AllocNode& a);

// An allocation with static storage that every execution of `b` shares: in `b`, or in a proc
// `b` calls (transitively). A `par` loop around `b` would share that one storage between its
// threads, a data race: parallelize_loop refuses such a loop and codegen refuses to emit one.
struct SharedAlloc {
  Stmt at;           // the statement of `b` (the allocation, or the call leading to it)
  std::string what;  // "'t' (DRAM_STATIC)", or "'t' (DRAM_STATIC) in proc 'g'"
};
std::optional<SharedAlloc> shared_alloc_in(const Block& b);

}  // namespace exocpp
