#!/usr/bin/env python3
"""The sources scripts/tidy checks, one per line (tested by tests/style/tidy_select_test.py).

    scripts/tidy-select.py ROOT COMPILE_COMMANDS [--changed] [FILE...]

Every .cc of gbx's own code in the compile database: the folders named in cmake/GbxLayers.cmake's
GBX_LAYERS, plus bench/ and examples/ (so a new layer is checked without an edit here). FILEs: those
instead, each of which must be such a source. --changed: only the sources that differ from
scripts/tidy-baseline, or whose compiled dependencies (`ninja -C <database's folder> -t deps`) include
a file that differs; every source when the baseline is not in the history or .clang-tidy differs; a
source the build has no dependencies of is always kept.
"""
import json, pathlib, re, subprocess, sys
root, database, wanted = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
changed = bool(wanted) and wanted[0] == "--changed"
if changed:
    wanted = wanted[1:]
layers = re.search(r"set\(GBX_LAYERS\s+([^)]*)\)", (root / "cmake/GbxLayers.cmake").read_text()).group(1).split()
folders = set(layers) | {"bench", "examples"}
compiled = sorted({str(pathlib.Path(entry["file"]).resolve().relative_to(root))
                   for entry in json.load(open(database))
                   if pathlib.Path(entry["file"]).resolve().is_relative_to(root)})
ours = [f for f in compiled if f.endswith(".cc") and f.split("/")[0] in folders]
if wanted:
    missing = [f for f in wanted if f not in ours]
    if missing:
        sys.exit(f"tidy: not a .cc of gbx's own code in the compile database: {' '.join(missing)}")
    ours = wanted
elif changed:
    base = (root / "scripts/tidy-baseline").read_text().split()[0]
    git = lambda *args: subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if git("cat-file", "-e", base + "^{commit}").returncode != 0:
        print(f"tidy: the baseline {base} is not in this history: every source", file=sys.stderr)
    else:
        differ = set(git("diff", "--name-only", base).stdout.split())
        differ |= set(git("ls-files", "--others", "--exclude-standard").stdout.split())
        if ".clang-tidy" in differ:
            print("tidy: .clang-tidy changed since the baseline: every source", file=sys.stderr)
        else:
            build = pathlib.Path(database).parent
            deps, source = {}, None
            for line in subprocess.run(["ninja", "-C", str(build), "-t", "deps"], capture_output=True,
                                       text=True).stdout.splitlines():
                if not line.startswith("    "):
                    source = None
                    continue
                path = (build / line.strip()).resolve()
                if not path.is_relative_to(root):
                    continue
                name = str(path.relative_to(root))
                if source is None:
                    source = name
                    deps.setdefault(source, set())
                deps[source].add(name)
            ours = [f for f in ours if f in differ or f not in deps or deps[f] & differ]
            print(f"tidy: {len(ours)} sources differ from the baseline {base[:12]} or include what does",
                  file=sys.stderr)
if ours:
    print("\n".join(ours))
