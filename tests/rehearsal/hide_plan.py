"""Prints how to hide installed Debian packages' files inside a mount namespace, one action a line:

  tmpfs DIR          every file under DIR belongs to them: an empty tmpfs over it
  pyhide DIR         a Python package of theirs: a stand-in whose __init__.py raises ImportError
  poison KIND FILE   a file of theirs among others': a stand-in bound over it that fails when used
                     (KIND: header, cmake, pc, library, python, other)
  keep FILE          a symlink of theirs to a file they do not own (libssl-dev's libcrypto.so ->
                     libssl3's libcrypto.so.3): binding over it would hide the target from the
                     system's own tools; scripts/gpu-check's cache check covers these

Usage: hide_plan.py PACKAGE... (packages that are not installed are skipped). Only what a build
can find is hidden: headers, libraries, CMake and pkg-config files, Python modules.
"""
import os
import subprocess
import sys

SEARCHED = ("/usr/include/", "/usr/lib/", "/usr/share/cmake", "/usr/share/pkgconfig/", "/usr/src/")
# Never replaced whole, whatever they hold.
PROTECTED = {"/", "/usr", "/usr/include", "/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/share", "/usr/src",
             "/usr/lib/python3", "/usr/lib/python3/dist-packages", "/usr/lib/x86_64-linux-gnu/cmake",
             "/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/share/pkgconfig", "/usr/include/x86_64-linux-gnu"}


def package_paths(package):
    listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    if listed.returncode != 0:
        return []
    return [p for p in listed.stdout.splitlines() if p.startswith(SEARCHED)]


def kind(path):
    name = os.path.basename(path)
    if path.startswith("/usr/include/") or name.endswith((".h", ".hpp", ".hxx", ".ipp", ".tcc", ".inl")):
        return "header"
    if name.endswith(".cmake"):
        return "cmake"
    if name.endswith(".pc"):
        return "pc"
    if name.endswith(".a") or ".so" in name:
        return "library"
    if name.endswith(".py"):
        return "python"
    return "other"


def main():
    owned = set()
    for package in sys.argv[1:]:
        for path in package_paths(package):
            if os.path.islink(path) or os.path.isfile(path):
                owned.add(path)

    whole = {}

    def wholly_owned(directory):
        if directory not in whole:
            # __pycache__: written by Python at run time, so no package lists it.
            entries = [os.path.join(directory, e) for e in os.listdir(directory) if e != "__pycache__"]
            whole[directory] = bool(entries) and all(
                wholly_owned(e) if os.path.isdir(e) and not os.path.islink(e) else e in owned for e in entries)
        return whole[directory]

    hidden_dirs = set()
    for path in owned:
        top = None
        directory = os.path.dirname(path)
        while directory not in PROTECTED and wholly_owned(directory):
            top = directory
            directory = os.path.dirname(directory)
        if top:
            hidden_dirs.add(top)

    def under_hidden(path):
        return any(path == d or path.startswith(d + "/") for d in hidden_dirs)

    for directory in sorted(hidden_dirs):
        python_package = os.path.dirname(directory).endswith("-packages") and not directory.endswith(
            (".dist-info", ".egg-info"))
        print(("pyhide " if python_package else "tmpfs ") + directory)
    poisoned = set()
    for path in sorted(owned):
        if under_hidden(path):
            continue
        target = os.path.realpath(path)
        if os.path.islink(path) and (under_hidden(target) or target in owned or not os.path.exists(target)):
            continue  # dangles once its target is hidden, or its target is poisoned in its own right
        if os.path.islink(path) and target not in owned:
            print("keep " + path)
            continue
        if target not in poisoned:
            poisoned.add(target)
            print(f"poison {kind(path)} {target}")


if __name__ == "__main__":
    main()
