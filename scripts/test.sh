#!/usr/bin/env bash
# Sets up (idempotently) and runs every test:
#   1. set-up: Rust wasm target, npm packages, Chromium (scripts/setup.sh --browser --no-wasm-tools)
#   2. two branches side by side:
#      native: the native tests in one cargo run (engine unit/integration tests,
#              libclassad conformance, seed figures, the page's logic, the embed
#              module), then the CLI smoke test;
#      web:    trunk and wasm-bindgen-cli (scripts/setup.sh --wasm-tools), the
#              release build of the playground (trunk build --release -> dist/),
#              the embeddable engine (scripts/build-embed.sh -> dist/embed/), then
#              the engine and the share-link codec compiled to wasm32, run under
#              node (wasm-bindgen-test-runner)
#   3. end-to-end tests of dist/ in headless Chromium (node --test tests/e2e/*.test.mjs)
#   4. the page wasm's size bar
# A failing test step does not stop the later ones (a failed set-up or build
# does); the last line says what passed or failed. Exit status 0 only when
# everything passed. CI runs this (.ci/run, CI=true, no stdin).
set -uo pipefail
# The body is one compound command: bash reads it whole before running it, so
# editing this file while it runs (e.g. a git checkout) cannot derail the run.
{
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS
failed=()

say() { printf '\n== %s\n' "$*"; }
need() { command -v "$1" >/dev/null 2>&1; }
finish() {
  local took=$((SECONDS - started))
  if [ ${#failed[@]} -eq 0 ]; then
    say "ALL TESTS PASSED (${took} s)"
    exit 0
  fi
  say "TESTS FAILED: $(IFS=';'; echo "${failed[*]}" | sed 's/;/; /g') (${took} s)"
  exit 1
}
# run NAME COMMAND...: run a step, record it if it fails, say how long it
# took (inside a branch, also on the terminal as it happens: fd 3).
run() {
  local name=$1 t0=$SECONDS status; shift
  say "$name"
  [ -n "${in_branch-}" ] && printf '   %s: %s ...\n' "$in_branch" "$name" >&3
  if "$@"; then status=passed; else status=FAILED; failed+=("$name"); fi
  local line="-- $name: $status ($((SECONDS - t0)) s)"
  echo "$line"
  [ -n "${in_branch-}" ] && printf '   %s: %s\n' "$in_branch" "${line#-- }" >&3
  [ "$status" = passed ]
}

for tool in cargo node npm python3; do
  need "$tool" || { echo "$tool not found: install it first (Rust via rustup, Node.js with npm, Python 3)" >&2; exit 1; }
done

run "set-up (installs only what is missing)" ./scripts/setup.sh --browser --no-wasm-tools </dev/null || finish
export PATH="$root/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

# The crates tested natively in one cargo run: one feature resolution, so
# the engine is compiled once for its tests, the CLI, the page's logic and
# the embed module (separate runs resolved features apart and built it four
# times). The CLI the tests build is the one the smoke and e2e tests run.
native_crates=(-p classad -p classad-playground -p classad-embed)
export CLASSAD_BIN="$root/target/debug/classad"

cli_smoke() {
  # A no-op after the native tests (same crates, same features): it makes
  # sure the binary is this tree's, not an older run's.
  cargo test --locked -q "${native_crates[@]}" --no-run || return 1
  local bin=$CLASSAD_BIN out expected
  out=$(printf '1 + 2\n[a = 1; b = a + 2].b\n1 +\n' | "$bin" eval || true)
  expected=$'3\n3\nPARSE_ERROR'
  if [ "$(printf '%s\n' "$out" | cut -c1-11)" != "$expected" ]; then
    echo "CLI smoke test failed:"; echo "$out"; return 1
  fi
  "$bin" fmt --dialect seed --to json tests/seeds/000_fig02.classad >/dev/null || return 1
  # The analyzer reproduces seed 000's first condor_q -analyze table.
  out=$("$bin" analyze --job tests/analysis/analyze1_job.classad --machines tests/analysis/analyze1_machines.classad) || return 1
  if ! printf '%s\n' "$out" | grep -q $'^2 Memory > 2096\t0\tMODIFY TO 1911$'; then
    echo "analyze smoke test failed:"; echo "$out"; return 1
  fi
  echo "CLI smoke test passed"
}

# Two branches run side by side; each builds in its own part of target/
# (cargo locks each profile's directory on its own), and each fills the
# other's single-threaded stretches (LTO links, wasm-opt, test runs).
#   native: the native tests, then the CLI smoke test;
#   web:    trunk and wasm-bindgen-cli when missing (on a fresh machine the
#           native tests run meanwhile), the release build of the playground,
#           the embed module (into trunk's dist/, which trunk empties first),
#           then the engine and the share-link codec in wasm32 (dev profile:
#           it shares the native run's proc macros, and the 9,299 conformance
#           cases still take about a second; only the one test target that
#           has tests).
native_branch() {
  run "native tests (engine, CLI, page logic, embed)" cargo test --locked "${native_crates[@]}"
  run "CLI smoke test" cli_smoke
}
web_branch() {
  run "set-up: trunk and wasm-bindgen-cli" ./scripts/setup.sh --wasm-tools </dev/null || return
  # dist/ is this run's only if trunk built it: the e2e tests and the size
  # bar look for the mark.
  run "release build (trunk build --release)" trunk build --release && touch "$logs/dist.built" &&
    run "embed build (scripts/build-embed.sh -> dist/embed/)" ./scripts/build-embed.sh
  run "wasm tests (engine + share links in wasm32)" \
    cargo test --locked -p classad-playground --target wasm32-unknown-unknown --test engine_in_wasm
}
# branch NAME: run NAME_branch in the background, its output in a log and
# its failed steps in a file (a subshell cannot add to `failed`).
logs="$root/target/test-logs"
mkdir -p "$logs"
rm -f "$logs"/*.failed "$logs/dist.built"
branch() {
  ( in_branch=$1; failed=(); "${1}_branch"
    printf '%s\n' "${failed[@]}" >"$logs/$1.failed" ) >"$logs/$1.log" 2>&1 &
}
say "native and web branches, side by side (their logs follow when both are done)"
exec 3>&1
branch native
branch web
wait
for b in native web; do
  cat "$logs/$b.log"
  if [ -f "$logs/$b.failed" ]; then
    while IFS= read -r f; do [ -n "$f" ] && failed+=("$f"); done <"$logs/$b.failed"
  else
    failed+=("the $b branch (it did not finish)")
  fi
done

if [ -f "$logs/dist.built" ]; then
  # Files, not the directory: Node 22+ no longer searches a directory argument.
  run "end-to-end tests (headless Chromium)" node --test tests/e2e/*.test.mjs
else
  failed+=("end-to-end tests (not run: no release build)")
fi

# The page is a thin client (the engine runs in Web Workers) and the views
# but the workbench and the gallery are a module of their own, loaded when
# first wanted (www/src/views/): the page's wasm must stay within the
# 350 KB gzip -9 target.
PAGE_WASM_BUDGET=${PAGE_WASM_BUDGET:-350000}
page_size_bar() {
  local f n
  f=$(ls dist/classad-playground-*_bg.wasm 2>/dev/null | head -n1)
  [ -n "$f" ] || { echo "no page wasm in dist/"; return 1; }
  n=$(gzip -9c "$f" | wc -c)
  echo "page wasm $f: $n bytes gzip -9 (budget $PAGE_WASM_BUDGET)"
  [ "$n" -le "$PAGE_WASM_BUDGET" ] || { echo "the page wasm grew past its budget"; return 1; }
}
[ -f "$logs/dist.built" ] &&
  run "page wasm size bar (gzip -9 <= $PAGE_WASM_BUDGET bytes)" page_size_bar

finish
exit
}
