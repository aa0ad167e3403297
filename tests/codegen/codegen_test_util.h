// Shared helpers of the codegen tests: parse a source and compare its compiled proc with the
// interpreter.
#pragma once

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

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

namespace exocpp::codegen_test {

// Compiles a library's source to an object file with `compiler` and `flags`; "" on success,
// otherwise the compiler's output.
inline std::string compile_object(const CSource& c, const std::string& lib,
                                  const std::string& compiler, const std::string& flags) {
  char tmpl[] = "/tmp/exocpp-cg-XXXXXX";
  if (!mkdtemp(tmpl)) return "mkdtemp failed";
  std::string dir = tmpl;
  std::ofstream(dir + "/" + lib + ".c") << c.source;
  std::ofstream(dir + "/" + lib + ".h") << c.header;
  std::string cmd =
      compiler + " " + flags + " -c -o " + dir + "/" + lib + ".o " + dir + "/" + lib + ".c 2>&1";
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    int rc = pclose(f);
    if (rc == 0)
      out.clear();
    else if (out.empty())
      out = "exit status " + std::to_string(rc);
  }
  std::filesystem::remove_all(dir);
  return out;
}

}  // namespace exocpp::codegen_test
