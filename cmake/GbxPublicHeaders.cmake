# The public headers: <gbx/gbx.h> and what it includes. `cmake --install` installs these and no
# others, and with the tests on, the build compiles each one alone (gbx_public_header_check).
set(GBX_PUBLIC_HEADERS
  extensions/axes.h
  extensions/fixture.h
  extensions/measurement.h
  extensions/reference_cache.h
  extensions/short_form.h
  extensions/timer.h
  extensions/warmup.h
  model/accuracy.h
  model/axis_value.h
  model/load_plan.h
  model/load_result.h
  model/measurement.h
  model/observations.h
  model/protocol.h
  model/run_record.h
  model/span.h
  stats/estimates.h)
if(GBX_HAVE_CUDA)
  list(APPEND GBX_PUBLIC_HEADERS extensions/cuda_check.h extensions/cuda_fixture.h extensions/cuda_short_form.h
       extensions/device_array.h)
endif()

# One translation unit per header that includes only that header: a header that leans on an include
# it does not make itself fails here. Like nvbench's cmake/NVBenchHeaderTesting.cmake.
function(gbx_public_header_check)
  set(sources)
  foreach(header IN ITEMS gbx/gbx.h ${GBX_PUBLIC_HEADERS})
    string(MAKE_C_IDENTIFIER "${header}" name)
    set(source "${CMAKE_CURRENT_BINARY_DIR}/public_headers/${name}.cc")
    file(CONFIGURE OUTPUT "${source}" CONTENT "#include <${header}>\n" @ONLY)
    list(APPEND sources "${source}")
  endforeach()
  add_library(gbx_public_header_check OBJECT ${sources})
  target_link_libraries(gbx_public_header_check PRIVATE gbx_extensions)
  gbx_warnings(gbx_public_header_check)
endfunction()
