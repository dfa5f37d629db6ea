#!/usr/bin/env python3
"""The docs are a manual, not a log: three checks over the tree's text.

usage: docs_test.py ROOT            check the tree at ROOT
       docs_test.py --self-test     check the checker on a tree made to fail each check

1. No diary marker: an ordinal ("ninth", "twenty-third", "23rd", or "this", "last", "next") followed by
   the word session, in any case and across a line break, in docs, code, CMake files or scripts. What
   was measured when belongs in a commit message; a page states what is true now, and a figure with
   its date, commit and command.
2. No absolute path of a development machine's folders: neither the folder above the checkout (taken
   when the test runs) nor /work followed by a name, in the same files. Such a path means nothing on
   another machine.
3. Every docs/*.md page is linked from docs/README.md, the index: a page nobody can find is not read.

Which files: Markdown anywhere; code (.cc .h .cu .cuh .cpp .hpp .c .py .sh .js .mjs .css and the .in
templates); CMakeLists.txt and *.cmake; every text file under scripts/ and .ci/. Skipped: build
folders (any folder holding a CMakeCache.txt, and the top-level build*/ of .gitignore), hidden folders
other than .ci and .github, node_modules, and test fixtures, which are data recorded on some machine
and keep its paths on purpose: every folder named fixtures or corpus under tests/ (the recorded
records and the fuzz corpus). JSON is data, not text of the project, and is not read.
"""
import os
import re
import sys
import tempfile

ORDINAL = (r"(?:[a-z]+-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
           r"|[a-z]+teenth|[a-z]+tieth|[0-9]+(?:st|nd|rd|th)|this|last|next|previous|earlier)")
# A hyphenated ordinal ("twenty-third") is one marker; the space may be a line break, and
# a comment's leader (//, #, *) may start the next line.
DIARY = re.compile(r"\b" + ORDINAL + r"\s+(?:(?://+|#+|\*)\s*)?sessions?\b", re.IGNORECASE)
CODE_SUFFIXES = (".md", ".cc", ".h", ".cu", ".cuh", ".cpp", ".hpp", ".c", ".py", ".sh", ".js", ".mjs",
                 ".css", ".in", ".cmake")
SCRIPT_FOLDERS = ("scripts", ".ci")
KEPT_HIDDEN = (".ci", ".github")
FIXTURE_FOLDERS = ("fixtures", "corpus")


def scanned_files(root):
    """The files of docs, code, CMake and scripts under root, relative to it, test fixtures left out."""
    for folder, subfolders, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        parts = [] if relative == "." else relative.split(os.sep)
        if "CMakeCache.txt" in files:
            subfolders[:] = []
            continue
        kept = []
        for name in subfolders:
            if name.startswith(".") and name not in KEPT_HIDDEN:
                continue
            if name in ("node_modules", "__pycache__") or (not parts and name.startswith("build")):
                continue
            if parts and parts[0] == "tests" and name in FIXTURE_FOLDERS:
                continue
            kept.append(name)
        subfolders[:] = sorted(kept)
        in_scripts = bool(parts) and parts[0] in SCRIPT_FOLDERS
        for name in sorted(files):
            if in_scripts or name == "CMakeLists.txt" or name.endswith(CODE_SUFFIXES):
                yield os.path.join(relative, name) if parts else name


def machine_paths(root):
    """The absolute folders of a development machine that no file may name: the checkout's parent
    (unless it is the file system's root) and /work."""
    parent = os.path.dirname(os.path.realpath(root))
    folders = {"/" + "work"}
    if parent != "/":
        folders.add(parent)
    # A path starts after a space, a quote, a bracket, '=' or ':', never inside a longer one, and goes
    # on with '/' and a name: a GitHub runner's home/runner/work is not /work, and /work alone names nothing.
    tail = r"/[\w.-][^\s'\"`)\]>,;]*"
    return [re.compile(r"(?<![\w.~/-])" + re.escape(folder) + tail) for folder in sorted(folders)]


def line_of(text, position):
    return text.count("\n", 0, position) + 1


def index_faults(root):
    """The docs/*.md pages that docs/README.md does not link."""
    docs = os.path.join(root, "docs")
    if not os.path.isdir(docs):
        return []
    index_path = os.path.join(docs, "README.md")
    if not os.path.isfile(index_path):
        return ["docs/README.md: missing: the index of docs/ must exist"]
    with open(index_path, encoding="utf-8") as file:
        index = file.read()
    linked = {target.split("#")[0] for target in re.findall(r"\]\(\s*<?([^)\s>]+)", index)}
    linked = {os.path.normpath(target) for target in linked}
    faults = []
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md") and name != "README.md" and name not in linked:
            faults.append(f"docs/{name}: not linked from docs/README.md: add it to the index, or remove the page")
    return faults


def faults_of(root):
    faults = []
    paths = machine_paths(root)
    for relative in scanned_files(root):
        try:
            with open(os.path.join(root, relative), encoding="utf-8") as file:
                text = file.read()
        except (UnicodeDecodeError, OSError):
            continue
        for match in DIARY.finditer(text):
            marker = " ".join(match.group(0).split())
            faults.append(f"{relative}:{line_of(text, match.start())}: diary marker '{marker}': say what is "
                          "true now, and give a figure its date, commit and command")
        for pattern in paths:
            for match in pattern.finditer(text):
                faults.append(f"{relative}:{line_of(text, match.start())}: absolute path of a development "
                              f"machine '{match.group(0)}': name the file relative to the repository")
    return faults + index_faults(root)


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def self_test():
    """A tree with one fault of each kind, and the same text where it is allowed: the checker must find
    exactly the faults."""
    with tempfile.TemporaryDirectory() as parent:
        root = os.path.join(parent, "checkout")
        work = "/" + "work/"
        write(root, "docs/README.md", "# Index\n\n[a](a.md), [b](b.md#part)\n")
        write(root, "docs/a.md", "# A\n\nMeasured in the twenty-" + "third\nsession.\n")
        write(root, "docs/b.md", "# B\n\nThe session's log, a first try, sessions of 10 s, gbx::NvmlSession.\n")
        write(root, "docs/orphan.md", "# Orphan\n")
        write(root, "stats/x.cc", "// see " + work + "aa16 and " + os.path.join(parent, "note") + "\n")
        write(root, "scripts/run", "#!/bin/sh\n# this " + "session, and /home/runner" + work + "x\n")
        write(root, "CMakeLists.txt", "# the 7th " + "Session\n")
        write(root, "tests/record/fixtures/r.cc", "// " + work + "main/build\n")
        write(root, "build/CMakeCache.txt", "")
        write(root, "build/x.cc", "// the 9th " + "session\n")
        write(root, "notes.json", '{"path": "' + work + 'x", "what": "the 9th ' + 'session"}\n')
        found = sorted(fault.split(": ")[0] + ": " + fault.split(": ")[1].split(" '")[0]
                       for fault in faults_of(root))
    expected = sorted([
        "CMakeLists.txt:1: diary marker",
        "docs/a.md:3: diary marker",
        "docs/orphan.md: not linked from docs/README.md",
        "scripts/run:2: diary marker",
        "stats/x.cc:1: absolute path of a development machine",
        "stats/x.cc:1: absolute path of a development machine",
    ])
    if found != expected:
        print("FAIL: the checker found:\n  " + "\n  ".join(found) + "\nexpected:\n  " + "\n  ".join(expected))
        return 1
    print(f"the checker finds the {len(expected)} faults made for it, and nothing where they are allowed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: docs_test.py ROOT | --self-test", file=sys.stderr)
        return 2
    faults = faults_of(argv[1])
    for fault in faults:
        print("FAIL: " + fault)
    if faults:
        return 1
    print(f"{sum(1 for _ in scanned_files(argv[1]))} files: no diary marker, no machine path; docs/ indexed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
