#!/usr/bin/env bash
# The labels the sanitizer and Google Benchmark 1.9.5 jobs select by (scripts/sanitize,
# scripts/test-google-benchmark): the statistics tests are below Google Benchmark, the tests of its
# reporters and timers are not, and the tree's text checks are labelled repository. A labelling that
# broke (a second label lost in gtest_discover_tests, say) would silently run too little or too much.
# usage: labels_test.sh BUILD_DIR
set -euo pipefail
build=$1
listed() { ctest --test-dir "$build" -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p'; }
fail() { echo "labels: $*" >&2; exit 1; }

below=$(listed -L below_google_benchmark)
grep -q '^stats\.' <<<"$below" || fail "no stats.* test is labelled below_google_benchmark"
grep -q '^compare\.' <<<"$below" || fail "no compare.* test is labelled below_google_benchmark"
! grep -Eq '^(timers|gbx_reporter|fixture)\.' <<<"$below" || fail "a test that links Google Benchmark is labelled below it:
$(grep -E '^(timers|gbx_reporter|fixture)\.' <<<"$below" | head -3)"
# A discovered test keeps its own label beside it: one label, so -L unit still selects it.
grep -q '^stats\.' <<<"$(listed -L unit)" || fail "the statistics tests lost the label unit"
repository=$(listed -L repository)
grep -qx 'style.clang_format' <<<"$repository" || fail "style.clang_format is not labelled repository"
! grep -qv '^style\.' <<<"$repository" || fail "a test outside tests/style is labelled repository"
echo "labels: $(wc -l <<<"$below") tests below Google Benchmark, $(wc -l <<<"$repository") repository checks"
