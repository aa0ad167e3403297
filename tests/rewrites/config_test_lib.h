// Shared by the config-operation tests (bind_config, delete_config, write_config): a config
// with a control and a data field, and an instruction that reads the data field.
#pragma once

#include <string>

#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {

inline const char* kConfigLib = R"(
config Cfg:
    n: index
    scale: f32

@instr("scale({x_data});")
def scale(x: [f32][4] @ DRAM):
    for i in seq(0, 4):
        x[i] = x[i] * Cfg.scale
)";

// The library followed by `procs`.
inline Module config_lib(const std::string& procs) {
  return parse_module(std::string(kConfigLib) + procs);
}
inline Proc config_proc(const std::string& procs) { return config_lib(procs).procs.back(); }

// For rewrites that change only the config state the caller sees afterwards.
inline CompareProcsOptions ignoring_final_configs() {
  CompareProcsOptions o;
  o.trials = 4;
  o.compare_configs = false;
  return o;
}

}  // namespace exocpp::testing
