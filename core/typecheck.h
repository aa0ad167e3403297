// Type checking as Exo does it: control vs data values, index expressions built only from
// control values, window/tensor argument compatibility, calls against callee signatures,
// memories plain code may not touch (Memory::can_read), positive sizes.
#pragma once

#include "core/ir.h"

namespace exocpp {

struct TypecheckOptions {
  // Refuse plain code that reads or writes a buffer in a memory only instructions may touch
  // (Memory::can_read() false). Schedules relax it in the middle of a rewrite sequence: a buffer
  // is put in a register memory (set_memory) before its copy loops become instruction calls
  // (replace); codegen and the final type check still enforce it.
  bool memory_access = true;
};

// Throws TypeError at the first ill-typed node, naming its location and what was expected.
void typecheck(const Proc& p, const TypecheckOptions& opts = {});
void typecheck(const Module& m);

}  // namespace exocpp
