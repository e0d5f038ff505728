#!/bin/sh
# Lists every opcode with its modifiers (e.g. "ld.global.nc.v4.f32") used by
# the given PTX files (default: demos/*.ptx and tests/data/interp/*.ptx), with
# a count: the checklist of what the interpreter must execute.
[ $# -gt 0 ] || set -- demos/*.ptx tests/data/interp/*.ptx
cat "$@" | sed 's://.*$::' | awk '
    /^[ \t]*[.$]/ || /^[ \t]*$/ || /[{}]/ && !/^[ \t]*@?[%!a-z]/ { next }
    {
        s = $0; sub(/^[ \t]*/, "", s)
        if (s ~ /^@/) { sub(/^@!?%[a-z0-9_]+[ \t]+/, "", s) }
        if (s ~ /^[$%_A-Za-z0-9]+:/) next
        split(s, w, /[ \t;]/); if (w[1] ~ /^[a-z]/) n[w[1]]++
    }
    END { for (k in n) printf "%6d  %s\n", n[k], k }' | sort -k2
