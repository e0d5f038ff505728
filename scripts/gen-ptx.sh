#!/bin/sh
# gen-ptx.sh - regenerates the catalog's checked-in PTX and resource usage:
# for each demos/x.cu (or the .cu files given) writes demos/x.ptx, whose first
# line "// warpscope-source-hash: <16 hex>" is FNV-1a 64 of the .cu's bytes (the
# freshness key ws_catalog_ptx checks), and demos/x.resources from ptxas -v.
# Usage: [NVCC=...] [PTX_ARCH=sm_90] sh scripts/gen-ptx.sh [demos/x.cu ...]
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
PTX_ARCH=${PTX_ARCH:-sm_90}
[ -x "$NVCC" ] || { echo "gen-ptx: nvcc not found (set NVCC=/path/to/nvcc)" >&2; exit 1; }
ptxas=$(dirname "$NVCC")/ptxas

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# FNV-1a 64 over the raw bytes of $1 (offset 0xcbf29ce484222325, prime 0x100000001b3).
fnv1a64() {
    if command -v python3 >/dev/null 2>&1; then
        python3 - "$1" <<'EOF'
import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], 'rb').read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print('%016x' % h)
EOF
    else
        [ -x "$tmp/fnv" ] || printf '%s\n' \
            '#include <stdio.h>' \
            'int main(int c, char **v) { FILE *f = fopen(v[1], "rb"); int b;' \
            '  unsigned long long h = 0xcbf29ce484222325ULL; if (!f) return 1;' \
            '  while ((b = fgetc(f)) != EOF) { h ^= (unsigned char)b; h *= 0x100000001b3ULL; }' \
            '  printf("%016llx\n", h); return 0; }' > "$tmp/fnv.c" &&
            ${CC:-cc} -O2 -o "$tmp/fnv" "$tmp/fnv.c"
        "$tmp/fnv" "$1"
    fi
}

ptxas_ver=$("$ptxas" --version 2>/dev/null | sed -n 's/.*, V\([0-9.]*\)$/\1/p')
[ -n "$ptxas_ver" ] || ptxas_ver=unknown

# ptxas -v's report, one line per entry: "name regs=R shared=S local=L spill_st=A spill_ld=B".
resources_awk='
    /Compiling entry function/ { split($0, q, "'"'"'"); fn = q[2]; regs = 0; smem = 0; stack = 0; sst = 0; sld = 0 }
    /bytes stack frame/ { stack = $1; sst = $5; sld = $9 }
    /Used [0-9]+ registers/ {
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^registers/) regs = $(i - 1)
            if ($i ~ /^smem/) smem = $(i - 2)
        }
        if (fn != "") printf "%s regs=%d shared=%d local=%d spill_st=%d spill_ld=%d\n", fn, regs, smem, stack, sst, sld
        fn = ""
    }'

if [ $# -eq 0 ]; then set -- demos/*.cu; fi
status=0
for cu in "$@"; do
    case $cu in                        # paths relative to the root, as .file will say
        "$root"/*) cu=${cu#"$root"/} ;;
        ./*) cu=${cu#./} ;;
    esac
    base=${cu%.cu}
    name=$(basename "$cu")
    # PTX: the .file line names the .cu relative to the repository root, so the
    # checked-in text does not depend on where the tree was checked out.
    if ! "$NVCC" -ptx -arch="$PTX_ARCH" -lineinfo -O3 "$cu" -o - > "$tmp/out.ptx"; then
        echo "gen-ptx: $cu: nvcc -ptx failed" >&2; status=1; continue
    fi
    {
        echo "// warpscope-source-hash: $(fnv1a64 "$cu")"
        sed "s|\"$root/$cu\"|\"$cu\"|" "$tmp/out.ptx"
    } > "$base.ptx"

    # Resources: one line per entry from ptxas -v, sorted by mangled name.
    if ! "$NVCC" -cubin -arch="$PTX_ARCH" -O3 -Xptxas -v "$cu" -o "$tmp/out.cubin" > "$tmp/ptxas.txt" 2>&1; then
        cat "$tmp/ptxas.txt" >&2; echo "gen-ptx: $cu: nvcc -cubin failed" >&2; status=1; continue
    fi
    {
        echo "# ptxas $ptxas_ver $PTX_ARCH"
        awk "$resources_awk" "$tmp/ptxas.txt" | sort
    } > "$base.resources"
    echo "  PTX    $base.ptx ($(grep -c '^\.visible \.entry' "$base.ptx") entries), $base.resources"
    # A description's own target (`target sm_90a`: wgmma) gets the whole file compiled for it too,
    # beside the other: x.sm_90a.ptx and x.sm_90a.resources (common/catalog.c reads them).
    for t in $(sed -n 's/^target[[:space:]][[:space:]]*\(sm_[0-9][0-9]*a\{0,1\}\)[[:space:]]*$/\1/p' "$cu" | sort -u); do
        if ! "$NVCC" -ptx -arch="$t" -lineinfo -O3 "$cu" -o - > "$tmp/out.ptx" ||
           ! "$NVCC" -cubin -arch="$t" -O3 -Xptxas -v "$cu" -o "$tmp/out.cubin" > "$tmp/ptxas.txt" 2>&1; then
            echo "gen-ptx: $cu: nvcc for $t failed" >&2; status=1; continue
        fi
        {
            echo "// warpscope-source-hash: $(fnv1a64 "$cu")"
            sed "s|\"$root/$cu\"|\"$cu\"|" "$tmp/out.ptx"
        } > "$base.$t.ptx"
        {
            echo "# ptxas $ptxas_ver $t"
            awk "$resources_awk" "$tmp/ptxas.txt" | sort
        } > "$base.$t.resources"
        echo "  PTX    $base.$t.ptx, $base.$t.resources (target $t)"
    done
done
exit $status
