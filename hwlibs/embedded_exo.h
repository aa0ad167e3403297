// The .exo text a hardware library carries inside its binary (generated at build time by
// exocpp_embed_exo, hwlibs/CMakeLists.txt), so that users need no file paths at run time.
#pragma once

namespace exocpp {

struct EmbeddedExo {
  const char* name;  // path relative to the source root, e.g. "hwlibs/x86/avx512.exo"
  const char* text;
};

}  // namespace exocpp
