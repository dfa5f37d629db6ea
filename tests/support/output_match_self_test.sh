#!/usr/bin/env bash
# tests/support/output_match.sh passes what matches and fails, with the pattern and the actual
# output in its message, what does not: each case runs in a subshell, since a failure exits.
source "$(dirname "$0")/output_match.sh"

printf '%s\n' 'header' '[1/2] first 0.5 s' '[2/2] second 0.7 s' 'done' >"$dir/text"

passes() {
  local what=$1
  shift
  ("$@") >"$dir/result" 2>&1 || fail "$what: failed on matching output: $(cat "$dir/result")"
}
fails() {
  local what=$1 message=$2
  shift 2
  ("$@") >"$dir/result" 2>&1 && fail "$what: passed on output that does not match"
  grep -qF -- "$message" "$dir/result" || fail "$what: the message does not say '$message': $(cat "$dir/result")"
  grep -qF '   3| [2/2] second 0.7 s' "$dir/result" || fail "$what: the actual output is not shown: $(cat "$dir/result")"
}

passes "in order" expect_output "progress" "$dir/text" '^\[1/2\] first' '^\[2/2\] second [0-9.]+ s$' 'done'
passes "next" expect_output "progress" "$dir/text" '^header$' 'next:^\[1/2\]' 'next:^\[2/2\]'
passes "not, before the next match" expect_output "progress" "$dir/text" 'header' 'not:second' 'first'
passes "literal" expect_output "progress" "$dir/text" "^$(literal '[2/2] second 0.7 s')$"
fails "literal, not a pattern" "expected a line from line 1 on to match" \
  expect_output "literal" "$dir/text" "$(literal '[1-2/2] first')"
passes "count" expect_count "progress" "$dir/text" 2 '^\[[0-9]/2\]'
passes "exit code" expect_exit 3 "exit" bash -c 'echo out; exit 3'
fails "out of order" "expected a line from line 4 on to match" \
  expect_output "order" "$dir/text" 'second' 'first'
fails "next, not adjacent" "expected line 2 to match" expect_output "next" "$dir/text" '^header$' 'next:second'
fails "not" "line 3 matches a pattern it must not" expect_output "not" "$dir/text" 'first' 'not:second' 'done'
fails "trailing not" "line 3 matches a pattern it must not" expect_output "not" "$dir/text" 'first' 'not:second'
fails "count" "1 lines match, expected 2" expect_count "count" "$dir/text" 2 'first'
fails "empty" "expected no output" expect_empty "empty" "$dir/text"
( expect_exit 0 "exit" bash -c 'echo oops >&2; exit 4' ) >"$dir/result" 2>&1 && fail "a wrong exit code passed"
grep -qF 'exit code 4, expected 0' "$dir/result" && grep -qF 'oops' "$dir/result" ||
  fail "the exit code's message: $(cat "$dir/result")"
echo "output_match: matches in order, next and not; counts; exit codes; failures name the pattern and show the output"
