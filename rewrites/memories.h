// Memory, precision and window operations on buffers (Exo's set_memory, set_precision,
// set_window): they change the declared type or memory of an allocation or argument, and
// every use of the buffer follows.
#pragma once

#include <string>

#include "core/ir.h"
#include "core/memory.h"
#include "rewrites/target.h"

namespace exocpp {

//   x : T @ M   -->   x : T @ mem        (an allocation or a data argument)
// Refused when plain code (not an instruction) would then touch a memory only instructions may
// access (Memory::can_read() false), or when the memory is not registered.
Proc set_memory(const Proc& p, const CursorLike& alloc_or_arg, const Memory& mem);
Proc set_memory(const Proc& p, const CursorLike& alloc_or_arg, const std::string& mem_name);

//   x : f32[n] @ M   -->   x : type[n] @ M    (`type` a data type: "f32", "f64", "i8", ...)
Proc set_precision(const Proc& p, const CursorLike& alloc_or_arg, const std::string& type);

//   A : f32[n, m]   <-->   A : [f32][n, m]   (tensor arguments only)
// Back to a tensor is refused when the proc's asserts constrain A's strides in a way a dense
// tensor (strides fixed by its shape) does not satisfy.
Proc set_window(const Proc& p, const CursorLike& arg, bool is_window = true);

}  // namespace exocpp
