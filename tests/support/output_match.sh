# The process tests' shared preamble and output matching, sourced by tests/**/*_test.sh:
#   source "$(dirname "$0")/../support/output_match.sh"
#
# Like google/benchmark's test/output_test_helper.cc, expected output is a list of patterns checked
# in order against the lines of a file, and a mismatch prints the pattern expected, where it was
# looked for, and the whole actual output. Patterns are POSIX extended regular expressions (grep -E).
#
#   fail MESSAGE...                  print "FAIL: MESSAGE" and exit 1
#   expect_output WHAT FILE CHECK... each CHECK in order, from the line after the previous match:
#                                      PATTERN       some later line matches
#                                      next:PATTERN  the very next line matches
#                                      not:PATTERN   no line matches before the next check's match
#                                                    (or the end, after the last check)
#   expect_count WHAT FILE N PATTERN exactly N lines match
#   expect_empty WHAT FILE           FILE is empty
#   expect_exit CODE WHAT COMMAND... run COMMAND, stdout to $dir/out and stderr to $dir/err, and
#                                    check its exit code
#   literal STRING                   STRING as a pattern that matches it literally (a path, a flag)
#
# Safe under set -e. Sourcing sets -u, $here (the test's own folder) and $dir (a temporary folder removed on exit).

set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

fail() {
  echo "FAIL: $*"
  exit 1
}

# The actual output, numbered, as a mismatch shows it: the first 200 lines (a record can be long).
_show_output() {
  local file=$1
  echo "  actual output ($file):"
  if [[ -s $file ]]; then
    awk 'NR <= 200 { printf "  %4d| %s\n", NR, $0 } END { if (NR > 200) printf "  ... %d lines in all\n", NR }' "$file"
  else
    echo "  (empty)"
  fi
}

_mismatch() {
  local what=$1 file=$2 message=$3
  echo "FAIL: $what: $message"
  _show_output "$file"
  exit 1
}

# Fails when one of the not: patterns matches a line in [from, to).
_check_absent() {
  local what=$1 file=$2 from=$3 to=$4 i pattern
  shift 4
  for pattern in "$@"; do
    for ((i = from; i < to; i++)); do
      if [[ ${_lines[i]} =~ $pattern ]]; then
        _mismatch "$what" "$file" "line $((i + 1)) matches a pattern it must not:
    $pattern"
      fi
    done
  done
}

expect_output() {
  local what=$1 file=$2
  shift 2
  [[ -r $file ]] || fail "$what: no output file $file"
  mapfile -t _lines <"$file"
  local at=0 check pattern found i
  local -a absent=()
  for check in "$@"; do
    case $check in
      not:*)
        absent+=("${check#not:}")
        continue
        ;;
      next:*)
        pattern=${check#next:}
        found=-1
        if ((at < ${#_lines[@]})) && [[ ${_lines[at]} =~ $pattern ]]; then found=$at; fi
        ((found >= 0)) || _mismatch "$what" "$file" "expected line $((at + 1)) to match
    $pattern"
        ;;
      *)
        pattern=$check
        found=-1
        for ((i = at; i < ${#_lines[@]}; i++)); do
          if [[ ${_lines[i]} =~ $pattern ]]; then
            found=$i
            break
          fi
        done
        ((found >= 0)) || _mismatch "$what" "$file" "expected a line from line $((at + 1)) on to match
    $pattern"
        ;;
    esac
    _check_absent "$what" "$file" "$at" "$found" "${absent[@]}"
    absent=()
    at=$((found + 1))
  done
  _check_absent "$what" "$file" "$at" "${#_lines[@]}" "${absent[@]}"
}

expect_count() {
  local what=$1 file=$2 expected=$3 pattern=$4 count=0 line
  [[ -r $file ]] || fail "$what: no output file $file"
  while IFS= read -r line || [[ -n $line ]]; do
    if [[ $line =~ $pattern ]]; then count=$((count + 1)); fi
  done <"$file"
  ((count == expected)) || _mismatch "$what" "$file" "$count lines match, expected $expected:
    $pattern"
}

literal() {
  printf '%s' "$1" | sed 's/[][\\.*^$+?(){}|]/\\&/g'
}

expect_empty() {
  local what=$1 file=$2
  [[ ! -s $file ]] || _mismatch "$what" "$file" "expected no output"
}

expect_exit() {
  local expected=$1 what=$2 code=0
  shift 2
  "$@" >"$dir/out" 2>"$dir/err" || code=$?
  if ((code != expected)); then
    echo "FAIL: $what: exit code $code, expected $expected"
    _show_output "$dir/out"
    _show_output "$dir/err"
    exit 1
  fi
}
