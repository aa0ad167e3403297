// Shared helpers of the codegen tests: parse a source and compare its compiled proc with the
// interpreter.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <exocpp/exocpp.h>

namespace exocpp::codegen_test {

inline Proc proc_of(const std::string& src, const std::string& name) {
  return parse_module(src).proc(name);
}

// Parses `src` and checks its proc `name` compiled against the interpreter on a few seeds.
inline std::string check(const std::string& src, const std::string& name,
                         const std::map<std::string, int64_t>& sizes = {}, int seeds = 2) {
  Proc p = proc_of(src, name);
  for (int s = 1; s <= seeds; ++s) {
    std::string r = compare_compiled_with_interpreter(p, sizes, static_cast<uint64_t>(s));
    if (!r.empty()) return "seed " + std::to_string(s) + ": " + r;
  }
  return "";
}

}  // namespace exocpp::codegen_test
