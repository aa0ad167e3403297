# What `cmake --install BUILD --prefix P` puts in P, and the package another project finds with
# find_package(exocpp):
#   P/include/exocpp/exocpp.h and every header it includes, transitively, in the source layout
#     (P/include/exocpp/core/ir.h, ...), and the hardware libraries' public headers with theirs;
#   P/lib: the static libraries and libexoblas.so (the BLAS, blas/);  P/bin/exocpp: the
#     command-line program;  P/include/exoblas/cblas.h: exoblas's CBLAS header;
#   P/lib/cmake/exocpp: exocppConfig.cmake, its version file, the exported targets
#     (exocpp::exocpp, exocpp::x86, exocpp::cuda, exocpp::gemmini, exocpp::gemmini_model,
#     exocpp::schedlib, exocpp::exoblas: the in-tree names) and ExocppAddLibrary.cmake (exocpp_add_library).
# Included by the top-level CMakeLists.txt after every library target exists.

include(CMakePackageConfigHelpers)

set(EXOCPP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/exocpp)

# The headers `roots` include with "dir/file.h", transitively (paths relative to the source
# root). Computed from the text, so a header that gains an include is installed without a list
# to keep; each visited header re-runs the configure step when it changes.
function(exocpp_header_closure out_var)
  set(todo ${ARGN})
  set(seen "")
  while(todo)
    list(POP_FRONT todo header)
    if(header IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${header})
    set(path ${PROJECT_SOURCE_DIR}/${header})
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
    file(STRINGS ${path} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
      get_filename_component(dir ${header} DIRECTORY)
      if(EXISTS ${PROJECT_SOURCE_DIR}/${inc})
        list(APPEND todo ${inc})
      elseif(EXISTS ${PROJECT_SOURCE_DIR}/${dir}/${inc})  # relative to the including file
        list(APPEND todo ${dir}/${inc})
      else()
        message(FATAL_ERROR "${header} includes \"${inc}\", which is not in the source tree")
      endif()
    endforeach()
  endwhile()
  set(${out_var} ${seen} PARENT_SCOPE)
endfunction()

set(exocpp_root_headers include/exocpp/exocpp.h hwlibs/x86/x86.h hwlibs/cuda/cuda.h
                        hwlibs/gemmini/gemmini.h hwlibs/gemmini/gemmini_model.h
                        schedlib/schedlib.h)
if(EXOCPP_HAVE_MPI)
  list(APPEND exocpp_root_headers search/mpi/mpi_timer.h)
endif()
exocpp_header_closure(exocpp_public_headers ${exocpp_root_headers})
foreach(header IN LISTS exocpp_public_headers)
  get_filename_component(dir ${header} DIRECTORY)
  string(REGEX REPLACE "^include/exocpp/?" "" dir "${dir}")  # exocpp.h is the root's own header
  install(FILES ${PROJECT_SOURCE_DIR}/${header}
          DESTINATION ${EXOCPP_INSTALL_INCLUDE_ROOT}/${dir})
endforeach()

# Exported names are the in-tree aliases: exocpp_x86 is exocpp::x86, exocpp_core exocpp::core.
set(exocpp_exported_targets exocpp exocpp_core exocpp_checker exocpp_rewrites exocpp_codegen
                            exocpp_driver exocpp_search exocpp_x86 exocpp_cuda exocpp_gemmini exocpp_gemmini_model
                            exocpp_schedlib exoblas)
if(EXOCPP_HAVE_MPI)
  list(APPEND exocpp_exported_targets exocpp_search_mpi)
endif()
foreach(target IN LISTS exocpp_exported_targets)
  string(REGEX REPLACE "^exocpp_" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
install(TARGETS ${exocpp_exported_targets} EXPORT exocppTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# exoblas's CBLAS header, as <exoblas/cblas.h> and (with -I P/include/exoblas, which the
# exocpp::exoblas target adds) as <cblas.h>, for programs written against another CBLAS.
install(FILES ${PROJECT_SOURCE_DIR}/blas/include/exoblas/cblas.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/exoblas)
install(TARGETS exocpp_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT exocppTargets NAMESPACE exocpp:: DESTINATION ${EXOCPP_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/exocppConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/exocppConfig.cmake
                              INSTALL_DESTINATION ${EXOCPP_INSTALL_CMAKEDIR})
# The library's C++ API changes between minor versions before 1.0.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/exocppConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/exocppConfig.cmake ${PROJECT_BINARY_DIR}/exocppConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/ExocppAddLibrary.cmake
        DESTINATION ${EXOCPP_INSTALL_CMAKEDIR})
