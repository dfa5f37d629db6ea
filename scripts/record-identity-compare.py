#!/usr/bin/env python3
"""Compares two trees' records of one probe run (scripts/record-identity): BASE_1 BASE_2 HEAD_1 HEAD_2,
each tree's record twice. A field may differ between the trees only where it also differs between
two runs of one tree, in its value or in being there at all (a time of day, a run id, a pid, a peak
the machine measures, a flag its load raises), where it is a reading of the moment (a time of day, a
load average, a pid, a run id), or where it names the source tree (environment.source); the seal
covers them all and is left out. Checked, in order:
the fields in their order, then the files line by line, so that a change of layout shows as well.

With --repeat A B, two runs of one tree: only the readings of the moment, CPU time and what the
machine measures at each run (its peaks, and the fractions of them) may differ; a record that is not
reproducible from its seed and its stand-in clock fails.

usage: record-identity-compare.py BASE_1 BASE_2 HEAD_1 HEAD_2 | --repeat A B"""
import difflib
import json
import re
import sys

SOURCE = "/gbx/environment/source/"
SEAL = "/gbx/checksum/value"
# Readings of the moment that two quick runs of one tree may happen to share (the load average moves
# every 5 s, a time of day every second): allowed to differ whether or not the two runs saw them move.
MEASURED = re.compile(r"/(cpu_time|cpu_seconds_per_run)$|^/gbx/environment/peaks/|"
                      r"/throughput/(fraction_of_peak\w*|peak_\w+)$")
READINGS = re.compile(r"^/context/(date|load_avg/\d+)$|^/gbx/environment/host/load_average_(start|end)/|"
                      r"/(started_utc|created_utc|pid|run_id)$")


def fields(value, path=""):
    """(path, value) for every leaf, in the file's order."""
    if isinstance(value, (dict, list)) and not value:
        yield path, value  # an empty object or array is a field too
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from fields(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from fields(item, f"{path}/{index}")
    else:
        yield path, value


def load(path):
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        return text, list(fields(json.loads(text)))
    except (OSError, ValueError) as error:
        sys.exit(f"record-identity-compare: {path}: {error}")


def repeat(first_path, second_path):
    (_, first), (_, second) = load(first_path), load(second_path)
    first_values, second_values = dict(first), dict(second)
    differences = [
        path
        for path in sorted(set(first_values) | set(second_values))
        if first_values.get(path, "(absent)") != second_values.get(path, "(absent)")
        and path != SEAL
        and not READINGS.search(path)
        and not MEASURED.search(path)
    ]
    for path in differences:
        print(f"DIFFERS: {path}: {first_values.get(path, '(absent)')} -> {second_values.get(path, '(absent)')}")
    if [p for p, _ in first] != [p for p, _ in second] and not differences:
        print("DIFFERS: the fields come in another order")
        return 1
    if differences:
        return 1
    print(f"record-identity: {first_path} and {second_path} agree on all {len(first)} fields but the readings "
          "of the moment and what the machine measures")
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--repeat":
        return repeat(sys.argv[2], sys.argv[3])
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    (base_text, base), (base_again_text, base_again), (head_text, head), (head_again_text, head_again) = map(
        load, sys.argv[1:]
    )
    # What two runs of one tree disagree on: a value, or whether the field is there at all.
    volatile = set()
    for one, other in ((base, base_again), (head, head_again)):
        one_values, other_values = dict(one), dict(other)
        volatile |= {p for p in one_values if p in other_values and one_values[p] != other_values[p]}
        volatile |= set(one_values) ^ set(other_values)
    allowed = lambda path: (  # noqa: E731
        path in volatile or path == SEAL or path.startswith(SOURCE) or READINGS.search(path) is not None
    )

    differences = []
    base_paths = [p for p, _ in base]
    head_paths = [p for p, _ in head]
    base_values, head_values = dict(base), dict(head)
    differences += [f"only in the base: {p}" for p in base_paths if p not in head_values and not allowed(p)]
    differences += [f"only in the working tree: {p}" for p in head_paths if p not in base_values and not allowed(p)]
    common_base = [p for p in base_paths if p in head_values]
    common_head = [p for p in head_paths if p in base_values]
    if common_base != common_head:
        first = next(i for i, (a, b) in enumerate(zip(common_base, common_head)) if a != b)
        differences.append(f"the fields come in another order, first at {common_base[first]} / {common_head[first]}")
    for path in common_base:
        if base_values[path] != head_values[path] and not allowed(path):
            differences.append(f"{path}: {json.dumps(base_values[path])} -> {json.dumps(head_values[path])}")

    # The layout: line by line, a line may differ only where it holds an allowed field's value.
    allowed_text = {
        json.dumps(value, ensure_ascii=False)
        for record in (base, head)
        for path, value in record
        if allowed(path)
    }
    allowed_keys = {path.rsplit("/", 1)[-1] for record in (base, head) for path, _ in record if allowed(path)}

    def line_allowed(line):
        text = line.strip().rstrip(",")
        if set(text) <= set("[]{}"):  # a bracket of an object or array that a volatile field adds
            return True
        key, separator, value = text.partition('": ')
        if not separator:
            value, key = key, ""
        return value in allowed_text or key.lstrip('"') in allowed_keys

    base_lines, head_lines = base_text.splitlines(), head_text.splitlines()
    layout = 0
    matcher = difflib.SequenceMatcher(a=base_lines, b=head_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for line in base_lines[i1:i2] + head_lines[j1:j2]:
            if not line_allowed(line):
                layout += 1
                if layout <= 5:
                    differences.append(f"a line differs: {line.strip()!r}")

    counted = sorted(volatile)
    print(f"record-identity: {len(base)} fields; {len(counted)} differ between two runs of one tree, "
          f"{sum(1 for p in base_values if p.startswith(SOURCE))} name the source tree, and the seal")
    for path in counted:
        print(f"  volatile: {path}")
    if differences:
        for difference in differences:
            print("DIFFERS:", difference)
        return 1
    print(f"record-identity: the same ({sys.argv[1]} and {sys.argv[3]}): every other field, its order and "
          f"the layout of all {len(base_lines)} lines")
    return 0


sys.exit(main())
