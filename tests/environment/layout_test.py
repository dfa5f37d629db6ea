#!/usr/bin/env python3
"""Two builds of one commit from different checkouts have the same layout (docs/build.md).

    layout_test.py SOURCE_DIR BUILD_DIR --cmake CMAKE --git GIT --layers A,B,... FILE...
    layout_test.py SOURCE_DIR BUILD_DIR --cmake CMAKE --git GIT --no-paths WHY

FILE: archives and objects (a ';'-list counts as several).

1. git's answer changes no code: the two sources that hold it, environment/git_facts.cc (gbx's own,
   in gbx's library) and main/gbx_program_facts.cc (the program's, compiled inside each bench binary),
   compiled with compile_commands.json's own commands against the header that cmake/GbxGitFacts.cmake
   writes for five checkouts made here (a clean branch; a long non-ASCII branch with a tracked file
   changed; a detached HEAD; a folder without .git; git not found), give objects whose loaded sections
   have the same sizes, and gbx_program_facts.cc (which has code: it registers the facts) the same
   bytes of code.
2. No checkout's path is compiled in: no FILE (gbx's libraries, the bench families' objects) holds a
   path under SOURCE_DIR of a gbx source in one of the LAYERS, bench/ or include/. --no-paths skips
   this part, saying why.
"""
import argparse
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

parser = argparse.ArgumentParser()
parser.add_argument("source_dir", type=pathlib.Path)
parser.add_argument("build_dir", type=pathlib.Path)
parser.add_argument("--cmake", required=True)
parser.add_argument("--git", default="", help="git's path as CMake found it (empty: not found)")
parser.add_argument("--layers", default="", help="GBX_LAYERS, comma-separated")
parser.add_argument("--no-paths", metavar="WHY", help="skip the path check, saying why")
parser.add_argument("inputs", nargs="*")
args = parser.parse_intermixed_args()
source_dir, build_dir = args.source_dir, args.build_dir
inputs = [pathlib.Path(p) for arg in args.inputs for p in arg.split(";") if p]
if args.no_paths is None and not (inputs and args.layers):
    sys.exit("layout_test: no archive or object to look for paths in, or no --layers (or --no-paths WHY)")
if not args.git or not os.path.exists(args.git):
    print("layout_test: skipped: git was not found at configure time, so only one git answer can be made")
    sys.exit(77)
failures = []


def git(repo, *words):
    # A private configuration: the user's own (hooks, signing, default branch) must not change the answer.
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1",
               GIT_CEILING_DIRECTORIES=str(repo.parent))
    subprocess.run([args.git, "-c", "user.name=gbx", "-c", "user.email=gbx@localhost", *words], cwd=repo,
                   env=env, check=True, capture_output=True)


def checkouts(root):
    """Checkouts whose git answers differ as CI's do, each with the git that the generator is given."""
    made = {}
    for name in ("clean", "long_branch", "detached"):
        repo = root / name
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        (repo / "tracked.txt").write_text("gbx\n")
        git(repo, "add", "tracked.txt")
        git(repo, "commit", "-q", "-m", name)
        made[name] = (repo, args.git)
    # Loose refs are files: each path component stays under 255 bytes, the whole name well over it.
    git(root / "long_branch", "checkout", "-q", "-b", "feature/" + "/".join(["d\u00e9p\u00f4t-" * 20] * 3))
    (root / "long_branch" / "tracked.txt").write_text("changed\n")
    git(root / "detached", "checkout", "-q", "--detach")
    (root / "no_git").mkdir()
    made["no_git"] = (root / "no_git", args.git)
    made["git_not_found"] = (root / "clean", str(root / "no-such-git"))
    return made


# Each source that holds git's answer: the include folder its command names, and the header there.
HOLDERS = {
    "environment/git_facts.cc": ("generated", "environment/git_info.h"),
    "main/gbx_program_facts.cc": ("gbx_program_facts", "gbx_program_git.h"),
}


def generate(checkout, git_path, generated):
    """The generator's header for one checkout, written where each holder's command will find it."""
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(checkout.parent))
    texts = []
    for folder, header in HOLDERS.values():
        out = generated / folder / header
        subprocess.run([args.cmake, f"-DGBX_SOURCE_DIR={checkout}", f"-DGIT_EXECUTABLE={git_path}",
                        f"-DGBX_OUTPUT={out}", "-P", str(source_dir / "cmake/GbxGitFacts.cmake")],
                       env=env, check=True)
        texts.append(out.read_text(encoding="utf-8"))
    if len(set(texts)) != 1:
        sys.exit(f"layout_test: one checkout, two answers: {texts}")
    return texts[0]


def command_for(source):
    for entry in json.loads((build_dir / "compile_commands.json").read_text()):
        if pathlib.Path(entry["file"]) == source_dir / source:
            words = entry.get("arguments") or shlex.split(entry["command"])
            return words, entry["directory"]
    sys.exit(f"layout_test: {source} is not in {build_dir}/compile_commands.json")


def compile_with(source, generated, out):
    words, directory = command_for(source)
    folder = HOLDERS[source][0]
    replaced = "-I" + str(generated / folder)
    kept = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word in ("-o", "-MT", "-MF"):
            skip = True
            continue
        if word == "-MD":
            continue
        kept.append(replaced if word == f"-I{build_dir}/{folder}" else word)
    if replaced not in kept:
        sys.exit(f"layout_test: {source}'s command has no -I{build_dir}/{folder} to replace: {shlex.join(words)}")
    subprocess.run(kept + ["-o", str(out)], cwd=directory, check=True)


def sections(obj):
    """Sizes of the sections that are loaded (code and data), by name."""
    sizes = {}
    for line in subprocess.run(["size", "-A", str(obj)], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and re.match(r"\.(text|rodata|data|bss)", fields[0]):
            sizes[fields[0]] = int(fields[1])
    return sizes


def code_bytes(obj):
    out = obj.with_suffix(".text")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.text*", str(obj), str(out)], check=True)
    return out.read_bytes()


with tempfile.TemporaryDirectory() as tmp:
    work = pathlib.Path(tmp)
    (work / "checkouts").mkdir()
    headers = {}
    for name, (checkout, git_path) in checkouts(work / "checkouts").items():
        headers[name] = generate(checkout, git_path, work / name)
    # Answers that were alike would prove nothing.
    for name, text in headers.items():
        twins = [other for other, other_text in headers.items() if other < name and other_text == text]
        if twins:
            failures.append(f"the generator gave '{name}' the same git_info.h as '{twins[0]}'")
    if "d\u00e9p\u00f4t" not in headers["long_branch"]:
        failures.append("the long branch is not in its git_info.h:\n" + headers["long_branch"])
    for source in HOLDERS:
        seen = {}
        for name in headers:
            obj = work / f"{name}-{pathlib.Path(source).stem}.o"
            compile_with(source, work / name, obj)
            # Both hold the answer as data; gbx_program_facts.cc's code (the registration) must be the same bytes.
            seen[name] = (sections(obj), code_bytes(obj) if source.startswith("main/") else b"")
        first_name, (first_sizes, first_code) = next(iter(seen.items()))
        for name, (sizes, code) in seen.items():
            changed = sorted(key for key in set(sizes) | set(first_sizes) if sizes.get(key) != first_sizes.get(key))
            if changed:
                failures.append(f"{source}: git's answer '{name}' against '{first_name}' changes the size of " +
                                ", ".join(f"{key} ({first_sizes.get(key)} -> {sizes.get(key)} bytes)" for key in changed[:4]))
            elif code != first_code:
                failures.append(f"{source}: git's answer '{name}' changes the code's bytes")
        totals = {kind: sum(size for key, size in first_sizes.items() if key.startswith("." + kind))
                  for kind in ("text", "rodata", "data", "bss")}
        print(f"{source}: {len(seen)} git answers, one layout: {totals} bytes")

if args.no_paths is not None:
    print("paths: not checked:", args.no_paths or "--no-paths")
else:
    folders = args.layers.split(",") + ["bench", "include"]
    pattern = re.compile(re.escape(str(source_dir).encode()) + rb"/(?:" + b"|".join(
        re.escape(folder.encode()) for folder in folders) + rb")/[\w./-]*")
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
