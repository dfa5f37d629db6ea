#!/usr/bin/env bash
# gbx verify: 0 on an intact record, 1 after a one-byte change, 2 on unreadable input.
set -u
bench=$1 gbx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bench" --benchmark_filter='reduce/naive/n:4096' --gbx_min_samples=5 --benchmark_out="$dir/r.json" >"$dir/bench.out" 2>&1 ||
  fail "bench run failed (exit $?): $(cat "$dir/bench.out")"
"$gbx" verify "$dir/r.json" >"$dir/out" 2>&1
[[ $? -eq 0 ]] || fail "intact record not verified: $(cat "$dir/out")"
grep -q intact "$dir/out" || fail "no 'intact' in: $(cat "$dir/out")"

# Change one digit of one sample: one byte.
python3 - "$dir/r.json" "$dir/tampered.json" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
match = re.search(r'"samples": \[\s*\d\.(\d)', text)
position = match.start(1)
digit = text[position]
text = text[:position] + ("1" if digit != "1" else "2") + text[position + 1:]
open(sys.argv[2], "w").write(text)
PY
cmp -l "$dir/r.json" "$dir/tampered.json" | wc -l | grep -qx 1 || fail "the tampered copy differs by more than one byte"
"$gbx" verify "$dir/tampered.json" >"$dir/out" 2>&1
[[ $? -eq 1 ]] || fail "one-byte change not detected: $(cat "$dir/out")"
grep -q MISMATCH "$dir/out" || fail "no MISMATCH in: $(cat "$dir/out")"

head -c 100 "$dir/r.json" >"$dir/truncated.json"
"$gbx" verify "$dir/truncated.json" >/dev/null 2>"$dir/err"
[[ $? -eq 2 ]] || fail "truncated input: expected exit 2"
grep -q truncated.json "$dir/err" || fail "the message does not name the file"
"$gbx" verify "$dir/missing.json" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "missing file: expected exit 2"
echo '{"benchmarks": []}' >"$dir/plain.json"
"$gbx" verify "$dir/plain.json" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "record without a checksum: expected exit 2"
echo "gbx verify: intact 0, one-byte change 1, unreadable 2"
