# gbx's own build facts, for environment/versions.cc and environment/git_facts.cc (the record's
# build.gbx and source.gbx) and cli/version_command.cc, through the interface target gbx_build_info
# (its include directory, and the git step before anything that uses it). Two generated headers under
# ${GBX_BUILD_INFO_DIR}/environment/:
#   build_info.h  configure time: gbx's version, compiler, flags, build type, CMake, CUDA, Google
#                 Benchmark, Boost;
#   git_info.h    every build, by cmake/GbxGitFacts.cmake in script mode (-P) on gbx's own tree.
# These describe the gbx library. The program that links it records its own build and source
# (cmake/GbxProgramFacts.cmake): inside gbx's tree the two are the same project.

include("${CMAKE_CURRENT_LIST_DIR}/GbxGitFacts.cmake")

set(GBX_BUILD_INFO_DIR "${PROJECT_BINARY_DIR}/generated")
string(TOUPPER "${CMAKE_BUILD_TYPE}" _gbx_build_type_upper)
string(STRIP "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_gbx_build_type_upper}}" _gbx_flags)
gbx_c_string(GBX_BI_CXX_FLAGS "${_gbx_flags}")
gbx_c_string(GBX_BI_CXX_COMPILER "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
gbx_c_string(GBX_BI_CXX_COMPILER_PATH "${CMAKE_CXX_COMPILER}")
gbx_c_string(GBX_BI_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
set(GBX_BI_CMAKE_VERSION "${CMAKE_VERSION}")
set(GBX_BI_VERSION "${PROJECT_VERSION}")
set(GBX_BI_CUDA_VERSION "")
if(GBX_HAVE_CUDA)
  set(GBX_BI_CUDA_VERSION "${CMAKE_CUDA_COMPILER_VERSION}")
endif()
set(GBX_BI_BENCHMARK_VERSION "${benchmark_VERSION}")
set(GBX_BI_BOOST_VERSION "${Boost_VERSION}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/gbx_build_info.h.in" "${GBX_BUILD_INFO_DIR}/environment/build_info.h" @ONLY)

find_package(Git QUIET)
add_custom_target(gbx_git_info
  COMMAND "${CMAKE_COMMAND}" "-DGBX_SOURCE_DIR=${PROJECT_SOURCE_DIR}" "-DGIT_EXECUTABLE=${GIT_EXECUTABLE}"
          "-DGBX_OUTPUT=${GBX_BUILD_INFO_DIR}/environment/git_info.h" -P "${GBX_GIT_FACTS_SCRIPT}"
  BYPRODUCTS "${GBX_BUILD_INFO_DIR}/environment/git_info.h"
  COMMENT "gbx: git commit, branch and dirty flag"
  VERBATIM)

add_library(gbx_build_info INTERFACE)
target_include_directories(gbx_build_info INTERFACE $<BUILD_INTERFACE:${GBX_BUILD_INFO_DIR}>)
add_dependencies(gbx_build_info gbx_git_info)

# The program's own facts (its build and source), attached to gbx_main in main/CMakeLists.txt.
include("${CMAKE_CURRENT_LIST_DIR}/GbxProgramFacts.cmake")
