#include "environment/git_facts.h"

#include "environment/git_info.h"

namespace gbx::environment_detail {

const detail::GitFacts git_facts = {detail::fact_text(GBX_GIT_COMMIT),
                                    detail::fact_text(GBX_GIT_COMMIT_UNAVAILABLE),
                                    GBX_GIT_DIRTY,
                                    detail::fact_text(GBX_GIT_DIRTY_UNAVAILABLE),
                                    detail::fact_text(GBX_GIT_BRANCH),
                                    detail::fact_text(GBX_GIT_BRANCH_UNAVAILABLE)};

}  // namespace gbx::environment_detail
