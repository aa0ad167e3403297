// The Gemmini-like accelerator as a user-level hardware library: a 16x16 int8 systolic array with
// a scratchpad (GEMM_SCRATCH: rows of 16 i8) and an accumulator (GEMM_ACCUM: rows of 16 i32),
// configuration state as configs (load slots, store scale/stride/activation, execute dataflow),
// and instructions as procs whose bodies are their meaning and whose C templates call the
// functional model (hwlibs/gemmini/gemmini_model.h), so generated code runs on any CPU:
//
//   #include "hwlibs/gemmini/gemmini.h"
//   p = set_memory(p, "a", gemmini::GEMM_SCRATCH());
//   p = replace(p, "for i in _: _ #0", gemmini::instr("do_ld_i8"));
//
// Each data-moving and execute instruction comes in a fused form (its body writes the config
// fields its template sets: ld_i8, st_acc_i8, matmul_acc_i8, ...) and a config-write + do form
// (config_ld_i8 + do_ld_i8, ...) whose asserts read the config, so schedules can hoist
// configuration out of loops. docs/hardware-libraries.md ("Gemmini") lists them. The library
// uses only the public API.
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace exocpp::gemmini {

// The scratchpad and accumulator memories (registered on first use, thread-safely). Buffers in
// them hold whole rows: the last dimension is 16. The emitted C keeps a buffer as its row
// address (uint32_t, the accumulator's with bit 31 set), as the hardware addresses it; plain
// code may not read or write them.
const Memory& GEMM_SCRATCH();
const Memory& GEMM_ACCUM();

// The library's instructions and configs, parsed once from the embedded gemmini.exo (after the
// memories and the acc_scale extern are registered). Pass `library().procs` and
// `library().configs` as ParseOptions to call instructions from .exo text.
const Module& library();
// An instruction or config of the library by name; throws InternalError when there is none.
const Proc& instr(const std::string& name);
Config config(const std::string& name);
std::vector<std::string> instruction_names();

// Registers the memories and the data extern `acc_scale(x, scale)`: the accumulator-to-int8
// conversion of the store path, round((float)x * scale) with ties to even, saturated to
// [-128, 127] (NaN gives 0); its result is i8. A plain proc uses it to say what a scaled store
// computes.
void register_library();

// Compiler options that build emitted C calling the model: the include path of
// gemmini_model.h and the model's C source, appended to `base`. Both files are written on first
// use from copies embedded in the library, into a private temporary folder removed at exit, so
// an installed exocpp needs no source tree. Throws CodegenError when they cannot be written.
CompileOptions model_compile_options(CompileOptions base = {});

}  // namespace exocpp::gemmini
