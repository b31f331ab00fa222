#!/usr/bin/env bash
# tests/fuzz/build.sh: builds the libFuzzer harnesses (AddressSanitizer + UndefinedBehavior-
# Sanitizer, Debian's clang) over the same C sources as the wasm builds, into tests/fuzz/build/:
#   scalar/posenc_fuzz  the scalar forms (what posenc-scalar.wasm runs)
#   simd/posenc_fuzz    the wasm_simd128.h forms, natively, through tests/fuzz/simd/ (a portable
#                       stand-in for clang's wasm-only header): their vector loads and stores
#                       then land in ASan's shadow like any other access
# Rebuilds only what is older than its sources. Installs clang and its sanitizer/fuzzer runtime
# with apt-get when missing and we are root; otherwise says what to install and exits 77 (skip).
set -euo pipefail
cd "$(dirname "$0")/../.."

out=tests/fuzz/build
cc=${POSENC_FUZZ_CC:-clang}
flags=(-g -O1 -std=c11 -Wall -Wextra -Werror -Wno-deprecated-declarations -fno-math-errno
  -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ic)

probe() {
  local dir rc=0
  dir=$(mktemp -d)
  printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$dir/p.c"
  "$cc" -fsanitize=fuzzer,address,undefined "$dir/p.c" -o "$dir/p" >/dev/null 2>&1 || rc=1
  rm -rf "$dir"
  return $rc
}

sources=(c/*.c c/lab/*.c tests/fuzz/*.c)
# stale: the binary is missing or something it is built from is newer
stale() { [ ! -f "$1" ] || [ -n "$(find c tests/fuzz -maxdepth 2 \( -name '*.c' -o -name '*.h' -o -name build.sh \) -newer "$1" -print -quit)" ]; }

# both up to date: nothing to build, nothing to probe
if ! stale "$out/scalar/posenc_fuzz" && ! stale "$out/simd/posenc_fuzz"; then exit 0; fi

if ! probe; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "tests/fuzz/build.sh: $cc cannot build libFuzzer + ASan binaries; installing Debian's clang and libclang-rt-dev" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev) >&2 || true
  fi
  if ! probe; then
    echo "tests/fuzz/build.sh: cannot build the fuzz harnesses: $cc with -fsanitize=fuzzer,address,undefined failed." >&2
    echo "  Install them with: sudo apt-get install clang libclang-rt-dev" >&2
    exit 77
  fi
fi

build() { # variant, extra flags...
  local variant=$1; shift
  local bin="$out/$variant/posenc_fuzz"
  stale "$bin" || return 0
  mkdir -p "$out/$variant"
  "$cc" "${flags[@]}" "$@" -o "$bin.tmp" "${sources[@]}" -lm
  mv "$bin.tmp" "$bin"
  echo "tests/fuzz/build.sh: built $bin" >&2
}

build scalar
if [ -f tests/fuzz/simd/wasm_simd128.h ]; then
  # -D__wasm_simd128__ selects the kernels' SIMD forms, unchanged; -Itests/fuzz/simd gives them
  # the stand-in header
  build simd -D__wasm_simd128__ -Itests/fuzz/simd
fi
