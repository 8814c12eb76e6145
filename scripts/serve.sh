#!/usr/bin/env bash
# Set up (idempotently), build the release playground and the embeddable
# engine (scripts/dist.sh: trunk, then scripts/build-embed.sh) and serve
# them on http://127.0.0.1:8080 (the engine's example page at /embed/)
# until interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/dist.sh
echo "serving http://127.0.0.1:8080"
exec python3 -m http.server 8080 --bind 127.0.0.1 --directory dist
