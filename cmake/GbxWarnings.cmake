# Warnings are errors in our own code; third-party headers come in as SYSTEM and stay quiet.
# GBX_WERROR=OFF keeps the warnings but not the errors: for a compiler this project was not written
# against (scripts/gpu-check on the GPU machine, whose host compiler is not the development GCC 12),
# where a warning new to that compiler would otherwise stop the build.
option(GBX_WERROR "Treat warnings in gbx's own code as errors" ON)
message(STATUS "gbx: warnings are errors: ${GBX_WERROR}")

function(gbx_warnings target)
  set(cxx -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
  set(cuda -Xcompiler=-Wall,-Wextra)
  if(GBX_WERROR)
    list(APPEND cxx -Werror)
    set(cuda -Werror=all-warnings --Werror cross-execution-space-call -Xcompiler=-Wall,-Wextra,-Werror)
  endif()
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${cxx}>" "$<$<COMPILE_LANGUAGE:CUDA>:${cuda}>")
endfunction()
