#!/usr/bin/env bash
# Make the browser tests runnable: Debian's Chromium (/usr/bin/chromium), which Playwright (from
# PyPI, in the test extra) drives through its executable path — Playwright's own browser
# download cannot work here. Installs the package when missing (root); idempotent.
set -euo pipefail

log() { echo "browser-setup: $*" >&2; }

if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    log "Chromium is needed for the browser tests; as root: apt-get install -y chromium"
    exit 1
fi
log "installing chromium from the machine's Debian sources"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
command -v chromium >/dev/null 2>&1 || { log "chromium did not install"; exit 1; }
