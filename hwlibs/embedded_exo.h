// The .exo text a hardware library carries inside its binary (generated at build time by
// exocpp_embed_exo, hwlibs/CMakeLists.txt), so that users need no file paths at run time.
#pragma once

#include <exocpp/exocpp.h>

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

}  // namespace exocpp
