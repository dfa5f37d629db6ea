# GBX_SANITIZE=address,undefined (any -fsanitize= list) instruments every C++ target, tests and bench
# binaries included, and makes the first finding fatal: CI's sanitizer job (scripts/sanitize) fails on it
# rather than printing it and passing. CUDA device code is left alone (nvcc has no such instrumentation).
set(GBX_SANITIZE "" CACHE STRING "Sanitizers for the C++ code, as -fsanitize= takes them (e.g. address,undefined); empty: none")
if(GBX_SANITIZE)
  set(gbx_sanitize_flags -fsanitize=${GBX_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${gbx_sanitize_flags}>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:${gbx_sanitize_flags}>")
  message(STATUS "gbx: sanitizers ${GBX_SANITIZE}")
endif()

# GBX_FUZZ=ON (scripts/sanitize and scripts/fuzz: clang, GBX_SANITIZE=address,undefined) links the fuzz
# targets under tests/fuzz with libFuzzer instead of the corpus replayer, and gives the layers they
# read records through libFuzzer's coverage (tests/fuzz/CMakeLists.txt).
option(GBX_FUZZ "Build tests/fuzz as libFuzzer targets (clang)" OFF)
