#!/usr/bin/env bash
# Installs headless Chromium (Debian package "chromium") for
# exports/sweepreport's TestChartsRenderInChromium, which renders the sweep
# report and checks its charts in the screenshot; under CI=true that test
# fails rather than skips without a browser. Needs root (or sudo) when the
# browser is missing; does nothing when /usr/bin/chromium is there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq chromium >/dev/null
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed)"
