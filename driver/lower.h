// Lowering scheduled procs to a C library: the whole pipeline after scheduling, in one function
// (lower_to_c), so what happens between a Proc and its C text is visible in one place.
#pragma once

#include <string>
#include <vector>

#include "codegen/c_module.h"
#include "core/ir.h"

namespace exocpp::driver {

// 1. the procs and every proc they call, callees first (codegen::call_graph_order);
// 2. the checks codegen relies on but cannot decide itself, on each of them: every window given
//    for a tensor parameter is dense (checker) — refused with a CodegenError at the call; and
//    what the emitted program relies on and cannot check at run time, whether or not an
//    operation made the proc: every access in bounds, every call meeting its callee's asserts,
//    the iterations of every parallel loop independent (and, for CUDA, no race between a
//    kernel's threads) — refused with a CodegenError naming the proc, at the statement, with
//    the checker's counterexample;
// 3. emission (codegen::emit_library), which refuses what C cannot express.
// Throws CodegenError naming the statement at fault; writes nothing.
CSource lower_to_c(const std::vector<Proc>& procs, const std::string& lib_name,
                   const codegen::LibraryOptions& opts = {});

}  // namespace exocpp::driver
