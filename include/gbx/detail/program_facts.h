#pragma once
// The facts of the program that links gbx, not gbx's own: its build type, flags, compiler and
// optimisation, and the git state of the project that built it. main/gbx_program_facts.cc (installed
// as share/gbx/gbx_program_facts.cc) is compiled inside every program that links gbx::main or
// gbx::gbx and registers them before main() runs; the record's build and source objects come from them
// (cmake/GbxProgramFacts.cmake, docs/json-format.md). Not gbx's interface: it may change.
//
// The texts are data of a fixed size, not string literals in the code that reads them. Inlined, a
// branch's name or git's message compiled into stores of its own length, so that two builds of one
// commit from different checkouts (another branch, a copy without .git) moved every function after it,
// and a memory-bound kernel ran several percent apart between them (docs/build.md, "Builds that compare").
#include <array>
#include <cstddef>

namespace gbx::detail {

template <std::size_t Bytes>
using FixedText = std::array<char, Bytes>;

// The first Bytes - 1 bytes of text at most, cut before a UTF-8 continuation byte, zero-filled.
template <std::size_t Bytes, std::size_t N>
constexpr FixedText<Bytes> fixed_text(const char (&text)[N]) {
  FixedText<Bytes> out{};
  std::size_t length = N - 1;
  if (length > Bytes - 1) {
    length = Bytes - 1;
    while (length > 0 && (static_cast<unsigned char>(text[length]) & 0xC0U) == 0x80U) --length;
  }
  for (std::size_t i = 0; i < length; ++i) out[i] = text[i];
  return out;
}

// A fact: up to 255 bytes. The flags: up to 1023.
inline constexpr std::size_t kFactTextBytes = 256;
inline constexpr std::size_t kFlagsTextBytes = 1024;
using FactText = FixedText<kFactTextBytes>;
using FlagsText = FixedText<kFlagsTextBytes>;

template <std::size_t N>
constexpr FactText fact_text(const char (&text)[N]) {
  return fixed_text<kFactTextBytes>(text);
}

// git's answer at build time (cmake/GbxGitFacts.cmake). Empty when unavailable; *_unavailable says why.
struct GitFacts {
  FactText commit;
  FactText commit_unavailable;
  int dirty;  // 1 dirty (tracked files only), 0 clean, -1 unknown
  FactText dirty_unavailable;
  FactText branch;
  FactText branch_unavailable;
};

struct ProgramFacts {
  FactText build_type;  // CMake's configuration of the program's target; empty: none was set
  FlagsText flags;      // CMAKE_CXX_FLAGS and the configuration's own
  FactText compiler;    // "<id> <version>" of the C++ compiler
  FactText compiler_path;
  FactText cmake;   // CMake's version
  int optimized;    // 1 when the program's own target was compiled with optimisation (__OPTIMIZE__)
  int assertions;   // 1 when it was compiled without NDEBUG
  GitFacts source;  // of the project that built the program
};

// Called once, before main(), by gbx_program_facts.cc; a later call replaces an earlier one, and null
// forgets them. `facts` must live as long as the program (a static object).
void register_program_facts(const ProgramFacts* facts) noexcept;

// What was registered, or null.
const ProgramFacts* program_facts() noexcept;

}  // namespace gbx::detail
