# Installs gbx as a CMake package: find_package(gbx CONFIG) gives gbx::main (main() and everything behind
# it), gbx::gbx (everything but main(), for a program that keeps its own and calls gbx::run_main) and
# gbx::extensions (the fixtures), with the umbrella include/gbx/gbx.h, the one header a consumer names,
# and what it includes under include/gbx/detail/<folder>/ (cmake/GbxPublicHeaders.cmake). gbx::main and
# gbx::gbx compile two sources inside the consumer's own target (share/gbx/): main() and the program's
# build and source facts (cmake/GbxProgramFacts.cmake). Also installs the gbx command-line tool and the
# charting libraries its HTML report inlines.
include(CMakePackageConfigHelpers)

set(GBX_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/gbx" CACHE STRING
    "Where gbxConfig.cmake is installed, relative to the prefix")
# The kernel families are gbx's own benchmarks, not an interface: gbx_kernels is not installed.
# Nor are the report, gbx ab's engine and the command-line tool's library: the tool itself is installed.
set(gbx_exported_targets)
foreach(layer IN LISTS GBX_LAYERS)
  if(NOT layer MATCHES "^(kernels|report|ab|cli)$")
    list(APPEND gbx_exported_targets gbx_${layer})
  endif()
endforeach()

install(TARGETS ${gbx_exported_targets}
  EXPORT gbxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(FILES ${PROJECT_SOURCE_DIR}/include/gbx/gbx.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gbx)
install(FILES ${PROJECT_SOURCE_DIR}/include/gbx/detail/program_facts.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gbx/detail)
# Compiled in the consumer's target, not in a library (main/CMakeLists.txt says why), with the CMake that
# makes the program's facts, which the package config runs.
set(GBX_INSTALL_SOURCEDIR "${CMAKE_INSTALL_DATADIR}/gbx")
install(FILES ${PROJECT_SOURCE_DIR}/main/gbx_main.cc ${PROJECT_SOURCE_DIR}/main/gbx_program_facts.cc
        DESTINATION ${GBX_INSTALL_SOURCEDIR})
foreach(header IN LISTS GBX_PUBLIC_HEADERS)
  get_filename_component(folder "${header}" DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gbx/detail/${folder})
endforeach()

# The gbx tool, and the two files of the report's charting libraries (with their licences) where the
# installed tool looks for them: <bindir>/../share/gbx/report/node_modules (cli/report_command.cc).
install(TARGETS gbx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(gbx_report_node_modules ${PROJECT_SOURCE_DIR}/report/node_modules)
if(NOT EXISTS ${gbx_report_node_modules}/vega/build/vega.min.js)
  message(STATUS "gbx: ${gbx_report_node_modules} has no Vega (npm ci --prefix report): an install "
                 "made now lacks the HTML report's charting libraries")
endif()
foreach(library IN ITEMS vega vega-lite)
  install(FILES ${gbx_report_node_modules}/${library}/build/${library}.min.js
          DESTINATION ${CMAKE_INSTALL_DATADIR}/gbx/report/node_modules/${library}/build OPTIONAL)
  install(FILES ${gbx_report_node_modules}/${library}/LICENSE
          DESTINATION ${CMAKE_INSTALL_DATADIR}/gbx/report/node_modules/${library} OPTIONAL)
endforeach()

install(EXPORT gbxTargets
  NAMESPACE gbx::
  FILE gbxTargets.cmake
  DESTINATION ${GBX_INSTALL_CMAKEDIR})

# The config re-finds the CUDA toolkit where this build found it, unless the consumer says otherwise.
set(GBX_CUDA_TOOLKIT_ROOT "")
if(GBX_HAVE_CUDA)
  get_filename_component(GBX_CUDA_TOOLKIT_ROOT "${CUDAToolkit_BIN_DIR}" DIRECTORY)
endif()

# Static libraries export their PRIVATE dependencies too (as $<LINK_ONLY:...>), so every imported
# target in the exported link interfaces must be found again by the consumer. benchmark,
# nlohmann_json and CUDA are found in gbxConfig.cmake.in itself; the others are collected here, so
# that a dependency added to one of the libraries reaches the config without anyone remembering to.
# Header-only private dependencies stay out with $<BUILD_INTERFACE:...> (Boost in stats/CMakeLists.txt).
set(gbx_namespaces)
set(gbx_openssl_components)
foreach(target IN LISTS gbx_exported_targets)
  get_target_property(interface ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT interface)
    continue()
  endif()
  string(REGEX REPLACE "\\$<BUILD_INTERFACE:[^>]*>" "" interface "${interface}")
  string(REGEX MATCHALL "[A-Za-z0-9_]+::[A-Za-z0-9_.+-]+" imported "${interface}")
  foreach(name IN LISTS imported)
    string(REGEX REPLACE "::.*" "" namespace "${name}")
    list(APPEND gbx_namespaces ${namespace})
    if(namespace STREQUAL "OpenSSL")
      string(REGEX REPLACE ".*::" "" component "${name}")
      list(APPEND gbx_openssl_components ${component})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES gbx_namespaces)
list(REMOVE_DUPLICATES gbx_openssl_components)
set(GBX_FIND_OTHER_DEPENDENCIES "")
foreach(namespace IN LISTS gbx_namespaces)
  if(namespace MATCHES "^(gbx|benchmark|nlohmann_json|CUDA)$")
    continue()
  elseif(namespace STREQUAL "OpenSSL")
    string(APPEND GBX_FIND_OTHER_DEPENDENCIES "find_dependency(OpenSSL COMPONENTS ${gbx_openssl_components})\n")
  elseif(namespace STREQUAL "Boost")
    string(APPEND GBX_FIND_OTHER_DEPENDENCIES "find_dependency(Boost ${Boost_MAJOR_VERSION}.${Boost_MINOR_VERSION})\n")
  elseif(namespace MATCHES "^(Threads|OpenMP|BLAS)$")
    string(APPEND GBX_FIND_OTHER_DEPENDENCIES "find_dependency(${namespace})\n")
  elseif(namespace MATCHES "^(CLI11|GTest|fmt)$")
    string(APPEND GBX_FIND_OTHER_DEPENDENCIES "find_dependency(${namespace} CONFIG)\n")
  else()
    message(WARNING "gbx: the installed package links ${namespace}:: targets but gbxConfig.cmake does "
                    "not know how to find them: add the package in cmake/GbxInstall.cmake")
  endif()
endforeach()

configure_package_config_file(cmake/gbxConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gbxConfig.cmake
  INSTALL_DESTINATION ${GBX_INSTALL_CMAKEDIR}
  PATH_VARS GBX_INSTALL_SOURCEDIR)
# 0.x releases keep one major version; SameMajorVersion accepts any 0.y request.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gbxConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gbxConfig.cmake ${PROJECT_BINARY_DIR}/gbxConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/GbxProgramFacts.cmake ${PROJECT_SOURCE_DIR}/cmake/GbxGitFacts.cmake
  DESTINATION ${GBX_INSTALL_CMAKEDIR})
