#!/usr/bin/env bash
# Build the static playground into dist/: release build, relative URLs, no
# network needed to serve or use it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
trunk build --release
# The embeddable engine and its widget (dist/embed/), after trunk, which
# empties dist/.
./scripts/build-embed.sh
echo "dist/ is ready: serve it from any path, e.g. python3 -m http.server -d dist"
