#!/usr/bin/env bash
# Builds the browser page into web/dist/: the rules, encoding and search
# (crates/jungle-wasm) compiled to WebAssembly with wasm-bindgen,
# onnxruntime-web's WebAssembly build from the npm registry, the page's own
# files, and the shipped network (networks/default/model.onnx + model.json).
# Installs what it needs: the wasm32 target, wasm-bindgen-cli at the
# crate's wasm-bindgen version, the npm package.
# Serve the result with `jungle serve` (127.0.0.1:8080).
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' crates/jungle-wasm/Cargo.toml)"
rustup target add wasm32-unknown-unknown > /dev/null 2>&1 || rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$version" ]; then
    echo "== installing wasm-bindgen-cli $version"
    cargo install --quiet wasm-bindgen-cli --version "$version"
fi

echo "== crates/jungle-wasm -> wasm32-unknown-unknown"
cargo build --quiet --profile web --target wasm32-unknown-unknown -p jungle-wasm

out=web/dist
rm -rf "$out"
mkdir -p "$out/pkg" "$out/ort" "$out/model"
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg" \
    target/wasm32-unknown-unknown/web/jungle_wasm.wasm

echo "== onnxruntime-web (npm ci)"
(cd web && npm ci --silent --no-audit --no-fund)
ort=web/node_modules/onnxruntime-web/dist
cp "$ort/ort.wasm.min.mjs" "$ort/ort-wasm-simd-threaded.mjs" "$ort/ort-wasm-simd-threaded.wasm" "$out/ort/"

cp web/index.html web/style.css web/app.js web/board.js web/network.js web/search.js "$out/"
cp networks/default/model.onnx networks/default/model.json "$out/model/"

echo "== web/dist:"
du -b "$out/pkg/jungle_wasm_bg.wasm" "$out/pkg/jungle_wasm.js" "$out/ort/"* "$out/model/"* "$out"/*.js "$out"/*.html "$out"/*.css \
    | awk '{ total += $1; printf "%10d  %s\n", $1, $2 } END { printf "%10d  total\n", total }'
