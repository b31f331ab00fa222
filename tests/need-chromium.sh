#!/usr/bin/env bash
# need-chromium.sh: the browser tests drive Debian's Chromium through playwright-core.
# Installs it when missing and we are root; otherwise says what to install.
set -euo pipefail
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "need-chromium.sh: installing Debian's chromium for the browser tests" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2
else
  echo "need-chromium.sh: Chromium is missing. Install it with: sudo apt-get install chromium" >&2
  exit 1
fi
