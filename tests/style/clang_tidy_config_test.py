#!/usr/bin/env python3
""".clang-tidy's HeaderFilterRegex, checked against the layers (cmake/GbxLayers.cmake): it names every
layer and bench/, examples/ and include/gbx/, it matches every header in those folders, and it leaves
out the tests' and the system's headers. A layer added to GBX_LAYERS but not to the regex fails here,
so clang-tidy cannot silently stop looking at a folder's headers.

usage: clang_tidy_config_test.py SOURCE_DIR"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]).resolve()
failures = []

layers_text = (root / "cmake/GbxLayers.cmake").read_text()
layers = re.search(r"set\(GBX_LAYERS\s+([^)]*)\)", layers_text).group(1).split()
folders = layers + ["bench", "examples", "include/gbx"]

config = (root / ".clang-tidy").read_text()
match = re.search(r"^HeaderFilterRegex:\s*'([^']*)'", config, re.M)
if not match:
    sys.exit("clang_tidy_config: .clang-tidy has no quoted HeaderFilterRegex")
# clang-tidy matches with POSIX extended regular expressions; this one uses only what Python's re
# reads the same way (groups, alternation, classes, ?, +, $, ^).
header_filter = re.compile(match.group(1))

named = set()
for group in re.findall(r"\(([^()]*\|[^()]*)\)", match.group(1)):
    named |= set(group.split("|"))
for folder in folders:
    if folder not in named:
        failures.append(f"HeaderFilterRegex does not name {folder}/")
    if not header_filter.search(f"{root}/{folder}/example_header.h"):
        failures.append(f"HeaderFilterRegex does not match a header in {folder}/")
    for header in sorted((root / folder).rglob("*.h")):
        if "node_modules" not in header.parts and not header_filter.search(str(header)):
            failures.append(f"HeaderFilterRegex does not match {header.relative_to(root)}")

# Headers that are not gbx's own code stay out: the tests' support, Google Benchmark, googletest,
# nlohmann_json, CUDA, the standard library.
for outside in [f"{root}/tests/support/simulated_timer.h", "/usr/include/benchmark/benchmark.h",
                "/usr/include/gtest/gtest.h", "/usr/include/nlohmann/json.hpp",
                "/usr/local/cuda/include/cuda_runtime.h", "/usr/include/c++/12/vector",
                "/usr/include/boost/math/distributions/students_t.hpp"]:
    if header_filter.search(outside):
        failures.append(f"HeaderFilterRegex matches {outside}, which is not gbx's code")

# The job that runs it exists (.ci/run calls it on what changed: docs/build.md says why).
if not (root / "scripts/tidy").is_file():
    failures.append("there is no scripts/tidy")

for failure in failures:
    print("clang_tidy_config: " + failure)
if failures:
    sys.exit(1)
print(f"clang_tidy_config: HeaderFilterRegex covers {len(folders)} folders")
