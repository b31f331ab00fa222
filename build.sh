#!/usr/bin/env bash
# build.sh: compiles c/ and c/lab/ to web/build/posenc.wasm (WASM SIMD) and web/build/posenc-scalar.wasm,
# copies Chart.js and the tokenizer into web/vendor/ and writes the lab's model (web/build/lab-model/):
# all generated, all ignored by git.
# Installs Debian's emscripten when emcc is missing and we are root; else says what to install.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v emcc >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "build.sh: emcc not found; installing Debian's emscripten" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emscripten) >&2
  else
    echo "build.sh: emcc not found. Install it with: sudo apt-get install emscripten" >&2
    exit 1
  fi
fi
# Debian's emscripten tools find acorn and friends only through NODE_PATH.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

out=web/build
mkdir -p "$out"
exports=$(sed -e 's/^/_/' c/exports.txt | paste -sd, -)
sources=(c/*.c c/lab/*.c) # the kernels and the length-generalisation lab
# STANDALONE_WASM + --no-entry: a pure-C module loaded by web/lib/posenc.js; its one import,
# emscripten_notify_memory_growth, is supplied by web/lib/heap.js.
# -fno-math-errno keeps libm calls free of errno stores; file-prefix-map keeps paths out.
common=(-O3 -std=c11 -Wall -Wextra -Werror -fno-math-errno -ffile-prefix-map="$PWD"=.
  -sSTANDALONE_WASM=1 --no-entry -sEXPORTED_FUNCTIONS="$exports"
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=4194304 -sMAXIMUM_MEMORY=2147483648
  -sTOTAL_STACK=1048576 -sFILESYSTEM=0)

build() { # name, extra flags...
  local name=$1; shift
  local tmp="$out/.$name.tmp.wasm"
  emcc "${common[@]}" "$@" "${sources[@]}" -o "$tmp"
  mv "$tmp" "$out/$name.wasm"
}
# The kernels without the lab: what a blog post's chart loads (the light embed, dist/module/),
# built for size (-Os: 40 KB gzipped instead of 71 KB for the whole build; the hand-written SIMD
# kernels keep their speed). The same C and no fast-math: tests/light-embed.test.js holds them to
# the -O3 builds' results bit for bit (-Oz, smaller still, changes the last bit of some float64
# results). The lab's charts load the whole build.
core_exports=$(grep -v '^posenc_lab_' c/exports.txt | sed -e 's/^/_/' | paste -sd, -)
build_core() { # name, extra flags...
  local name=$1; shift
  local tmp="$out/.$name.tmp.wasm"
  emcc "${common[@]}" -Os -sEXPORTED_FUNCTIONS="$core_exports" "$@" c/*.c -o "$tmp"
  mv "$tmp" "$out/$name.wasm"
}
# Rebuild only when a source is newer than the output.
stale() { [ ! -f "$1" ] || [ -n "$(find c build.sh -newer "$1" -print -quit)" ]; }

# The four builds are independent and each uses one core: they run side by side.
building=()
if stale "$out/posenc.wasm" || stale "$out/posenc-scalar.wasm"; then
  build posenc -msimd128 & building+=($!)
  build posenc-scalar -fno-vectorize -fno-slp-vectorize & building+=($!)
  full=1
fi
if stale "$out/posenc-core.wasm" || stale "$out/posenc-core-scalar.wasm"; then
  build_core posenc-core -msimd128 & building+=($!)
  build_core posenc-core-scalar -fno-vectorize -fno-slp-vectorize & building+=($!)
  core=1
fi
for pid in "${building[@]}"; do wait "$pid"; done # (set -e: a build that failed stops here)
if [ -n "${full:-}" ]; then
  echo "build.sh: built $out/posenc.wasm ($(wc -c <"$out/posenc.wasm") B) and posenc-scalar.wasm ($(wc -c <"$out/posenc-scalar.wasm") B)" >&2
fi
if [ -n "${core:-}" ]; then
  echo "build.sh: built $out/posenc-core.wasm ($(wc -c <"$out/posenc-core.wasm") B) and posenc-core-scalar.wasm ($(wc -c <"$out/posenc-core-scalar.wasm") B), without the lab" >&2
fi

# npm packages (Chart.js for the page, @huggingface/tokenizers for real models' tokenizer.json,
# playwright-core for the browser tests, esbuild for dist/, typescript for tests/types.test.js).
if [ ! -f node_modules/chart.js/package.json ] || [ ! -f node_modules/playwright-core/package.json ] ||
   [ ! -f node_modules/esbuild/package.json ] || [ ! -f node_modules/@huggingface/tokenizers/package.json ] ||
   [ ! -f node_modules/gifenc/package.json ] || [ ! -f node_modules/typescript/package.json ]; then
  npm install --no-audit --no-fund >&2
fi

# Chart.js comes from npm and is served from the project: never a CDN.
mkdir -p web/vendor
cp -p node_modules/chart.js/dist/chart.umd.js web/vendor/chart.umd.js
# The tokenizer of "Inside a real model" (reads a model's own tokenizer.json), likewise.
cp -p node_modules/@huggingface/tokenizers/dist/tokenizers.min.mjs web/vendor/tokenizers.js

# The lab's RoPE model as a real model's files (the offline model of "Inside a real model"):
# trained once per kernel build (deterministic, a few seconds).
if [ ! -f web/build/lab-model/model.safetensors ] || [ web/build/posenc.wasm -nt web/build/lab-model/model.safetensors ] ||
   [ web/tools/lab-model.js -nt web/build/lab-model/model.safetensors ]; then
  node web/tools/lab-model.js
fi

# gifenc encodes the toolbar's animated GIFs (an ES module, loaded when a GIF is made).
cp -p node_modules/gifenc/dist/gifenc.esm.js web/vendor/gifenc.js

# The page's modules bundled (web/build/page/, what index.html and teaching.html load).
node web/tools/page-bundle.js

# The single-file builds: dist/posenc.js (classic script, wasm inlined, registers <posenc-chart>;
# copied to web/build/posenc.js for the page's Embed snippets) and dist/standalone.html.
node web/tools/bundle.js
