# Writes OUT, a C++ file holding the text of each .exo file in FILES ('|'-separated) as
#   const exocpp::EmbeddedExo NAMESPACE::embedded_exo_files[]  (name relative to ROOT, text)
#   const int NAMESPACE::embedded_exo_count
# Run by exocpp_embed_exo (hwlibs/CMakeLists.txt) as `cmake -P`. The text goes into a raw string
# literal, so a file containing the delimiter `)exo"` is refused.
string(REPLACE "|" ";" files "${FILES}")
set(entries "")
set(names "")
foreach(f ${files})
  file(READ ${f} text)
  string(FIND "${text}" ")exo\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${f} contains ')exo\"', which would end the raw string it is embedded in")
  endif()
  file(RELATIVE_PATH name ${ROOT} ${f})
  string(APPEND entries "    {\"${name}\", R\"exo(${text})exo\"},\n")
  string(APPEND names " ${name}")
endforeach()
list(LENGTH files count)
set(code "// Generated from${names} by hwlibs/embed_exo.cmake: do not edit.
#include \"hwlibs/embedded_exo.h\"

namespace ${NAMESPACE} {

extern const ::exocpp::EmbeddedExo embedded_exo_files[] = {
${entries}};
extern const int embedded_exo_count = ${count};

}  // namespace ${NAMESPACE}
")
# Rewrite only on change, so that an unchanged library is not recompiled.
if(EXISTS ${OUT})
  file(READ ${OUT} old)
  if(old STREQUAL code)
    return()
  endif()
endif()
file(WRITE ${OUT}.tmp "${code}")
file(RENAME ${OUT}.tmp ${OUT})
