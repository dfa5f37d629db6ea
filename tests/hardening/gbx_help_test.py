#!/usr/bin/env python3
"""Each `gbx SUBCOMMAND --help` lists the exit codes that docs/exit-codes.md gives that subcommand, and
gbx's subcommands are the table's; a misspelled option of a subcommand is answered with its nearest
spellings.

usage: gbx_help_test.py GBX DOCS/EXIT-CODES.MD

A code added to the code and its help but not to the page (gbx ab's 130 and 143 once, gbx compare's 3
in its help) leaves a CI script that reads one of them handling the wrong set; the test fails on
either side. The help lists the codes at the end of the subcommand's description, after its last
": ", as "0 meaning, 1 meaning, 130/143 meaning"; words in parentheses are not codes.
"""
import re
import subprocess
import sys

CODE_ITEM = re.compile(r"(?:^|, )(\d+(?:/\d+)*) ")
PARENTHESES = re.compile(r"\([^()]*\)")


def codes_in_description(description):
    """The exit codes a subcommand's description lists after its last ': '."""
    if ": " not in description:
        return set()
    listed = PARENTHESES.sub("", description.rsplit(": ", 1)[1])
    codes = set()
    for match in CODE_ITEM.finditer(listed):
        codes.update(int(code) for code in match.group(1).split("/"))
    return codes


def description_of(help_text):
    """The description CLI11 prints above 'Usage:', its lines joined."""
    head = help_text.split("Usage:", 1)[0]
    return " ".join(line.strip() for line in head.splitlines() if line.strip())


def table_of(markdown):
    """{subcommand: set of codes} from the page's table whose header starts '| subcommand |'. A column
    headed '130 / 143' gives both codes; a non-empty cell means the subcommand returns them."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| subcommand |"))
    cells = lambda line: [cell.strip() for cell in line.strip().strip("|").split("|")]
    columns = [{int(code) for code in header.split("/")} for header in cells(lines[start])[1:]]
    table = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        row = cells(line)
        codes = set()
        for column, cell in zip(columns, row[1:]):
            if cell:
                codes |= column
        for name in re.findall(r"`gbx (\w+)`", row[0]):
            table[name] = codes
    return table


def subcommands_of(help_text):
    """The names under 'Subcommands:' in `gbx --help`."""
    names = []
    section = help_text.split("Subcommands:", 1)[1]
    for line in section.splitlines():
        match = re.match(r"^  (\w+)\s", line)
        if match:
            names.append(match.group(1))
    return names


def self_test():
    """The parsers find what a mismatch would change; otherwise the test could pass on nothing."""
    assert codes_in_description("Do: 0 done, 1 worse (2 of them, 3 at most), 130/143 cut") == {0, 1, 130, 143}
    assert codes_in_description("Do it (see a: b): 0 done, 2 bad input") == {0, 2}
    assert codes_in_description("Print the version") == set()
    page = "x\n\n| subcommand | 0 | 1 | 130 / 143 |\n| --- | --- | --- | --- |\n" \
           "| `gbx a`, `gbx b` | ok | | cut |\n| `gbx c` | ok | bad | |\n\nafter\n"
    assert table_of(page) == {"a": {0, 130, 143}, "b": {0, 130, 143}, "c": {0, 1}}, table_of(page)
    assert subcommands_of("gbx\nUsage: gbx\n\nSubcommands:\n  verify    V: 0 ok\n  ab        A\n") == ["verify", "ab"]


def run(gbx, *args):
    return subprocess.run([gbx, *args], capture_output=True, text=True, timeout=60)


def main():
    gbx, page = sys.argv[1], sys.argv[2]
    self_test()
    failures = []
    with open(page, encoding="utf-8") as file:
        table = table_of(file.read())
    top = run(gbx, "--help")
    if top.returncode != 0:
        failures.append(f"gbx --help exited {top.returncode}")
    names = subcommands_of(top.stdout)
    if set(names) != set(table):
        failures.append(f"gbx --help lists {sorted(names)}, {page} has {sorted(table)}")
    for name in names:
        result = run(gbx, name, "--help")
        listed = codes_in_description(description_of(result.stdout))
        if result.returncode != 0:
            failures.append(f"gbx {name} --help exited {result.returncode}")
        elif not listed:
            failures.append(f"gbx {name} --help lists no exit codes: {description_of(result.stdout)!r}")
        elif name in table and listed != table[name]:
            failures.append(f"gbx {name} --help lists exit codes {sorted(listed)}, {page} {sorted(table[name])}")
    # CLI11 names an unknown option without a guess; gbx adds the nearest spellings.
    for args, expected in [
        (["compare", "--formt=json", "a.json", "b.json"], "did you mean --format?"),
        (["ab", "--base", "x", "--bugdet=5s"], "did you mean --budget?"),
        (["--verison"], "did you mean --version?"),
    ]:
        result = run(gbx, *args)
        if result.returncode != 2 or expected not in result.stderr:
            failures.append(f"gbx {' '.join(args)}: exit {result.returncode}, wanted 2 and {expected!r}: "
                            f"{result.stderr.strip()}")
    result = run(gbx, "report", "--frobnicate-everything=1", "a.json")
    if result.returncode != 2 or "did you mean" in result.stderr:
        failures.append(f"gbx report --frobnicate-everything: a guess for a word like no option: {result.stderr}")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"gbx_help: {len(names)} subcommands list the exit codes of {page}; misspelled options get suggestions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
