#!/bin/bash
# The /docs comparison of docs/decisions.md "The /docs page: hand-written against Redoc and Scalar (issue 35 item 6)".
# Fetches the candidates with `npm pack` into $WORK (nothing is installed into node_modules), lays out one
# folder per variant (its index.html here + the library's bundle), and starts five servers on the embedded
# store from a copy of the tree with serve-variant.patch applied (two env overrides: the /docs folder and the
# pages' CSP). Then: node measure.mjs <variant> <url> 3; node timing.mjs 5. Stop them with the pids in $WORK/*/pid.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
WORK=${WORK:-/tmp/docs-page-compare}
mkdir -p "$WORK/cand" && cd "$WORK/cand"
npm pack redoc@2.5.1 redoc@3.0.1 @scalar/api-reference@1.76.0 >/dev/null 2>&1
for f in *.tgz; do mkdir -p "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}"; done
for v in redoc2 redoc3 scalar; do mkdir -p "$WORK/variants/$v" && cp "$HERE/variants/$v/"* "$WORK/variants/$v/"; done
cp redoc-2.5.1/package/bundles/redoc.standalone.js "$WORK/variants/redoc2/"
cp redoc-3.0.1/package/bundles/redoc.standalone.js "$WORK/variants/redoc3/"
cp scalar-api-reference-1.76.0/package/dist/browser/standalone.js scalar-api-reference-1.76.0/package/dist/style.css "$WORK/variants/scalar/"
# A copy of the tree with the patch, so that the checkout itself stays as it is.
mkdir -p "$WORK/tree" && cp -r "$ROOT/src" "$ROOT/package.json" "$ROOT/tsconfig.json" "$WORK/tree/" && ln -sfn "$ROOT/node_modules" "$WORK/tree/node_modules"
(cd "$WORK/tree" && patch -p1 -s < "$HERE/serve-variant.patch")
# Redoc's styled-components cannot run under the pages' policy (its <style> elements are refused): it is
# measured under this one, the page policy plus inline styles and blob: workers, still nothing from elsewhere.
RELAXED="default-src 'self'; script-src 'self' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; frame-src blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
start() { # name port docs-dir csp
  mkdir -p "$WORK/$1/data"
  (cd "$WORK/tree" && env PORT=$2 DATA_DIR="$WORK/$1/data" ADMIN_EMAIL=admin@example.com ADMIN_PASSWORD=correct-horse-battery \
    LOG_LEVEL=warn ${3:+EXPERIMENT_DOCS_DIR=$3} ${4:+EXPERIMENT_PAGE_CSP="$4"} node --import tsx src/main.ts >"$WORK/$1/log" 2>&1 &
    echo $! >"$WORK/$1/pid")
}
start hand 39351 "" ""
start redoc2 39353 "$WORK/variants/redoc2" "$RELAXED"
start redoc3 39355 "$WORK/variants/redoc3" "$RELAXED"
start scalar 39358 "$WORK/variants/scalar" ""
echo "servers starting; pids in $WORK/*/pid"
