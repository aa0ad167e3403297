# exocpp_add_library(): C libraries generated at build time by a schedule program. Installed
# with the package (find_package(exocpp) includes it) and included by exocpp's own build.
#
#   exocpp_add_library(NAME SCHEDULE schedule.cpp [SOURCES more.cpp ...] [LIB_NAME name]
#                      [LIBS exocpp::x86 ...] [EXO_FILES a.exo ...] [TUNE_DB tune.sqlite])
#
# builds the schedule program NAME_schedule from SCHEDULE (and SOURCES), linked to
# exocpp::exocpp and LIBS, and runs it at build time as
#
#   NAME_schedule OUT_DIR LIB_NAME        (OUT_DIR = <binary dir>/NAME_generated)
#
# in the current source folder, so that it opens the EXO_FILES by the paths written here. The
# program writes OUT_DIR/LIB_NAME.c and OUT_DIR/LIB_NAME.h (exocpp::library_main does it); it runs
# again when it or an EXO_FILES entry changes, and its failure (a refused schedule) fails the
# build with its message. NAME is then a static library of LIB_NAME.c with OUT_DIR on its PUBLIC
# include path: `#include "LIB_NAME.h"`. LIB_NAME defaults to NAME and must be a C identifier
# (it prefixes the library's C symbols). Options the generated C needs to compile (-mavx2 for
# x86 instructions, exocpp::gemmini_model for Gemmini ones) are added to NAME as to any target.
#
# TUNE_DB names a tuning database (`exocpp tune ... --db FILE`, docs/search.md): the program
# runs with EXOCPP_TUNE_DB set to it, so that search::tuned_or (search/tuned.h) applies the best
# schedule stored for this machine's CPU and falls back to the program's own schedule when the
# file holds none; the library is scheduled again when the file changes. A relative path is
# taken from the current source folder; the file need not exist (then every lookup falls back).
include_guard(GLOBAL)

function(exocpp_add_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SCHEDULE;LIB_NAME;TUNE_DB" "SOURCES;LIBS;EXO_FILES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "exocpp_add_library(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SCHEDULE)
    message(FATAL_ERROR "exocpp_add_library(${name}): SCHEDULE schedule.cpp is required")
  endif()
  if(NOT arg_LIB_NAME)
    set(arg_LIB_NAME ${name})
  endif()
  if(NOT arg_LIB_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "exocpp_add_library(${name}): LIB_NAME '${arg_LIB_NAME}' is not a C "
                        "identifier; pass LIB_NAME with letters, digits and '_'")
  endif()

  set(program ${name}_schedule)
  add_executable(${program} ${arg_SCHEDULE} ${arg_SOURCES})
  target_link_libraries(${program} PRIVATE exocpp::exocpp ${arg_LIBS})

  set(exo_paths "")
  foreach(f IN LISTS arg_EXO_FILES)
    get_filename_component(abs ${f} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND exo_paths ${abs})
  endforeach()

  # The tuning database: passed in the environment, and a dependency once it exists (a build
  # before the first tuning run must not fail for want of it).
  set(run_env "")
  set(db_depends "")
  if(arg_TUNE_DB)
    get_filename_component(db ${arg_TUNE_DB} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    set(run_env ${CMAKE_COMMAND} -E env EXOCPP_TUNE_DB=${db})
    if(EXISTS ${db})
      set(db_depends ${db})
    endif()
  endif()

  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${name}_generated)
  add_custom_command(
    OUTPUT ${out_dir}/${arg_LIB_NAME}.c ${out_dir}/${arg_LIB_NAME}.h
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
    COMMAND ${run_env} $<TARGET_FILE:${program}> ${out_dir} ${arg_LIB_NAME}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    DEPENDS ${program} ${exo_paths} ${db_depends}
    COMMENT "Scheduling ${arg_LIB_NAME}.c with ${program}"
    VERBATIM)

  add_library(${name} STATIC ${out_dir}/${arg_LIB_NAME}.c ${out_dir}/${arg_LIB_NAME}.h)
  target_include_directories(${name} PUBLIC ${out_dir})
  set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)
  if(UNIX)
    target_link_libraries(${name} PUBLIC m)  # externs such as sqrt and expf call libm
  endif()
endfunction()
