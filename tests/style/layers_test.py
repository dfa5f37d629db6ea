#!/usr/bin/env python3
"""The layers (cmake/GbxLayers.cmake), checked: each layer is a folder that builds one library named
after it, and no source includes, and no library links, a layer that comes later in the list.
docs/architecture.md's layer table must name the same layers in the same order.

usage: layers_test.py SOURCE_DIR"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
failures = []


def layers():
    text = (root / "cmake/GbxLayers.cmake").read_text()
    match = re.search(r"set\(GBX_LAYERS\s+([^)]*)\)", text)
    if not match:
        sys.exit("layers: cmake/GbxLayers.cmake has no set(GBX_LAYERS ...)")
    return match.group(1).split()


order = layers()
rank = {layer: i for i, layer in enumerate(order)}
include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)
link_call = re.compile(r"target_link_libraries\(\s*gbx_([a-z_]+)([^)]*)\)", re.S)
library_call = re.compile(r"gbx_library\(\s*([a-z_]+)")
add_library = re.compile(r"add_library\(\s*([A-Za-z_]+)")

for layer in order:
    folder = root / layer
    if not (folder / "CMakeLists.txt").is_file():
        failures.append(f"{layer}: in GBX_LAYERS but has no {layer}/CMakeLists.txt")
        continue
    # One library per folder, named after it; a subfolder may add sources to it.
    cmake_files = sorted(folder.rglob("CMakeLists.txt"))
    cmake_text = "\n".join(p.read_text() for p in cmake_files)
    libraries = library_call.findall(cmake_text)
    others = [name for name in add_library.findall(cmake_text)]
    if libraries != [layer] or others:
        failures.append(f"{layer}: builds {libraries + others}, not exactly one library gbx_{layer}")
    for name, args in link_call.findall(cmake_text):
        if name != layer:
            failures.append(f"{layer}/CMakeLists.txt links libraries to gbx_{name}, another layer's library")
        for used in re.findall(r"\bgbx_([a-z_]+)\b", args):
            if used in rank and rank[used] >= rank[layer]:
                failures.append(f"{layer}/CMakeLists.txt: gbx_{layer} links gbx_{used}, "
                                f"which is {'itself' if used == layer else 'a later layer'}")
    # Includes of later layers, in every source of the folder.
    for source in sorted(folder.rglob("*")):
        if source.suffix not in (".h", ".cc", ".cu", ".cuh", ".in") or "node_modules" in source.parts:
            continue
        for used in include.findall(source.read_text(errors="replace")):
            if used in rank and rank[used] > rank[layer]:
                failures.append(f"{source.relative_to(root)} includes {used}/, a later layer than {layer}")

# Every top-level folder with C++ sources is a layer or one of the folders above all of them.
above = {"bench", "examples", "tests", "include", "cmake", "scripts", "docs", "build"}
for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
    if folder.name in rank or folder.name in above or folder.name.startswith("build"):
        continue
    if any(folder.rglob("*.cc")) or any(folder.rglob("*.h")):
        failures.append(f"{folder.name}/ holds sources but is not in GBX_LAYERS")

# The architecture document's table lists the layers in the same order.
doc = root / "docs/architecture.md"
if doc.is_file():
    rows = re.findall(r"^\|\s*\d+\s*\|\s*`([a-z_]+)/`", doc.read_text(), re.M)
    if rows != order:
        failures.append(f"docs/architecture.md's layer table lists {rows}, GBX_LAYERS is {order}")
else:
    failures.append("docs/architecture.md is missing")

for failure in failures:
    print("layers: " + failure)
if failures:
    sys.exit(1)
print(f"layers: {len(order)} layers in order, no include or link runs up the list")
