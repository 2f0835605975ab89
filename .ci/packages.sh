#!/usr/bin/env bash
# Installs the Debian packages CI needs and this machine lacks, in one
# apt-get update: headless Chromium (exports/sweepreport's
# TestChartsRenderInChromium renders the sweep report and checks its
# charts in the screenshot; under CI=true that test fails rather than
# skips without a browser), Slurm and munge (.ci/slurm.sh) and pandas
# (.ci/clients.sh), or the packages named. Needs root (or sudo) when one
# is missing. CI runs it in the background beside its first, compiling
# steps, which leave the network and the disk idle; the scripts that need
# a package still install it when it is missing.
# usage: .ci/packages.sh [PACKAGE...]
set -euo pipefail
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(chromium slurm-wlm munge python3-pandas)
missing=()
for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "packages: ${wanted[*]} installed already"
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Keep the packages' init scripts from starting daemons (munge, Slurm's)
# that .ci/slurm.sh starts by hand, with its own configuration.
guard=''
if [ ! -e /usr/sbin/policy-rc.d ]; then
    guard=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$guard" >/dev/null && $sudo chmod +x "$guard"
    trap '$sudo rm -f "$guard"' EXIT
fi
$sudo apt-get update -qq
# Chromium with its recommended packages (its fonts), the others without:
# slurm-wlm recommends far more than a single-node test needs.
browser=() others=()
for p in "${missing[@]}"; do
    if [ "$p" = chromium ]; then browser=(chromium); else others+=("$p"); fi
done
[ ${#browser[@]} -eq 0 ] || $sudo apt-get install -y -qq "${browser[@]}" >/dev/null
[ ${#others[@]} -eq 0 ] || $sudo apt-get install -y -qq --no-install-recommends "${others[@]}" >/dev/null
echo "packages: installed ${missing[*]}"
