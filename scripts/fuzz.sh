#!/usr/bin/env bash
# Runs every Fuzz target of the module for $FUZZTIME each (go test -fuzz
# takes one target at a time). Findings fail the run and are written by go
# test under the package's testdata/fuzz, to be committed as regression seeds.
set -euo pipefail
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-5s}
cd "$(dirname "$0")/.."
status=0
while IFS=: read -r file name; do
	pkg="./$(dirname "$file")"
	echo "fuzz $pkg $name ($FUZZTIME)"
	if ! "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg"; then
		status=1
	fi
done < <(grep -rEo --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]*)' --exclude-dir=testdata . | sed -E 's#^\./##; s#:func #:#' | sort -u)
exit $status
