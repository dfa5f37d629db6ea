#!/usr/bin/env python3
"""Every relative link in README.md and docs/*.md resolves: the file (or folder) exists inside the
repository, and a #anchor names a heading of the target Markdown file, as GitHub slugs it.

usage: links_test.py ROOT            check ROOT/README.md and ROOT/docs/*.md
       links_test.py --self-test     check the checker on links made to be broken

A moved or renamed section otherwise leaves a front page whose links lead nowhere, and nothing
notices: GitHub shows a broken anchor as a link to the top of the page.
"""
import os
import re
import sys
import tempfile
import unicodedata
from urllib.parse import unquote

FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text):
    """The lines outside fenced code blocks, with their numbers: a '#' or '[x](y)' in code is code."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if fence:
            if fenced is None:
                fenced = fence.group(1)
            elif fence.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading: links and code marks dropped, lower case, punctuation removed
    (letters, digits, '-', '_' and spaces kept), spaces turned into '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.lower()
    kept = []
    for character in text:
        category = unicodedata.category(character)
        if character in "-_ " or category[0] in "LN" or category == "Mn":
            kept.append(character)
    return "".join(kept).replace(" ", "-")


def anchors(path):
    """Every anchor that the headings of a Markdown file give, with GitHub's -1, -2 for repeats."""
    seen = {}
    result = set()
    with open(path, encoding="utf-8") as file:
        for _, line in prose_lines(file.read()):
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
    return result


def links(text):
    """(line number, target) for every link in the prose; code spans are not links."""
    for number, line in prose_lines(text):
        definition = REFERENCE_DEFINITION.match(line)
        if definition:
            yield number, definition.group(1).strip("<>")
            continue
        for match in INLINE_LINK.finditer(CODE_SPAN.sub("", line)):
            yield number, match.group(1).strip("<>")


def check_file(root, path, anchor_cache):
    """The faults of one Markdown file's relative links, one sentence each."""
    faults = []
    with open(path, encoding="utf-8") as file:
        text = file.read()
    shown = os.path.relpath(path, root)
    for number, target in links(text):
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        file_part = unquote(file_part)
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        where = f"{shown}:{number}: link '{target}'"
        if os.path.commonpath([os.path.realpath(root), os.path.realpath(resolved)]) != os.path.realpath(root):
            faults.append(f"{where} leaves the repository")
            continue
        if not os.path.exists(resolved):
            faults.append(f"{where}: no file {os.path.relpath(resolved, root)}")
            continue
        if not anchor:
            continue
        if not resolved.endswith(".md"):
            faults.append(f"{where}: an anchor into a file that is not Markdown")
            continue
        if resolved not in anchor_cache:
            anchor_cache[resolved] = anchors(resolved)
        if unquote(anchor).lower() not in anchor_cache[resolved]:
            faults.append(f"{where}: no heading '#{anchor}' in {os.path.relpath(resolved, root)}")
    return faults, sum(1 for _ in links(text))


def check_tree(root):
    """The faults in ROOT/README.md and ROOT/docs/*.md, and how many links were read."""
    documents = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        documents += sorted(os.path.join(docs, name) for name in os.listdir(docs) if name.endswith(".md"))
    faults, count, cache = [], 0, {}
    for document in documents:
        if not os.path.isfile(document):
            faults.append(f"{os.path.relpath(document, root)}: missing")
            continue
        file_faults, file_links = check_file(root, document, cache)
        faults += file_faults
        count += file_links
    return faults, count, len(documents)


def self_test():
    """The checker finds each kind of broken link, and passes what GitHub resolves."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "images"))
        open(os.path.join(root, "docs", "images", "a.png"), "wb").close()
        with open(os.path.join(root, "docs", "topic.md"), "w", encoding="utf-8") as file:
            file.write("# `gbx compare`: the rule\n## Exit codes\n## Exit codes\n```sh\n# not a heading\n```\n"
                       "[back](../README.md#the-front) [self](#exit-codes-1)\n")
        good = ("# The front\n[a](docs/topic.md#gbx-compare-the-rule) ![p](docs/images/a.png) "
                "[b](docs/topic.md#exit-codes) [web](https://example.com/x#y) [dir](docs/)\n"
                "`[code](missing.md)`\n```\n[fenced](missing.md)\n```\n")
        broken = {
            "[x](docs/missing.md)": "no file docs/missing.md",
            "[x](docs/topic.md#no-such-heading)": "no heading '#no-such-heading'",
            "[x](docs/topic.md#not-a-heading)": "no heading '#not-a-heading'",
            "![x](docs/images/b.png)": "no file docs/images/b.png",
            "[x]: docs/gone.md": "no file docs/gone.md",
            "[x](../outside.md)": "leaves the repository",
            "[x](docs/images/a.png#top)": "not Markdown",
        }
        readme = os.path.join(root, "README.md")
        failures = []
        with open(readme, "w", encoding="utf-8") as file:
            file.write(good)
        faults, _, _ = check_tree(root)
        if faults:
            failures.append(f"good links reported broken: {faults}")
        for link, expected in broken.items():
            with open(readme, "w", encoding="utf-8") as file:
                file.write(good + link + "\n")
            faults, _, _ = check_tree(root)
            if len(faults) != 1 or expected not in faults[0]:
                failures.append(f"{link}: expected one fault with '{expected}', got {faults}")
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print(f"the checker passes the good links and finds each of {len(broken)} broken ones")
    return 1 if failures else 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    if len(arguments) != 1 or not os.path.isdir(arguments[0]):
        print("usage: links_test.py ROOT | --self-test (ROOT: the repository, holding README.md and docs/)",
              file=sys.stderr)
        return 2
    root = os.path.abspath(arguments[0])
    faults, count, documents = check_tree(root)
    for fault in faults:
        print("FAIL:", fault)
    if faults:
        print(f"{len(faults)} broken of {count} links in {documents} files")
        return 1
    print(f"{count} links in {documents} files resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
