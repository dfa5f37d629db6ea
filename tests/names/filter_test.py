#!/usr/bin/env python3
"""Every name the console of a bench binary shows, and every name `gbx compare R R` shows for its
record, selects that one benchmark when given back to the binary as --benchmark_filter.

    filter_test.py BENCH_REDUCE PLAIN_BENCH GBX WORK_DIR

bench_reduce holds gbx class-form benchmarks; plain_bench holds plain Google Benchmark ones in each
registration form and one short-form gbx benchmark, whose axis is set to n=1024,10240 so that one shown
name (scale/loop/n:1024) is a prefix of another's. Google Benchmark searches the filter anywhere in a
name, so such a name is given anchored, as docs/flags.md says: ^NAME(/iterations:1/manual_time)?$.
The console's name, compare's and compare's JSON shown_name must be one and the same.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

SUFFIX = "/iterations:1/manual_time"
# Few samples: the names are under test here, not the timings.
QUICK = ["--gbx_min_samples=5", "--gbx_max_samples=5", "--gbx_warmup=1", "--benchmark_repetitions=1"]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    if done.returncode not in (0, 3):
        sys.exit(f"{command} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def shown(name):
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


def console_names(text):
    """The names in the first column of the console's table (a long one has a line of its own)."""
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("Benchmark "))
    names = []
    for line in lines[header + 2 :]:
        if line.startswith("protocol:") or line.startswith("plain Google Benchmark benchmarks:"):
            break
        if not line or line[0].isspace():
            continue
        first = line.split()[0]
        rest = line[len(first) :]
        # A row: the name alone, or the name then its median ("4.11 us"). Anything else (the count of
        # benchmarks not run here, say) is no row.
        if rest.strip() == "" or re.match(r"^ +[0-9.]+ [nuµm]?s ", rest):
            names.append(first)
    return names


def compare_names(text):
    """The names in gbx compare's console table: the column before Base, as wide as the header says."""
    lines = text.splitlines()
    header = lines[0]
    width = header.index("Base") - 6
    names = []
    for line in lines[1:]:
        if not line.strip():
            break
        names.append(line[:width].rstrip())
    return names


def anchored(name):
    # Google Benchmark's filter is a POSIX extended regular expression: its special characters escaped.
    return "^" + re.sub(r"([.^$|()\[\]{}*+?\\])", r"\\\1", name) + "(" + SUFFIX + ")?$"


def check_filter(binary, flags, name, listed):
    def selected(pattern):
        out = run([binary, *flags, "--benchmark_list_tests", "--benchmark_filter=" + pattern])
        return [line for line in out.splitlines() if line]

    inside_another = any(other != name and other.find(name) >= 0 for other in map(shown, listed))
    for pattern in [anchored(name)] + ([] if inside_another else [name]):
        got = selected(pattern)
        if len(got) != 1 or shown(got[0]) != name:
            fail(f"{os.path.basename(binary)}: --benchmark_filter={pattern} (shown name {name}) selects {got}")
    return inside_another


def check_binary(binary, flags, work):
    directory = os.path.join(work, os.path.basename(binary))
    os.makedirs(directory)
    console = run([binary, *flags, *QUICK, "--gbx_out_dir=" + directory])
    shown_by_console = console_names(console)
    record = glob.glob(os.path.join(directory, "*.json"))
    if len(record) != 1:
        sys.exit(f"{binary}: expected one record in {directory}, found {record}")
    entries = json.load(open(record[0]))["benchmarks"]
    measured = [shown(b["name"]) for b in entries if b.get("run_type") == "iteration" and not b.get("error_occurred")]
    if sorted(shown_by_console) != sorted(set(measured)):
        fail(f"{binary}: the console shows {shown_by_console}, the record measured {measured}\n{console}")
    compared = compare_names(run([gbx, "compare", record[0], record[0]]))
    if compared != shown_by_console:
        fail(f"{binary}: gbx compare shows {compared}, the console {shown_by_console}")
    rows = json.loads(run([gbx, "compare", "--format=json", record[0], record[0]]))["rows"]
    if [r["shown_name"] for r in rows] != compared or any(r["shown_name"] != shown(r["name"]) for r in rows):
        fail(f"{binary}: gbx compare's JSON shown_name: {[(r['name'], r['shown_name']) for r in rows]}")
    listed = [line for line in run([binary, *flags, "--benchmark_list_tests"]).splitlines() if line]
    before = len(failures)
    anchored_only = [n for n in sorted(set(shown_by_console) | set(compared)) if check_filter(binary, flags, n, listed)]
    if len(failures) == before:
        print(f"{os.path.basename(binary)}: {len(shown_by_console)} names, each selects its benchmark alone"
              + (f"; anchored, as found inside another name: {anchored_only}" if anchored_only else ""))
    return shown_by_console, anchored_only


bench_reduce, plain_bench, gbx, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
reduce_names, _ = check_binary(bench_reduce, [], work)
plain_names, prefixes = check_binary(plain_bench, ["--gbx_axis=n=1024,10240"], work)
if not any(name.startswith("reduce/") for name in reduce_names):
    fail(f"bench_reduce showed no reduce benchmark: {reduce_names}")
for wanted in ("BM_copy/4096", "BM_manual/n:2048/manual_time", "BM_fill<float>", "scale/loop/n:10240"):
    if wanted not in plain_names:
        fail(f"plain_bench: {wanted} not shown: {plain_names}")
if prefixes != ["scale/loop/n:1024"]:
    fail(f"plain_bench: expected scale/loop/n:1024 alone to need the anchor, got {prefixes}")
if failures:
    sys.exit(f"{len(failures)} failure(s)")
print("PASS")
