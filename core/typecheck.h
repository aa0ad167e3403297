// Type checking as Exo does it: control vs data values, index expressions built only from
// control values, window/tensor argument compatibility, calls against callee signatures,
// memories plain code may not touch (Memory::can_read), positive sizes.
#pragma once

#include "core/ir.h"

namespace exocpp {

// Throws TypeError at the first ill-typed node, naming its location and what was expected.
void typecheck(const Proc& p);
void typecheck(const Module& m);

}  // namespace exocpp
