#!/usr/bin/env python3
"""scripts/tidy-select.py, the sources `scripts/tidy --changed` checks in CI, on a repository made here:
a change to a source selects it, a change to a header selects what includes it (by the build's
`ninja -t deps`, stood in for by a script that prints them), an untracked source and one without
dependencies are selected, .clang-tidy changed or a baseline missing from the history selects every
source, and tests/ and generated sources are never selected.

    tidy_select_test.py SOURCE_ROOT
"""
import json, os, pathlib, subprocess, sys, tempfile

select = pathlib.Path(sys.argv[1]) / "scripts/tidy-select.py"
failures = []


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True)


def write(repo, name, text):
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def selected(repo, env, *args):
    run = subprocess.run([sys.executable, str(select), str(repo), str(repo / "build/compile_commands.json"), *args],
                         capture_output=True, text=True, env=env)
    return run.returncode, sorted(run.stdout.split()), run.stderr


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: selected {got}, expected {want}")


with tempfile.TemporaryDirectory() as tmp:
    repo = pathlib.Path(tmp) / "repo"
    sources = ["stats/a.cc", "model/b.cc", "bench/c.cc", "tests/t.cc"]
    write(repo, "cmake/GbxLayers.cmake", "set(GBX_LAYERS stats model)\n")
    write(repo, ".clang-tidy", "Checks: '-*'\n")
    for name in sources + ["stats/a.h", "model/b.h"]:
        write(repo, name, f"// {name}\n")
    write(repo, ".gitignore", "build/\n")
    git(repo, "init", "-q")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "baseline")
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    write(repo, "scripts/tidy-baseline", head)
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "the baseline named")
    # The build: a compile database of every source and a generated one; the dependencies ninja knows.
    build = repo / "build"
    compiled = sources + ["stats/n.cc", "build/generated/g.cc"]
    write(repo, "build/compile_commands.json",
          json.dumps([{"directory": str(build), "file": str(repo / f), "command": "c++ -c " + f} for f in compiled]))
    deps = {"stats/a.cc": ["stats/a.h", "model/b.h"], "model/b.cc": ["model/b.h"], "bench/c.cc": [],
            "tests/t.cc": ["stats/a.h"]}
    lines = []
    for source, headers in deps.items():
        lines.append(f"{source}.o: #deps {1 + len(headers)}, deps mtime 1 (VALID)")
        lines += [f"    ../{name}" for name in [source] + headers] + [""]
    tools = pathlib.Path(tmp) / "bin"
    write(tools.parent, "bin/ninja", "#!/bin/sh\ncat <<'DEPS'\n" + "\n".join(lines) + "\nDEPS\n")
    (tools / "ninja").chmod(0o755)
    env = dict(os.environ, PATH=f"{tools}:{os.environ['PATH']}")
    every = ["bench/c.cc", "model/b.cc", "stats/a.cc", "stats/n.cc"]

    code, got, _ = selected(repo, env)
    expect("a whole run", got, every)
    # stats/n.cc is in the build but has no dependencies recorded: always checked.
    code, got, _ = selected(repo, env, "--changed")
    expect("nothing changed", got, ["stats/n.cc"])
    write(repo, "model/b.h", "// changed\n")
    code, got, _ = selected(repo, env, "--changed")
    expect("a header changed", got, ["model/b.cc", "stats/a.cc", "stats/n.cc"])
    git(repo, "checkout", "-q", "--", "model/b.h")
    write(repo, "bench/c.cc", "// changed\n")
    write(repo, "stats/new.cc", "// untracked\n")
    code, got, _ = selected(repo, env, "--changed")
    expect("a source changed", got, ["bench/c.cc", "stats/n.cc"])
    git(repo, "checkout", "-q", "--", "bench/c.cc")
    write(repo, ".clang-tidy", "Checks: 'bugprone-*'\n")
    code, got, err = selected(repo, env, "--changed")
    expect(".clang-tidy changed", got, every)
    if ".clang-tidy changed" not in err:
        failures.append(f".clang-tidy changed: no word of it on stderr: {err!r}")
    git(repo, "checkout", "-q", "--", ".clang-tidy")
    write(repo, "scripts/tidy-baseline", "0" * 40 + "\n")
    code, got, err = selected(repo, env, "--changed")
    expect("a baseline not in the history", got, every)
    code, got, _ = selected(repo, env, "stats/a.cc")
    expect("a file named", got, ["stats/a.cc"])
    code, got, err = selected(repo, env, "tests/t.cc")
    if code == 0 or "not a .cc of gbx's own code" not in err:
        failures.append(f"tests/t.cc named: exit {code}, stderr {err!r}")

for failure in failures:
    print("FAIL:", failure)
if not failures:
    print("tidy-select: every selection as expected")
sys.exit(1 if failures else 0)
