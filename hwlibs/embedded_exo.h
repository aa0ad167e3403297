// The .exo text a hardware library carries inside its binary (generated at build time by
// exocpp_embed_exo, hwlibs/CMakeLists.txt), so that users need no file paths at run time.
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace exocpp {

struct EmbeddedExo {
  const char* name;  // path relative to the source root, e.g. "hwlibs/x86/avx512.exo"
  const char* text;
};

// Every config and proc of the `count` embedded files, parsed in order (each file on its own,
// so its errors name it). The library registers its memories and externs first.
inline Module parse_embedded_exo(const EmbeddedExo* files, int count) {
  Module all;
  for (int i = 0; i < count; ++i) {
    Module m = parse_module(files[i].text, {}, files[i].name);
    all.configs.insert(all.configs.end(), m.configs.begin(), m.configs.end());
    all.procs.insert(all.procs.end(), m.procs.begin(), m.procs.end());
  }
  return all;
}

// The proc `name` of a library's module; InternalError naming `library` when it has none.
inline const Proc& library_proc(const Module& m, const std::string& name,
                                const std::string& library) {
  for (const Proc& p : m.procs)
    if (p.name() == name) return p;
  throw InternalError(library + ": no instruction named " + name);
}

// The names of a library module's procs, in order.
inline std::vector<std::string> library_proc_names(const Module& m) {
  std::vector<std::string> out;
  for (const Proc& p : m.procs) out.push_back(p.name());
  return out;
}

}  // namespace exocpp
