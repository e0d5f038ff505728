#!/bin/sh
# Installs the Debian packages warpscope builds with, when they are missing.
# As root it installs them; otherwise it prints the exact command to run.
# (The SASS path also wants ptxas + nvdisasm: the CUDA toolkit, or
#  `pip install --target DIR nvidia-cuda-nvdisasm` with DIR/nvidia/cu13/bin on PATH; docs/sass.md.
#  Without them warpscope stays PTX-level and says so; .ci/run installs the wheel.)
PKGS="build-essential pkg-config libcmocka-dev libcjson-dev libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libfontconfig-dev libpng-dev libgif-dev fonts-dejavu-core xvfb xauth python3 python3-jsonschema"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq $missing >/dev/null || {
        echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
else
    echo "deps: missing packages:$missing" >&2
    echo "deps: run: sudo apt-get install -y$missing" >&2
    exit 1
fi
