#!/bin/sh
# Installs the Debian packages warpscope builds with, when they are missing (and those its tests
# use: python3-jsonschema, python3-numpy, chromium-headless-shell, the browser tests/test_html.c
# opens the --html page in).
# As root it installs them; otherwise it prints the exact command to run.
# The SASS path also wants ptxas (the CUDA toolkit) and nvdisasm, which some toolkit installs
# leave out: where warpscope's search (common/toolkit.h) finds none, NVIDIA's wheel is fetched
# once into <cache>/nvdisasm, where warpscope looks for it (docs/sass.md). <cache> is
# $WARPSCOPE_CACHE, else $XDG_CACHE_HOME/warpscope, else ~/.cache/warpscope.
PKGS="build-essential pkg-config libcmocka-dev libcjson-dev libssl-dev libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libfontconfig-dev libpng-dev libgif-dev fonts-dejavu-core xvfb xauth python3 python3-jsonschema python3-numpy chromium-headless-shell"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
nvdisasm_wheel() {
    base=${WARPSCOPE_CACHE:-}
    [ "$base" = off ] && base=
    [ -n "$base" ] || base="${XDG_CACHE_HOME:-$HOME/.cache}/warpscope"
    dir="$base/nvdisasm"
    # the same places, in the same order, as common/toolkit.c
    [ -n "${WARPSCOPE_NVDISASM:-}" ] && return 0
    command -v nvdisasm >/dev/null 2>&1 && return 0
    for d in "${CUDA_HOME:-/nonexistent}/bin" /usr/local/cuda/bin; do [ -x "$d/nvdisasm" ] && return 0; done
    for d in "$dir" $(python3 -c 'import site,sys;print(" ".join(site.getsitepackages()+[site.getusersitepackages()]+sys.path))' 2>/dev/null); do
        for s in cu13 cu12 cuda_nvdisasm; do [ -x "$d/nvidia/$s/bin/nvdisasm" ] && return 0; done
    done
    echo "deps: fetching nvdisasm (NVIDIA's nvidia-cuda-nvdisasm wheel) into $dir"
    python3 -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 30 --target "$dir" \
        nvidia-cuda-nvdisasm || {
        echo "deps: nvidia-cuda-nvdisasm could not be fetched: warpscope stays PTX-level and says so;" >&2
        echo "deps: run: python3 -m pip install --target \"$dir\" nvidia-cuda-nvdisasm" >&2; }
    return 0
}

# The tests and the README run `python3`: where that is not Debian's (pyenv, a virtualenv), the
# python3-numpy and python3-jsonschema packages are not its modules, so pip gets them for it.
python_modules() {
    python3 -c 'import numpy, jsonschema' 2>/dev/null && return 0
    echo "deps: $(command -v python3) lacks numpy or jsonschema; installing them with its pip"
    python3 -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 30 numpy jsonschema || {
        echo "deps: pip could not install numpy/jsonschema for $(command -v python3)" >&2; return 1; }
}

if [ -z "$missing" ]; then nvdisasm_wheel; python_modules; exit $?; fi
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq $missing >/dev/null || {
        echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
    nvdisasm_wheel
    python_modules
else
    echo "deps: missing packages:$missing" >&2
    echo "deps: run: sudo apt-get install -y$missing" >&2
    exit 1
fi
