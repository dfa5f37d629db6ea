#pragma once
// git's answer at build time (cmake/GbxBuildInfo.cmake), for the record's "source" object.
//
// The answer is data of a fixed size, defined in its own translation unit, not string literals in the
// code that reads it. Inlined, a branch's name or git's message compiled into stores of its own
// length, so that two builds of the same code from different checkouts (another branch, a copy
// without .git) moved every function after it, and a memory-bound kernel ran several percent apart
// between them (docs/compare-ab-log.md, twenty-third session).
#include <array>
#include <cstddef>

namespace gbx::environment_detail {

// Up to 255 bytes and a terminating zero; a longer text is cut where a UTF-8 character begins.
inline constexpr std::size_t kGitTextBytes = 256;
using GitText = std::array<char, kGitTextBytes>;

struct GitFacts {
  // Empty when unavailable; the *_unavailable text says why.
  GitText commit;
  GitText commit_unavailable;
  int dirty;  // 1 dirty, 0 clean, -1 unknown
  GitText dirty_unavailable;
  GitText branch;
  GitText branch_unavailable;
};

// The first kGitTextBytes - 1 bytes of text at most, cut before a UTF-8 continuation byte, zero-filled.
template <std::size_t N>
constexpr GitText fixed_git_text(const char (&text)[N]) {
  GitText out{};
  std::size_t length = N - 1;
  if (length > kGitTextBytes - 1) {
    length = kGitTextBytes - 1;
    while (length > 0 && (static_cast<unsigned char>(text[length]) & 0xC0U) == 0x80U) --length;
  }
  for (std::size_t i = 0; i < length; ++i) out[i] = text[i];
  return out;
}

// environment/git_facts.cc: among a bench binary's sources, the only one that includes git_info.h.
extern const GitFacts git_facts;

}  // namespace gbx::environment_detail
