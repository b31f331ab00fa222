#!/usr/bin/env bash
# build-wasm.sh OUT_DIR: builds c/lab (with c/relative.c and c/alibi.c, whose rules it uses) alone to OUT_DIR/lab-simd.wasm (-msimd128) and
# OUT_DIR/lab-scalar.wasm (-fno-vectorize -fno-slp-vectorize), standalone (--no-entry), with every
# posenc_lab_ function of c/lab/lab.h and malloc/free exported. Its only import is
# env.emscripten_notify_memory_growth (memory may grow). Exits 3 when emcc is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build-wasm.sh OUT_DIR}
command -v emcc >/dev/null 2>&1 || { echo "build-wasm.sh: emcc not found" >&2; exit 3; }
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs" # Debian's emscripten needs it
mkdir -p "$out"
exports=$(grep -oh 'posenc_lab_[a-z0-9_]*(' c/lab/lab.h | tr -d '(' | sort -u | sed 's/^/_/' | paste -sd, -),_malloc,_free
common=(-O3 -std=c11 -Wall -Wextra -Werror -fno-math-errno -ffile-prefix-map="$PWD"=.
  -sSTANDALONE_WASM=1 --no-entry -sEXPORTED_FUNCTIONS="$exports"
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16777216 -sMAXIMUM_MEMORY=2147483648
  -sTOTAL_STACK=1048576 -sFILESYSTEM=0)
emcc "${common[@]}" -msimd128 c/lab/*.c c/relative.c c/alibi.c -o "$out/lab-simd.wasm"
emcc "${common[@]}" -fno-vectorize -fno-slp-vectorize c/lab/*.c c/relative.c c/alibi.c -o "$out/lab-scalar.wasm"
