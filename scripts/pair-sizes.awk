# pair-sizes.awk - the -D sizes at which to time a lesson pair on a GPU, well beyond the L2.
# Usage: awk -f scripts/pair-sizes.awk -v A=kernel -v B=kernel -v SIZES=- demos/*.cu
# Reads the descriptions of A and B (their param and buffer lines) and prints two lines of words,
# "-D NAME=VALUE ...": the first for `warpscope check A`, the second for B (each names only its
# own parameters: a -D a description lacks would become a compiler macro). SIZES "-": the size
# parameters (N, M, K, W, H, BYTES with a literal default, declared by both) are doubled in turn,
# from their defaults, until both working sets (the sum of buffer bytes) reach MINWS (default
# 256 MiB) or a doubling would take the larger past MAXWS (default 2 GiB) or a parameter past
# 2^30. SIZES "N=1,M=2": those, each a parameter of A or B. Empty lines for a pair without size
# parameters (its default sizes stand). Exit 1, with the reason on stderr, when a kernel is not
# found or an expression is beyond this small evaluator (+ - * / % << >> ( ) min max cdiv).
# The catalog's `realistic` lines without a class are this rule for one kernel (A = B = it); the
# explicit SIZES of demos/pairs.txt are its descriptions' realistic sizes (tests/test_realistic.c).
# Why awk: the GPU machine may have no python; and no text from a description reaches a shell.

function fail(msg) { print "pair-sizes: " msg > "/dev/stderr"; failed = 1; exit 1 }

# ---- expressions: tokens in tk[1..nt], position p; names resolve through env[]
function lex(s,    c, t) {
    nt = 0
    while (length(s) > 0) {
        c = substr(s, 1, 1)
        if (c ~ /[ \t]/) { s = substr(s, 2); continue }
        if (match(s, /^0[xX][0-9a-fA-F]+/) || match(s, /^[0-9]+/) || match(s, /^[A-Za-z_][A-Za-z0-9_]*/) ||
            match(s, /^(<<|>>)/) || match(s, /^[-+*\/%(),]/)) {
            tk[++nt] = substr(s, 1, RLENGTH)
            s = substr(s, RLENGTH + 1)
            continue
        }
        fail("cannot evaluate '" s "' (" A ", " B ")")
    }
    p = 1
}
function hexval(h,    v, i, d) {
    v = 0
    for (i = 3; i <= length(h); i++) {
        d = index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
        v = v * 16 + d
    }
    return v
}
function peek() { return p <= nt ? tk[p] : "" }
function eat(t) { if (peek() != t) fail("expected '" t "' in an expression of " A " or " B); p++ }
function e_shift(    v, op, r) {
    v = e_add()
    while (peek() == "<<" || peek() == ">>") {
        op = tk[p++]; r = e_add()
        v = op == "<<" ? v * 2 ^ r : int(v / 2 ^ r)
    }
    return v
}
function e_add(    v, op) {
    v = e_mul()
    while (peek() == "+" || peek() == "-") { op = tk[p++]; v = op == "+" ? v + e_mul() : v - e_mul() }
    return v
}
function e_mul(    v, op, r) {
    v = e_unary()
    while (peek() == "*" || peek() == "/" || peek() == "%") {
        op = tk[p++]; r = e_unary()
        if (op != "*" && r == 0) fail("division by zero in " A " or " B)
        v = op == "*" ? v * r : op == "/" ? int(v / r) : v % r
    }
    return v
}
function e_unary() {
    if (peek() == "-") { p++; return -e_unary() }
    if (peek() == "+") { p++; return e_unary() }
    return e_primary()
}
function e_primary(    t, a, b) {
    t = tk[p++]
    if (t == "(") { a = e_shift(); eat(")"); return a }
    if (t ~ /^0[xX]/) return hexval(t)
    if (t ~ /^[0-9]/) return t + 0
    if (t == "min" || t == "max" || t == "cdiv") {
        eat("("); a = e_shift(); eat(","); b = e_shift(); eat(")")
        if (t == "min") return a < b ? a : b
        if (t == "max") return a > b ? a : b
        if (b == 0) fail("cdiv by zero in " A " or " B)
        return int((a + b - 1) / b)
    }
    if (t ~ /^[A-Za-z_]/ && (t in env)) return env[t]
    fail("unknown name '" t "' in an expression of " A " or " B)
}
function eval(s,    v) { lex(s); v = e_shift(); if (p <= nt) fail("trailing '" tk[p] "' in '" s "'"); return v }

# ---- descriptions
function tsize(t) {
    if (t ~ /^(u?char|u?int8)$/) return 1
    if (t ~ /^(u?short|u?int16|half|__half|bf16|__nv_bfloat16|nv_bfloat16|bfloat16|u?char2)$/) return 2
    if (t ~ /^(u?int|u?int32|float|half2|__half2|bf16x2|__nv_bfloat162|u?char4|u?short2)$/) return 4
    if (t ~ /^(u?long|u?int64|u?longlong|double|float2|u?int2|u?short4)$/) return 8
    if (t ~ /^(float4|u?int4|double2|u?long2)$/) return 16
    fail("unknown buffer type '" t "'")
}
# Working set of kernel k with the overrides in ov[] (name -> value): the sum of buffer bytes.
function wset(k,    i, n, ws) {
    split("", env)
    for (i = 1; i <= np[k]; i++) {
        n = pname[k, i]
        env[n] = (n in ov) ? ov[n] : eval(pexpr[k, i])
    }
    ws = 0
    for (i = 1; i <= nb[k]; i++) ws += eval(bcount[k, i]) * tsize(btype[k, i])
    return ws
}
function has(k, n,    i) { for (i = 1; i <= np[k]; i++) if (pname[k, i] == n) return i; return 0 }

/\/\*@warpscope([ \t]|$)/ { inblk = 1; cur = ""; next }
inblk && /\*\// { inblk = 0; next }
inblk {
    line = $0
    sub(/#.*/, "", line)
    nf = split(line, w, /[ \t]+/)
    if (w[1] == "") { for (i = 1; i < nf; i++) w[i] = w[i + 1]; nf-- }
    if (w[1] == "kernel") { cur = w[2]; seen[cur] = 1; np[cur] = 0; nb[cur] = 0 }
    else if (w[1] == "param" && cur != "") {
        e = line; sub(/^[ \t]*param[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*/, "", e); sub(/[ \t]+$/, "", e)
        np[cur]++; pname[cur, np[cur]] = w[2]; pexpr[cur, np[cur]] = e
    } else if (w[1] == "buffer" && cur != "") {
        c = ""
        for (i = 4; i <= nf; i++) {
            if (w[i] ~ /^(init=|output$|tol=|ulp=)/) break
            c = c " " w[i]
        }
        nb[cur]++; btype[cur, nb[cur]] = w[3]; bcount[cur, nb[cur]] = c
    }
}

END {
    if (failed) exit 1
    if (!(A in seen)) fail("no description '" A "'")
    if (!(B in seen)) fail("no description '" B "'")
    MINWS = MINWS ? MINWS : 256 * 1048576
    MAXWS = MAXWS ? MAXWS : 2 * 1073741824
    oa = ob = ""
    if (SIZES != "-" && SIZES != "") {
        n = split(SIZES, kv, ",")
        for (i = 1; i <= n; i++) {
            split(kv[i], nv, "=")
            if (!has(A, nv[1]) && !has(B, nv[1])) fail("'" nv[1] "' is a parameter of neither " A " nor " B)
            if (nv[1] !~ /^[A-Za-z_][A-Za-z0-9_]*$/ || nv[2] !~ /^[0-9]+$/) fail("size '" kv[i] "' is not NAME=number")
            if (has(A, nv[1])) oa = oa (oa == "" ? "" : " ") "-D " nv[1] "=" nv[2]
            if (has(B, nv[1])) ob = ob (ob == "" ? "" : " ") "-D " nv[1] "=" nv[2]
        }
        print oa
        print ob
        exit 0
    }
    # the size parameters: literal defaults, declared by both
    ns = 0
    for (i = 1; i <= np[A]; i++) {
        n = pname[A, i]
        if (n ~ /^(N|M|K|W|H|BYTES)$/ && pexpr[A, i] ~ /^[0-9x<> ()]+$/ && has(B, n)) {
            size[++ns] = n; ov[n] = eval(pexpr[A, i])
        }
    }
    if (ns == 0) { print ""; print ""; exit 0 }
    for (step = 0; step < 64; step++) {
        a = wset(A); b = wset(B)
        if ((a < b ? a : b) >= MINWS) break
        n = size[step % ns + 1]
        ov[n] *= 2
        a = wset(A); b = wset(B)
        if ((a > b ? a : b) > MAXWS || ov[n] > 1073741824) { ov[n] /= 2; break }
    }
    for (i = 1; i <= ns; i++) oa = oa (oa == "" ? "" : " ") "-D " size[i] "=" ov[size[i]]
    print oa
    print oa
}
