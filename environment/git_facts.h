#pragma once
// gbx's own git answer at build time (cmake/GbxGitFacts.cmake on gbx's tree), for the record's
// source.gbx. The program's own answer, the record's source, is registered by the program
// (<gbx/detail/program_facts.h>). Both are data of a fixed size, defined in their own translation
// unit: docs/build.md, "Builds that compare".
#include <gbx/detail/program_facts.h>

namespace gbx::environment_detail {

// environment/git_facts.cc: among gbx's libraries, the only source that includes git_info.h.
extern const detail::GitFacts git_facts;

}  // namespace gbx::environment_detail
