#include "environment/git_facts.h"

#include "environment/git_info.h"

namespace gbx::environment_detail {

const GitFacts git_facts = {fixed_git_text(GBX_GIT_COMMIT),
                            fixed_git_text(GBX_GIT_COMMIT_UNAVAILABLE),
                            GBX_GIT_DIRTY,
                            fixed_git_text(GBX_GIT_DIRTY_UNAVAILABLE),
                            fixed_git_text(GBX_GIT_BRANCH),
                            fixed_git_text(GBX_GIT_BRANCH_UNAVAILABLE)};

}  // namespace gbx::environment_detail
