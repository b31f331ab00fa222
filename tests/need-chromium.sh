#!/usr/bin/env bash
# need-chromium.sh: the browser tests drive Debian's Chromium through playwright-core, and the
# Chinese page needs a CJK font (fonts-noto-cjk) to draw its text rather than boxes.
# Installs what is missing when we are root; otherwise says what to install.
set -euo pipefail
want=()
command -v chromium >/dev/null 2>&1 || want+=(chromium)
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh family 2>/dev/null | head -1)" ]; then want+=(fonts-noto-cjk); fi
[ ${#want[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "need-chromium.sh: installing ${want[*]} for the browser tests" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}") >&2
elif [[ " ${want[*]} " == *" chromium "* ]]; then
  echo "need-chromium.sh: Chromium is missing. Install it with: sudo apt-get install ${want[*]}" >&2
  exit 1
else
  echo "need-chromium.sh: no CJK font; Chinese text will show as boxes. Install: sudo apt-get install fonts-noto-cjk" >&2
fi
