#!/usr/bin/env bash
# Idempotent set-up of everything the build and the tests need, from the
# registries this machine reaches (crates.io, npm, Debian). Each step is
# skipped when the right version is already there.
#   scripts/setup.sh                   tools to build the playground
#   scripts/setup.sh --browser         also Chromium (end-to-end tests)
#   scripts/setup.sh --no-wasm-tools   all but trunk and wasm-bindgen-cli
#   scripts/setup.sh --wasm-tools      only those two (scripts/test.sh builds
#                                      them beside the native tests)
#   scripts/setup.sh --only-browser    only Chromium (scripts/test.sh installs
#                                      it while the rest builds)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen in Cargo.lock

say() { printf '== %s\n' "$*"; }
browser=false wasm_tools=true rest=true
for arg in "$@"; do
  case "$arg" in
    --browser) browser=true ;;
    --no-wasm-tools) wasm_tools=false ;;
    --wasm-tools) rest=false ;;
    --only-browser) browser=true wasm_tools=false rest=false ;;
    *) echo "setup.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done
export PATH="$root/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

if $rest; then
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
fi

if $wasm_tools; then
  # Tools built once: only the features the project uses (no update check,
  # no TLS: the project brings its own wasm-bindgen and wasm-opt, so trunk
  # downloads nothing) and a release profile that compiles fast (no LTO,
  # many codegen units, no optimization: trunk 132 s instead of 294 s at
  # opt-level 1 on 2 cores; wasm-bindgen then takes 1.4 s instead of 0.5 s
  # on the engine worker's module, a few seconds a test run).
  tool_profile=(CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
                CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=0
                CARGO_PROFILE_RELEASE_INCREMENTAL=false
                # One build directory for both: they share many crates.
                CARGO_TARGET_DIR="$root/target/tools")
  if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
    say "installing trunk $TRUNK_VERSION (a few minutes, once)"
    env "${tool_profile[@]}" cargo install trunk --locked --version "$TRUNK_VERSION" --no-default-features
  fi

  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
    # Not --locked: its published lock file does not build here (TOOLCHAIN.md).
    # Its two programs the project runs (not wasm2es6js).
    env "${tool_profile[@]}" cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --no-default-features \
      --bin wasm-bindgen --bin wasm-bindgen-test-runner
  fi
fi

if $browser; then
  if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    say "installing Debian chromium and chromium-driver"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium chromium-driver
  fi
fi

$rest || exit 0

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ]; then
  say "installing npm packages (binaryen's wasm-opt, playwright-core)"
  npm ci --no-audit --no-fund
fi

say "fetching crates"
cargo fetch --locked >/dev/null
