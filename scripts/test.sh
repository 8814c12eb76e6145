#!/usr/bin/env bash
# Sets up (idempotently) and runs every test. The steps are jobs that start
# as soon as what they need is there, so a fresh machine's one-time tool
# builds overlap everything that does not need them:
#   tools   trunk and wasm-bindgen-cli (scripts/setup.sh --wasm-tools)
#   set-up  Rust wasm target, npm packages, crates (scripts/setup.sh
#           --no-wasm-tools)
#   browser Chromium (scripts/setup.sh --only-browser)
#   native  [set-up] the native tests' build (engine, CLI, page logic and
#           state, embed module; the CLI the end-to-end tests run), then at a lower
#           priority the native tests and the CLI smoke test
#   web     [set-up] the cargo builds trunk and build-embed.sh make, while the
#           tools build; [tools] the release build of the playground (trunk
#           build --release -> dist/), the embeddable engine (dist/embed/)
#   wasm    [set-up] at a lower priority, the engine and the share-link codec
#           compiled to wasm32; [tools] run under node (wasm-bindgen-test-runner)
#   e2e     [release build, native build, browser] end-to-end tests of
#           dist/ in headless Chromium, three files at a time, each file's
#           scenarios in one tab (176 s alone on the machine); the suites
#           that open dist/embed/ last, waiting for the embed build
# then, with nothing else running: the end-to-end tests that measure the
# page's main-thread tasks, and the page wasm's size bar.
# A failing test step does not stop the others (a failed set-up or build
# skips what needs it, said as "not run"); the last line says what passed or
# failed. Exit status 0 only when everything passed. CI runs this (.ci/run,
# CI=true, no stdin).
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
  cpu_now   # every job has been waited for: all of the run's CPU time
  local took="$((SECONDS - started)) s, $((CPU_MS / 1000)) CPU-s"

  if [ ${#failed[@]} -eq 0 ]; then
    say "ALL TESTS PASSED (${took})"
    exit 0
  fi
  say "TESTS FAILED: $(IFS=';'; echo "${failed[*]}" | sed 's/;/; /g') (${took})"
  exit 1
}
# cpu_now: CPU_MS = the CPU time (ms, user + system) of this shell's
# finished children, from the `times` builtin run in this shell (not in a
# $(...) subshell, which would count its own).
cpu_now() {
  local u s f
  f=$(mktemp)
  times >"$f"
  read -r u s < <(tail -n 1 "$f")
  rm -f "$f"
  CPU_MS=$(( $(as_ms "$u") + $(as_ms "$s") ))
}
as_ms() {   # 1m2.345s -> 62345
  local m=${1%%m*} r=${1#*m}
  r=${r%s}
  echo $(( (10#$m * 60 + 10#${r%.*}) * 1000 + 10#${r#*.} ))
}
# run NAME COMMAND...: run a step, record it if it fails, say how long it
# took and the CPU time it used (inside a branch, also on the terminal as it
# happens: fd 3).
run() {
  local name=$1 t0=$SECONDS c0 status; shift
  cpu_now; c0=$CPU_MS
  say "$name"
  [ -n "${in_branch-}" ] && printf '   %s: %s ...\n' "$in_branch" "$name" >&3
  if "$@"; then status=passed; else status=FAILED; failed+=("$name"); fi
  cpu_now
  local line="-- $name: $status ($((SECONDS - t0)) s, $(( (CPU_MS - c0) / 1000 )) CPU-s)"
  echo "$line"
  [ -n "${in_branch-}" ] && printf '   %s: %s\n' "$in_branch" "${line#-- }" >&3
  [ "$status" = passed ]
}

for tool in cargo node npm python3; do
  need "$tool" || { echo "$tool not found: install it first (Rust via rustup, Node.js with npm, Python 3)" >&2; exit 1; }
done

export PATH="$root/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
# No incremental compilation state for our crates: a test run builds from a
# clean checkout (CI, a fresh machine), where writing that state is pure
# cost (the whole run is CPU-bound). Cargo by hand keeps it.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}

# The crates tested natively in one cargo run: one feature resolution, so
# the engine is compiled once for its tests, the CLI, the page's logic and
# the embed module (separate runs resolved features apart and built it four
# times). The CLI the tests build is the one the smoke and e2e tests run.
native_crates=(-p classad -p classad-playground -p classad-playground-state -p classad-embed)
export CLASSAD_BIN="$root/target/debug/classad"

cli_smoke() {
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

# The cargo build build-embed.sh makes (the page's binaries and the embed
# module's in one run), which is also all that trunk's builds of index.html's
# three rust links need: it compiles while trunk and wasm-bindgen-cli do, and
# theirs find everything built.
wasm_prebuild() {
  cargo build --locked --offline -p classad-embed -p classad-playground --bins \
    --target wasm32-unknown-unknown --profile wasm-release
}

# Each job runs in the background, its output in target/test-logs/NAME.log
# and its failed steps in NAME.failed (a subshell cannot add to `failed`);
# `mark` says something later jobs need is there, `await` waits for it.
logs="$root/target/test-logs"
mkdir -p "$logs"
rm -f "$logs"/*.failed "$logs"/*.mark "$logs"/*.ended "$logs"/*.log "$logs"/*.path
mark() { touch "$logs/$1.mark"; }
# await MARK JOB: 0 once MARK is there, 1 if JOB ended without it.
await() {
  until [ -e "$logs/$1.mark" ]; do
    if [ -e "$logs/$2.ended" ]; then [ -e "$logs/$1.mark" ]; return; fi
    sleep 1
  done
}
not_run() { failed+=("$1 (not run: $2)"); echo "-- $1: not run ($2)"; }
job() {
  ( in_branch=$1; failed=(); "${1}_job"
    printf '%s\n' "${failed[@]}" >"$logs/$1.failed"; touch "$logs/$1.ended" ) >"$logs/$1.log" 2>&1 &
}

tools_job() {
  run "set-up: trunk and wasm-bindgen-cli" ./scripts/setup.sh --wasm-tools </dev/null && mark tools
}
setup_job() {
  run "set-up (installs only what is missing)" ./scripts/setup.sh --no-wasm-tools </dev/null && mark setup
}
browser_job() {
  run "set-up: Chromium" ./scripts/setup.sh --only-browser </dev/null && mark browser
}
native_job() {
  await setup setup || { not_run "native tests" "the set-up failed"; return; }
  run "native build (cargo test --no-run)" cargo test --locked "${native_crates[@]}" --no-run &&
    mark cli || { not_run "native tests" "they did not build"; return; }
  # At a lower priority (nice): nothing waits for the native tests, and the
  # end-to-end tests are the run's longest chain.
  run "native tests (engine, CLI, page logic, embed)" nice -n 10 cargo test --locked "${native_crates[@]}"
  run "CLI smoke test" cli_smoke
}
web_job() {
  await setup setup || { not_run "release build" "the set-up failed"; return; }
  run "wasm prebuild (trunk's and build-embed.sh's cargo builds)" wasm_prebuild
  await tools tools || { not_run "release build" "trunk and wasm-bindgen-cli are not installed"; return; }
  # dist/ is this run's only if trunk built it: the e2e tests and the size
  # bar look for the mark.
  run "release build (trunk build --release)" trunk build --release && mark dist &&
    run "embed build (scripts/build-embed.sh -> dist/embed/)" ./scripts/build-embed.sh
}
# The engine and the share-link codec compiled to wasm32 (the state crate's
# test: none of the page's web dependencies), without debug
# info (with it the module is 112 MB, and building and loading it took
# 342 s beside the end-to-end tests; without, 10 MB and 52 s alone), in a
# build directory of its own (cargo holds target/debug, where the native
# build keeps its proc macros, for as long as the native tests run), once
# the tools are installed and at a lower priority (nothing waits for it:
# started at the beginning, even at `nice -n 10` it took a tenth of a core
# from the tools' and the page's builds, the run's longest chain; on idle
# cores only, or started after the page's build, it was the last job to
# end). The path of the module is kept.
wasm_test_build() {
  CARGO_PROFILE_DEV_DEBUG=false CARGO_TARGET_DIR="$root/target/wasm-tests" nice -n 10 \
    cargo test --locked -p classad-playground-state --target wasm32-unknown-unknown --test engine_in_wasm \
    --no-run --message-format=json-render-diagnostics |
    python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line) if line.startswith("{") else {}
    if m.get("reason") == "compiler-artifact" and m.get("executable"):
        print(m["executable"])' >"$logs/wasm-test.path" && [ -s "$logs/wasm-test.path" ]
}
wasm_job() {
  await setup setup || { not_run "wasm tests" "the set-up failed"; return; }
  await tools tools || { not_run "wasm tests" "wasm-bindgen-cli is not installed"; return; }
  run "wasm tests' build (wasm32, no debug info)" wasm_test_build ||
    { not_run "wasm tests" "they did not build"; return; }
  # The runner cargo would call (.cargo/config.toml), without cargo's lock.
  run "wasm tests (engine + share links in wasm32, under node)" wasm-bindgen-test-runner "$(head -n1 "$logs/wasm-test.path")"
}
# These measure the page's main-thread tasks (a 3 MB upload with none over
# 50 ms, 20 MB pastes): they run after everything else, alone on the machine.
alone_e2e=(tests/e2e/hostile_input.test.mjs tests/e2e/production_pool.test.mjs)
# The suites that open dist/embed/ last: it is built while the first files
# run, and they wait for it (harness.mjs, browserEnv({ embed: true })).
embed_e2e=(tests/e2e/address.test.mjs tests/e2e/dialect.test.mjs tests/e2e/embed.test.mjs)
e2e_files() {
  local f a
  for f in tests/e2e/*.test.mjs; do
    for a in "${alone_e2e[@]}" "${embed_e2e[@]}"; do [ "$f" = "$a" ] && continue 2; done
    printf '%s\n' "$f"
  done
  printf '%s\n' "${embed_e2e[@]}"
}
e2e_job() {
  await dist web || { not_run "end-to-end tests" "no release build"; return; }
  await cli native || { not_run "end-to-end tests" "the CLI did not build"; return; }
  await browser browser || { not_run "end-to-end tests" "Chromium is not installed"; return; }
  export CLASSAD_E2E_EMBED_PENDING="$logs/web.ended"
  local files; mapfile -t files < <(e2e_files)
  # Files, not the directory: Node 22+ no longer searches a directory argument.
  run "end-to-end tests (headless Chromium, 4 files at a time)" node --test --test-concurrency=4 "${files[@]}"
}

say "set-up, Chromium, tools, native tests, web build, wasm tests and end-to-end tests as jobs (their logs follow when all are done)"
exec 3>&1
jobs_run=(setup browser tools native web wasm e2e)
for j in "${jobs_run[@]}"; do job "$j"; done
wait
for j in "${jobs_run[@]}"; do
  cat "$logs/$j.log"
  if [ -f "$logs/$j.failed" ]; then
    while IFS= read -r f; do [ -n "$f" ] && failed+=("$f"); done <"$logs/$j.failed"
  else
    failed+=("the $j job (it did not finish)")
  fi
done

if [ -e "$logs/dist.mark" ] && [ -e "$logs/cli.mark" ] && [ -e "$logs/browser.mark" ]; then
  run "end-to-end tests that measure main-thread tasks (alone)" node --test --test-concurrency=1 "${alone_e2e[@]}"
else
  not_run "end-to-end tests that measure main-thread tasks" "no release build, CLI or Chromium"
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
[ -e "$logs/dist.mark" ] &&
  run "page wasm size bar (gzip -9 <= $PAGE_WASM_BUDGET bytes)" page_size_bar

finish
exit
}
