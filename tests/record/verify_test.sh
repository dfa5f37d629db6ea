#!/usr/bin/env bash
# gbx verify: 0 on an intact record, 1 after a one-byte change, 2 on unreadable input.
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2

"$bench" --benchmark_filter='reduce/naive/n:4096' --gbx_min_samples=5 --benchmark_out="$dir/r.json" >"$dir/bench.out" 2>&1 ||
  fail "bench run failed (exit $?): $(cat "$dir/bench.out")"
expect_exit 0 "an intact record" "$gbx" verify "$dir/r.json"
expect_output "an intact record" "$dir/out" 'r\.json: intact \(sha256 [0-9a-f]{64}\)$'

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
expect_exit 1 "a one-byte change" "$gbx" verify "$dir/tampered.json"
expect_output "a one-byte change" "$dir/out" 'tampered\.json: MISMATCH: the record was changed after it was written'

head -c 100 "$dir/r.json" >"$dir/truncated.json"
expect_exit 2 "truncated input" "$gbx" verify "$dir/truncated.json"
expect_output "truncated input: the file named" "$dir/err" '^gbx verify: .*truncated\.json: '
expect_exit 2 "a missing file" "$gbx" verify "$dir/missing.json"
expect_output "a missing file: the file named" "$dir/err" '^gbx verify: .*missing\.json: '
echo '{"benchmarks": []}' >"$dir/plain.json"
expect_exit 2 "a record without a checksum" "$gbx" verify "$dir/plain.json"
expect_output "a record without a checksum" "$dir/err" 'plain\.json: no gbx.checksum'
echo "gbx verify: intact 0, one-byte change 1, unreadable 2"
