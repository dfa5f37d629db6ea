// git's answer kept as fixed-size data (environment/git_facts.h): the cut at a UTF-8 boundary, and the
// facts of this build read back as the record reads them.
#include "environment/git_facts.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace gbx::environment_detail {
namespace {

std::string text_of(const GitText& text) { return std::string(text.data()); }

TEST(GitFacts, ShortTextIsKeptWholeAndZeroFilled) {
  constexpr GitText text = fixed_git_text("main");
  EXPECT_EQ(text_of(text), "main");
  for (std::size_t i = 4; i < kGitTextBytes; ++i) ASSERT_EQ(text[i], '\0') << i;
}

TEST(GitFacts, TextOfExactlyTheLimitIsKept) {
  char value[kGitTextBytes] = {};
  std::memset(value, 'a', kGitTextBytes - 1);
  // fixed_git_text takes a literal's array: build one of the size that the limit allows.
  const GitText text = fixed_git_text(value);
  EXPECT_EQ(text_of(text).size(), kGitTextBytes - 1);
}

TEST(GitFacts, LongerTextIsCutAtTheLimit) {
  char value[kGitTextBytes + 40] = {};
  std::memset(value, 'b', sizeof value - 1);
  const GitText text = fixed_git_text(value);
  EXPECT_EQ(text_of(text), std::string(kGitTextBytes - 1, 'b'));
}

TEST(GitFacts, CutNeverSplitsAUtf8Character) {
  // 254 ASCII bytes, then "é" (0xC3 0xA9): the limit of 255 bytes falls inside it, so it goes whole.
  char value[kGitTextBytes + 8] = {};
  std::memset(value, 'c', 254);
  std::memcpy(value + 254, "\xC3\xA9xyz", 5);
  const GitText text = fixed_git_text(value);
  EXPECT_EQ(text_of(text), std::string(254, 'c'));
  // 253 ASCII bytes, then "é" ends at byte 255: kept.
  std::memset(value, 'c', 253);
  std::memcpy(value + 253, "\xC3\xA9xyz", 5);
  EXPECT_EQ(text_of(fixed_git_text(value)), std::string(253, 'c') + "\xC3\xA9");
}

TEST(GitFacts, ThisBuildsFactsAreWholeAnswers) {
  // Each fact is a value or a reason why not, never both nor neither; without a commit nothing else is known.
  const std::string commit = text_of(git_facts.commit);
  const std::string reason = text_of(git_facts.commit_unavailable);
  EXPECT_NE(commit.empty(), reason.empty()) << "commit '" << commit << "', reason '" << reason << "'";
  if (!commit.empty()) {
    EXPECT_TRUE(commit.size() == 40 || commit.size() == 64) << commit;
  }
  ASSERT_TRUE(git_facts.dirty >= -1 && git_facts.dirty <= 1) << git_facts.dirty;
  EXPECT_EQ(git_facts.dirty == -1, !text_of(git_facts.dirty_unavailable).empty());
  EXPECT_NE(text_of(git_facts.branch).empty(), text_of(git_facts.branch_unavailable).empty());
  if (commit.empty()) {
    EXPECT_EQ(git_facts.dirty, -1);
    EXPECT_TRUE(text_of(git_facts.branch).empty());
  }
}

}  // namespace
}  // namespace gbx::environment_detail
