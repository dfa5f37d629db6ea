# cmake -DREADME=README.md -DOUT=readme_example.cc -P readme_example.cmake
# Writes the README's first ```cpp block to OUT, so that the benchmark on the front page is compiled and
# run by the tests like any example: a front page whose code does not compile is worse than none.
file(READ "${README}" text)
string(FIND "${text}" "\n```cpp\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${README}: no ```cpp block, so no benchmark on the front page")
endif()
math(EXPR start "${start} + 8")
string(SUBSTRING "${text}" ${start} -1 rest)
string(FIND "${rest}" "\n```" end)
if(end EQUAL -1)
  message(FATAL_ERROR "${README}: the ```cpp block is never closed")
endif()
string(SUBSTRING "${rest}" 0 ${end} code)
set(generated "// Generated from ${README} by tests/style/readme_example.cmake; edit the README.\n${code}\n")
# Rewritten only when the code changed, so that editing the README's prose recompiles nothing.
if(EXISTS "${OUT}")
  file(READ "${OUT}" previous)
  if(previous STREQUAL generated)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${generated}")
