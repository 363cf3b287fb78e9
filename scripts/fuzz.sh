#!/usr/bin/env bash
# Runs every Fuzz target of the module for $FUZZTIME each (go test -fuzz
# takes one target at a time). Findings fail the run and are written by go
# test under the package's testdata/fuzz, to be committed as regression seeds.
#
# Go 1.26's fuzzing coordinator can fail a run with a bare "context deadline
# exceeded" when -fuzztime ends while a worker is busy (go.dev/issue/75804,
# fixed in Go 1.27): such a failure, with no input written, is reported as
# a flake and does not fail the run.
#
# FUZZ_TARGETS, an extended regular expression, keeps the targets whose
# "file:Name" matches it (make test runs a fixed sample this way).
set -euo pipefail
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-5s}
FUZZ_TARGETS=${FUZZ_TARGETS:-.}
cd "$(dirname "$0")/.."
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
inputs() { if [ -d "$1" ]; then find "$1" -type f | sort; fi; }
while IFS=: read -r file name; do
	pkg="./$(dirname "$file")"
	corpus="$pkg/testdata/fuzz/$name"
	before=$(inputs "$corpus")
	echo "fuzz $pkg $name ($FUZZTIME)"
	if "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1 | tee "$log"; then
		continue
	fi
	if [ "$(inputs "$corpus")" = "$before" ] && grep -qx '    context deadline exceeded' "$log"; then
		echo "fuzz $pkg $name: coordinator deadline race (go.dev/issue/75804), no failing input: not a finding"
		continue
	fi
	status=1
done < <(grep -rEo --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]*)' --exclude-dir=testdata . | sed -E 's#^\./##; s#:func #:#' | grep -E -- "$FUZZ_TARGETS" | sort -u)
exit $status
