// What the C code generator produces. codegen/ depends on core alone: it emits what it is given
// and refuses, with a located CodegenError, only what it can see is not expressible in C. Its
// one precondition that needs a proof (a window given for a tensor parameter is dense) is
// checked before emission by driver/lower.cpp; users call the pipelines of driver/driver.h.
#pragma once

#include <string>

namespace exocpp {

struct CSource {
  std::string header;  // lib_name.h
  std::string source;  // lib_name.c
};

}  // namespace exocpp
