#!/usr/bin/env bash
# packages.sh: the Debian packages the toolchain's build needs (the JDK's configure and make, the C
# libraries, the image's link), installed when missing; run as root, or it names the apt-get line.
# A fresh machine of this kind lacks autoconf and the cups, ALSA and X extension headers that the
# JDK's configure checks for even when it builds headless.
set -euo pipefail
needed=(autoconf make gcc g++ patch zip unzip file curl xz-utils zlib1g-dev libasound2-dev libcups2-dev
        libxrandr-dev libxtst-dev libx11-dev libxext-dev libxrender-dev libxt-dev libfontconfig-dev
        libfreetype-dev)
missing=()
for p in "${needed[@]}"; do
  [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || missing+=("$p")
done
if (( ${#missing[@]} == 0 )); then
  echo "   all ${#needed[@]} packages present"
  exit 0
fi
if (( EUID != 0 )); then
  echo "scripts/native: missing packages: ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "   installing: ${missing[*]}"
log=$(mktemp)
{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1 \
  || { tail -n 20 "$log" >&2; echo "scripts/native: apt-get install ${missing[*]} failed" >&2; exit 1; }
rm -f "$log"
