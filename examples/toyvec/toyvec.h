// TOYVEC: a made-up 8-lane vector unit as a user-level hardware library (see toyvec.exo). It
// shows everything a new target needs — a memory, a configuration register, instructions —
// written against exocpp's public API only, with no change to the compiler.
//
//   #include "toyvec.h"
//   p = set_memory(p, "y_reg", toyvec::TOYREG());
//   p = replace_all(p, toyvec::instr("toy_vld"));
#pragma once

#include <exocpp/exocpp.h>

#include <string>

namespace toyvec {

// The vector register file: 8-float registers that only TOYVEC instructions read and write.
// Registered under the name "TOYREG" on first use (so .exo text may say `@ TOYREG`).
const exocpp::Memory& TOYREG();

// The library: config ToyCfg and the instructions toy_set_scale, toy_vld, toy_vmacc, toy_vst.
const exocpp::Module& library();
exocpp::Proc instr(const std::string& name);
exocpp::Config config();  // ToyCfg

}  // namespace toyvec
