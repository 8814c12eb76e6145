#!/usr/bin/env bash
# Build the embeddable engine into dist/embed/ (idempotent): the classad-embed
# crate's binary compiled to wasm (wasm-release profile), its JS glue (wasm-bindgen
# --target web), wasm-opt -Oz when binaryen's wasm-opt is there, and the
# hand-written files from embed/js/ (classad.js, the widget, the example
# page as index.html). Run it after `trunk build`, which empties dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

out=dist/embed
wasm=target/wasm32-unknown-unknown/wasm-release/classad-embed.wasm

# In one cargo run with the page's binaries, binaries only: the features of
# the dependencies the two share are resolved over both, as trunk's builds
# of the page resolve them (the embed module's are a subset), and every
# dependency is compiled for a binary's link-time optimization, as there,
# so each is compiled once. Built apart (its own features, a library as a
# root), 39 crates were compiled a second time, the engine among them.
# After `trunk build` the page's part is built.
cargo build --locked -p classad-embed -p classad-playground --bins \
  --target wasm32-unknown-unknown --profile wasm-release

# Build aside (under target/, which trunk does not empty) and swap it in,
# so a failed step leaves no half module behind.
mkdir -p dist target
tmp=$(mktemp -d target/embed-stage.XXXXXX)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
wasm-bindgen --target web --no-typescript --out-dir "$tmp" --out-name classad_embed "$wasm"
# wasm-opt takes a while: its output is kept for the same input.
cache=target/embed-opt
if [ -f "$cache/in.wasm" ] && cmp -s "$cache/in.wasm" "$tmp/classad_embed_bg.wasm"; then
  cp "$cache/out.wasm" "$tmp/classad_embed_bg.wasm"
elif command -v wasm-opt >/dev/null 2>&1; then
  wasm-opt -Oz "$tmp/classad_embed_bg.wasm" -o "$tmp/classad_embed_bg.wasm.opt"
  mkdir -p "$cache"
  rm -f "$cache/in.wasm"   # out.wasm first: a cut run leaves no stale pair
  cp "$tmp/classad_embed_bg.wasm.opt" "$cache/out.wasm"
  cp "$tmp/classad_embed_bg.wasm" "$cache/in.wasm"
  mv "$tmp/classad_embed_bg.wasm.opt" "$tmp/classad_embed_bg.wasm"
else
  echo "wasm-opt not found (npm ci installs it): the module is left unoptimized" >&2
fi
cp embed/js/classad.js embed/js/classad-widget.js "$tmp/"
cp embed/js/embed.html "$tmp/index.html"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT

raw=$(wc -c <"$out/classad_embed_bg.wasm")
gz=$(cat "$out/classad_embed_bg.wasm" "$out/classad_embed.js" "$out/classad.js" | gzip -9 | wc -c)
echo "dist/embed/ is ready: wasm $((raw / 1024)) KB, wasm + JS $((gz / 1024)) KB gzip"
