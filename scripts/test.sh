#!/usr/bin/env bash
# Sets up (idempotently) and runs every test: native unit/integration tests,
# the libclassad conformance suite (expected values are committed), the seed
# figure tests and the CLI smoke test.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1; }
need cargo || { echo "cargo not found: install Rust (rustup) first" >&2; exit 1; }

echo "== fetching crates (offline afterwards)"
cargo fetch --locked >/dev/null

echo "== native tests"
cargo test -p classad --locked

echo "== CLI smoke test"
cargo build --locked -p classad --bin classad
bin=target/debug/classad
out=$(printf '1 + 2\n[a = 1; b = a + 2].b\n1 +\n' | "$bin" eval || true)
expected=$'3\n3\nPARSE_ERROR'
if [ "$(printf '%s\n' "$out" | cut -c1-11)" != "$expected" ]; then
  echo "CLI smoke test failed:"; echo "$out"; exit 1
fi
"$bin" fmt --to json tests/seeds/000_fig02.classad >/dev/null

echo "== all tests passed"
