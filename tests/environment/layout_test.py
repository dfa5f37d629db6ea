#!/usr/bin/env python3
"""Two builds of one commit from different checkouts have the same layout (docs/build.md).

    layout_test.py SOURCE_DIR BUILD_DIR FILE...        (archives and objects; a ';'-list counts as several)
    layout_test.py SOURCE_DIR BUILD_DIR --no-paths WHY

1. git's answer changes no code: environment/git_facts.cc and environment/source.cc, compiled with
   compile_commands.json's own commands against three different git_info.h (a clean branch, a long
   branch with uncommitted changes, a copy without .git whose reason is long and not ASCII), give
   objects whose sections have the same sizes, and source.cc the same bytes of code.
2. No checkout's path is compiled in: no FILE (gbx's libraries, the bench families' objects) holds a
   path under SOURCE_DIR of a gbx source. --no-paths skips this part, saying why.
"""
import json
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

source_dir, build_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
skip_paths = sys.argv[3:4] == ["--no-paths"]
inputs = [] if skip_paths else [pathlib.Path(p) for arg in sys.argv[3:] for p in arg.split(";") if p]
if not skip_paths and not inputs:
    sys.exit("layout_test: no archive or object to look for paths in (or --no-paths WHY)")
failures = []

ANSWERS = {
    "clean": dict(commit="0123456789abcdef0123456789abcdef01234567", commit_reason="", dirty=0,
                  dirty_reason="", branch="main", branch_reason=""),
    "long_branch": dict(commit="fedcba9876543210fedcba9876543210fedcba98", commit_reason="", dirty=1,
                        dirty_reason="", branch="feature/" + "x" * 300, branch_reason=""),
    "no_git": dict(commit="", commit_reason="git rev-parse HEAD failed: fatal: " + "d\u00e9p\u00f4t " * 60,
                   dirty=-1, dirty_reason="git rev-parse HEAD failed", branch="", branch_reason="no git"),
}


def header(answer):
    def literal(value):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "\n".join([
        "#pragma once",
        f"#define GBX_GIT_COMMIT {literal(answer['commit'])}",
        f"#define GBX_GIT_COMMIT_UNAVAILABLE {literal(answer['commit_reason'])}",
        f"#define GBX_GIT_DIRTY {answer['dirty']}",
        f"#define GBX_GIT_DIRTY_UNAVAILABLE {literal(answer['dirty_reason'])}",
        f"#define GBX_GIT_BRANCH {literal(answer['branch'])}",
        f"#define GBX_GIT_BRANCH_UNAVAILABLE {literal(answer['branch_reason'])}",
        ""])


def command_for(source):
    for entry in json.loads((build_dir / "compile_commands.json").read_text()):
        if pathlib.Path(entry["file"]) == source_dir / source:
            args = entry.get("arguments") or shlex.split(entry["command"])
            return args, entry["directory"]
    sys.exit(f"layout_test: {source} is not in {build_dir}/compile_commands.json")


def compile_with(source, generated, out):
    args, directory = command_for(source)
    kept = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in ("-o", "-MT", "-MF"):
            skip = True
            continue
        if arg == "-MD":
            continue
        kept.append("-I" + str(generated) if arg == f"-I{build_dir}/generated" else arg)
    if "-I" + str(generated) not in kept:
        sys.exit(f"layout_test: {source}'s command has no -I{build_dir}/generated to replace: {shlex.join(args)}")
    subprocess.run(kept + ["-o", str(out)], cwd=directory, check=True)


def sections(obj):
    """Sizes of the sections that are loaded (code and data), by name."""
    sizes = {}
    for line in subprocess.run(["size", "-A", str(obj)], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and re.match(r"\.(text|rodata|data|bss)", fields[0]):
            sizes[fields[0]] = int(fields[1])
    return sizes


def code_bytes(obj, work):
    out = work / (obj.name + ".text")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.text*", str(obj), str(out)], check=True)
    return out.read_bytes()


with tempfile.TemporaryDirectory() as tmp:
    work = pathlib.Path(tmp)
    for source in ("environment/git_facts.cc", "environment/source.cc"):
        seen = {}
        for name, answer in ANSWERS.items():
            generated = work / name
            (generated / "environment").mkdir(parents=True, exist_ok=True)
            (generated / "environment" / "git_info.h").write_text(header(answer), encoding="utf-8")
            obj = work / f"{name}-{pathlib.Path(source).stem}.o"
            compile_with(source, generated, obj)
            seen[name] = (sections(obj), code_bytes(obj, work))
        first_name, (first_sizes, first_code) = next(iter(seen.items()))
        for name, (sizes, code) in seen.items():
            changed = sorted(key for key in set(sizes) | set(first_sizes) if sizes.get(key) != first_sizes.get(key))
            if changed:
                failures.append(f"{source}: git's answer '{name}' against '{first_name}' changes the size of " +
                                ", ".join(f"{key} ({first_sizes.get(key)} -> {sizes.get(key)} bytes)" for key in changed[:4]))
            elif source.endswith("source.cc") and code != first_code:
                failures.append(f"{source}: git's answer '{name}' changes the code's bytes")
        totals = {kind: sum(size for key, size in first_sizes.items() if key.startswith("." + kind))
                  for kind in ("text", "rodata", "data", "bss")}
        print(f"{source}: {len(seen)} git answers, one layout: {totals} bytes")

if skip_paths:
    print("paths: not checked:", " ".join(sys.argv[4:]) or "--no-paths")
else:
    layers = re.search(r"set\(GBX_LAYERS([^)]*)\)", (source_dir / "cmake/GbxLayers.cmake").read_text()).group(1).split()
    pattern = re.compile(re.escape(str(source_dir).encode()) + rb"/(?:" + b"|".join(
        re.escape(folder.encode()) for folder in layers + ["bench", "include"]) + rb")/[\w./-]*")
    holding = {}
    for path in inputs:
        found = sorted({match.group().decode(errors="replace") for match in pattern.finditer(path.read_bytes())})
        if found:
            holding[path.name] = found
    for name, found in holding.items():
        failures.append(f"{name} holds {len(found)} paths of the checkout, e.g. {found[:3]}")
    print(f"paths: {len(inputs)} archives and objects, {len(holding)} with a path under {source_dir}")

for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
