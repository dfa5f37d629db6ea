// The program's own build and source facts, for its record (build and source; docs/json-format.md).
// This file is not in gbx's libraries: linking gbx::main or gbx::gbx compiles it inside the program's
// own target (cmake/GbxProgramFacts.cmake), so what it sees is that target's configuration, flags and
// optimisation, and the git state of the project that builds it, not gbx's.
#include <gbx/detail/program_facts.h>

#include "gbx_program_build.h"  // generate time: configuration, flags, compiler
#include "gbx_program_git.h"    // build time: commit, branch, dirty flag

namespace {

#ifdef __OPTIMIZE__
constexpr int kOptimized = 1;
#else
constexpr int kOptimized = 0;
#endif
#ifdef NDEBUG
constexpr int kAssertions = 0;
#else
constexpr int kAssertions = 1;
#endif

using gbx::detail::fact_text;

constexpr gbx::detail::ProgramFacts kProgramFacts = {
    fact_text(GBX_PROGRAM_BUILD_TYPE),
    gbx::detail::fixed_text<gbx::detail::kFlagsTextBytes>(GBX_PROGRAM_CXX_FLAGS),
    fact_text(GBX_PROGRAM_CXX_COMPILER),
    fact_text(GBX_PROGRAM_CXX_COMPILER_PATH),
    fact_text(GBX_PROGRAM_CMAKE_VERSION),
    kOptimized,
    kAssertions,
    {fact_text(GBX_GIT_COMMIT), fact_text(GBX_GIT_COMMIT_UNAVAILABLE), GBX_GIT_DIRTY,
     fact_text(GBX_GIT_DIRTY_UNAVAILABLE), fact_text(GBX_GIT_BRANCH), fact_text(GBX_GIT_BRANCH_UNAVAILABLE)}};

// Before main(): the registry is a pointer that starts null (constant initialisation), so the order of
// static initialisers does not matter.
[[maybe_unused]] const bool kRegistered = (gbx::detail::register_program_facts(&kProgramFacts), true);

}  // namespace
