# gbx_library(<name> <sources>...): the static library gbx_<name> of one folder, exported as
# gbx::<name>. Headers are included as "<folder>/<file>.h" from the source root, and from
# include/gbx/detail once installed; the umbrella as <gbx/gbx.h> from include/ (see cmake/GbxInstall.cmake).
function(gbx_library name)
  add_library(gbx_${name} STATIC ${ARGN})
  add_library(gbx::${name} ALIAS gbx_${name})
  set_target_properties(gbx_${name} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  # Consumers compile gbx's headers as C++17 too, installed or not.
  target_compile_features(gbx_${name} PUBLIC cxx_std_17)
  target_include_directories(gbx_${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/gbx/detail>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  gbx_warnings(gbx_${name})
endfunction()
