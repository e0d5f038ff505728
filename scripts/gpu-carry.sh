#!/bin/sh
# gpu-carry.sh - what the lent GPU machine needs to build warpscope and has not: cJSON, from
# Debian's packages, unpacked (dpkg -x) into .device-carry/cjson (ignored by git). Run here,
# before a device run that names .device-carry in its carry list; there, build with
#   make CJSON_DIR=.device-carry/cjson/usr build/warpscope
set -eu
cd "$(dirname "$0")/.."
mkdir -p .device-carry/cjson
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download libcjson-dev libcjson1 >/dev/null 2>&1) ||
    { echo "gpu-carry: apt-get download libcjson-dev libcjson1 failed (run apt-get update first)" >&2; exit 1; }
for d in "$tmp"/*.deb; do dpkg -x "$d" .device-carry/cjson; done
echo "gpu-carry: cJSON in .device-carry/cjson/usr"
