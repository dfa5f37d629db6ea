# Warnings are errors in our own code; third-party headers come in as SYSTEM and stay quiet.
function(gbx_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings --Werror cross-execution-space-call -Xcompiler=-Wall,-Wextra,-Werror>)
endfunction()
