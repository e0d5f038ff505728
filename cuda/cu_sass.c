/* cu_sass.c - static memory-access summaries of PTX and SASS, and the cause
 * sentence `check` prints when they differ (see cu_sass.h).
 * Both readers are line scanners over tool output, deliberately forgiving:
 * an opcode they do not know is simply not a memory access. */
#include "cu_sass.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_counters.h"
#include "../sim/models/metrics.h"
#include "../sim/sass/sass.h"

static const int widths[CU_NWIDTHS] = {1, 2, 4, 8, 16};

int cu_width_index(int bytes)
{
    for (int i = 0; i < CU_NWIDTHS; i++)
        if (widths[i] == bytes) return i;
    return -1;
}

int cu_summary_total(const cu_access_summary *s, cu_space sp, cu_op op)
{
    int t = 0;
    for (int w = 0; w < CU_NWIDTHS; w++) t += s->count[sp][op][w];
    return t;
}

/* ---- SASS ---------------------------------------------------------------- */

/* Through the one SASS reader (sim/sass/sass.h): nvdisasm and cuobjdump listings alike. */
void cu_sass_summarize(const char *sass, const char *name, cu_access_summary *s)
{
    memset(s, 0, sizeof *s);
    if (!sass || !name) return;
    ws_error err;
    ws_sass_listing *l = ws_sass_parse("sass", sass, &err);
    const ws_sass_function *f = ws_sass_find(l, name);
    if (f) {
        s->found = true;
        for (int i = 0; i < f->ninsns; i++) {
            const ws_sass_insn *in = &f->insns[i];
            static const cu_space sp[] = {CU_SP_COUNT, CU_SP_GLOBAL, CU_SP_SHARED, CU_SP_LOCAL, CU_SP_GENERIC};
            if (!in->space || in->space > WS_SASS_SP_GENERIC) continue;
            cu_op op = in->op == WS_SASS_OP_LD ? CU_OP_LD : in->op == WS_SASS_OP_ST ? CU_OP_ST : CU_OP_ATOM;
            int wi = cu_width_index(in->width);
            if (wi >= 0) s->count[sp[in->space]][op][wi]++;
        }
    }
    ws_sass_free(l);
}

/* ---- PTX ----------------------------------------------------------------- */

static const char *line_end(const char *p) { const char *e = strchr(p, '\n'); return e ? e : p + strlen(p); }

static int ptx_type_bytes(const char *t)
{
    if (!strcmp(t, "pred")) return 1;
    if (!strcmp(t, "f16x2") || !strcmp(t, "bf16x2")) return 4;
    if ((t[0] == 'b' || t[0] == 's' || t[0] == 'u' || t[0] == 'f') && isdigit((unsigned char)t[1])) {
        int bits = atoi(t + 1);
        return bits >= 8 ? bits / 8 : 0;
    }
    if (!strncmp(t, "bf16", 4)) return 2;
    return 0;
}

static void ptx_statement(const char *st, size_t len, cu_access_summary *s)
{
    char buf[256];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, st, len);
    buf[len] = 0;
    char *p = buf;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '@') { while (*p && !isspace((unsigned char)*p)) p++; while (isspace((unsigned char)*p)) p++; }
    char *end = p;
    while (*end && !isspace((unsigned char)*end)) end++;
    *end = 0;
    /* p = "ld.global.v4.f32" */
    char *save = NULL;
    char *tok = strtok_r(p, ".", &save);
    if (!tok) return;
    cu_op op;
    if (!strcmp(tok, "ld") || !strcmp(tok, "ldu")) op = CU_OP_LD;
    else if (!strcmp(tok, "st")) op = CU_OP_ST;
    else if (!strcmp(tok, "atom") || !strcmp(tok, "red")) op = CU_OP_ATOM;
    else return;
    cu_space sp = CU_SP_GENERIC;
    int vec = 1, bytes = 0;
    while ((tok = strtok_r(NULL, ".", &save))) {
        if (!strcmp(tok, "global")) sp = CU_SP_GLOBAL;
        else if (!strncmp(tok, "shared", 6)) sp = CU_SP_SHARED;
        else if (!strcmp(tok, "local")) sp = CU_SP_LOCAL;
        else if (!strcmp(tok, "param") || !strcmp(tok, "const") || !strcmp(tok, "tex")) return;
        else if (!strcmp(tok, "v2")) vec = 2;
        else if (!strcmp(tok, "v4")) vec = 4;
        else if (ptx_type_bytes(tok)) bytes = ptx_type_bytes(tok); /* the last type wins: atom.add.f32 */
    }
    int wi = cu_width_index(bytes * vec);
    if (wi >= 0) s->count[sp][op][wi]++;
}

static const char *skip_directives(const char *a, const char *end)
{
    for (;;) {
        while (a < end && isspace((unsigned char)*a)) a++;
        if (end - a > 4 && (!strncmp(a, ".loc", 4) || !strncmp(a, ".file", 5)) && isspace((unsigned char)a[a[1] == 'l' ? 4 : 5])) {
            const char *e = memchr(a, '\n', (size_t)(end - a));
            if (!e) return end;
            a = e + 1;
            continue;
        }
        return a;
    }
}

void cu_ptx_summarize(const char *ptx, const char *name, cu_access_summary *s)
{
    memset(s, 0, sizeof *s);
    if (!ptx || !name) return;
    size_t nl = strlen(name);
    const char *open = NULL;
    for (const char *p = strstr(ptx, name); p; p = strstr(p + 1, name)) {
        char after = p[nl];
        if (p > ptx && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$')) continue;
        if (!(after == '(' || isspace((unsigned char)after))) continue;
        const char *ls = p;
        while (ls > ptx && ls[-1] != '\n') ls--;
        char head[256];
        size_t hl = (size_t)(p - ls) < sizeof head - 1 ? (size_t)(p - ls) : sizeof head - 1;
        memcpy(head, ls, hl);
        head[hl] = 0;
        if (!strstr(head, ".entry") && !strstr(head, ".func")) continue;
        open = strchr(p, '{');
        break;
    }
    if (!open) return;
    s->found = true;
    int depth = 0, vec_depth = 0;
    const char *stmt = open;
    for (const char *p = open; *p; p++) {
        if (*p == '/' && p[1] == '/') { /* comment to end of line */
            const char *e = line_end(p);
            if (stmt == p) stmt = e;
            p = *e ? e : e - 1;
            stmt = p + 1;
            continue;
        }
        if (*p == '{') {
            /* a block brace opens a statement; "{%f1, %f2}" inside one is a vector operand */
            const char *k = stmt;
            while (k < p && isspace((unsigned char)*k)) k++;
            if (k == p) { depth++; stmt = p + 1; } else vec_depth++;
            continue;
        }
        if (*p == '}') {
            if (vec_depth) { vec_depth--; continue; }
            if (--depth == 0) break;
            stmt = p + 1;
            continue;
        }
        if (*p == ';') {
            /* directives without a ';' (".loc 1 150 5", ".file") share the statement of the
             * instruction after them: skip them, or that instruction is lost */
            const char *a = skip_directives(stmt, p);
            /* labels ("$L__BB0_2:") precede an instruction on the same statement */
            const char *colon = memchr(a, ':', (size_t)(p - a));
            if (colon && colon[1] != ':' && (colon == a || colon[-1] != ':')) {
                bool label = true;
                for (const char *k = a; k < colon; k++)
                    if (!(isalnum((unsigned char)*k) || *k == '_' || *k == '$')) label = false;
                if (label) a = skip_directives(colon + 1, p);
            }
            ptx_statement(a, (size_t)(p - a), s);
            stmt = p + 1;
        }
    }
}

/* ---- tools ---------------------------------------------------------------- */

char *cu_sass_dump(const char *ptx, const char *arch, const char *entry, ws_error *err)
{
    /* sim/sass/sass.c compiles and lists; nvdisasm first (source lines), else the toolkit's cuobjdump */
    char *listing = ws_sass_compile(ptx, arch, entry, err);
    if (listing) return listing;
    ws_error first = *err;        /* where neither lists, nvdisasm's message says what to run */
    listing = ws_sass_compile_with(ptx, arch, entry, WS_SASS_CUOBJDUMP, err);
    if (!listing) *err = first;
    return listing;
}

/* ---- causes --------------------------------------------------------------- */

bool cu_metric_space(const char *m, cu_space *sp, cu_op *op)
{
    /* the row's space and op columns; the summaries count plain ld/st/atom/red only, so a
     * tensor-era row (LDGSTS, LDSM ...) has no cause to look for in them */
    const ws_metric_info *row = ws_metric_find(m);
    if (!row || row->kind != WS_KIND_PLAIN || row->space < 0 || row->op < 0) return false;
    static const cu_space spaces[] = {[WS_SPACE_GLOBAL] = CU_SP_GLOBAL, [WS_SPACE_SHARED] = CU_SP_SHARED,
                                      [WS_SPACE_LOCAL] = CU_SP_LOCAL};
    if (row->space > WS_SPACE_LOCAL) return false;
    *sp = spaces[row->space];
    *op = row->op == WS_MEM_LOAD ? CU_OP_LD : row->op == WS_MEM_STORE ? CU_OP_ST : CU_OP_ATOM; /* red is an atom */
    return true;
}

static const char *sass_mnemonic(cu_space sp, cu_op op)
{
    static const char *names[CU_SP_COUNT][CU_OP_COUNT] = {
        {"LDG", "STG", "ATOMG/REDG"}, {"LDS", "STS", "ATOMS"}, {"LDL", "STL", "-"}, {"LD", "ST", "ATOM"}};
    return names[sp][op];
}

static const char *ptx_mnemonic(cu_space sp, cu_op op)
{
    static const char *names[CU_SP_COUNT][CU_OP_COUNT] = {{"ld.global", "st.global", "atom/red.global"},
                                                          {"ld.shared", "st.shared", "atom.shared"},
                                                          {"ld.local", "st.local", "-"},
                                                          {"ld", "st", "atom"}};
    return names[sp][op];
}

/* "1 LDS.128" / "4 ld.shared of 4 B, 1 ld.shared of 8 B" */
static void describe(const cu_access_summary *s, cu_space sp, cu_op op, bool sass, char *out, size_t cap)
{
    static const char *suffix[CU_NWIDTHS] = {".U8", ".U16", "", ".64", ".128"};
    size_t n = 0;
    out[0] = 0;
    for (int w = 0; w < CU_NWIDTHS; w++) {
        int c = s->count[sp][op][w];
        if (!c) continue;
        int k;
        if (sass) k = snprintf(out + n, cap - n, "%s%d %s%s", n ? ", " : "", c, sass_mnemonic(sp, op), suffix[w]);
        else k = snprintf(out + n, cap - n, "%s%d %s of %d B", n ? ", " : "", c, ptx_mnemonic(sp, op), widths[w]);
        if (k < 0 || (size_t)k >= cap - n) return;
        n += (size_t)k;
    }
    if (!n) snprintf(out, cap, "no %s", sass ? sass_mnemonic(sp, op) : ptx_mnemonic(sp, op));
}

static int max_width(const cu_access_summary *s, cu_space sp, cu_op op)
{
    int m = 0;
    for (int w = 0; w < CU_NWIDTHS; w++)
        if (s->count[sp][op][w]) m = widths[w];
    return m;
}

bool cu_sass_cause(const char *metric, const cu_access_summary *ptx, const cu_access_summary *sass, char *out,
                   size_t cap)
{
    if (cap) out[0] = 0; /* no difference found: the caller (check_explain.c) names the evidence missing */
    cu_space sp;
    cu_op op;
    if (!ptx || !sass || !ptx->found || !sass->found || !cu_metric_space(metric, &sp, &op)) return false;
    char a[256], b[256];
    if (sp == CU_SP_LOCAL) {
        int pl = cu_summary_total(ptx, sp, CU_OP_LD), ps = cu_summary_total(ptx, sp, CU_OP_ST);
        int sl = cu_summary_total(sass, sp, CU_OP_LD), ss = cu_summary_total(sass, sp, CU_OP_ST);
        if (pl + ps == 0 && sl + ss > 0) {
            snprintf(out, cap,
                     "local memory the PTX does not have: the machine code has %d LDL and %d STL (register spills or a "
                     "stack frame added by ptxas)", sl, ss);
            return true;
        }
        if (pl + ps > 0 && sl + ss == 0) {
            snprintf(out, cap,
                     "ptxas kept the PTX's local array in registers: the PTX has %d ld.local and %d st.local, the "
                     "machine code no LDL/STL", pl, ps);
            return true;
        }
    }
    if (!memcmp(ptx->count[sp][op], sass->count[sp][op], sizeof ptx->count[sp][op])) {
        int pg = cu_summary_total(ptx, CU_SP_GENERIC, op), sg = cu_summary_total(sass, CU_SP_GENERIC, op);
        if (pg || sg) {
            snprintf(out, cap,
                     "generic-address accesses: the machine code has %d generic %s (the PTX %d generic %s) and the "
                     "hardware counts each by the space its lanes reach at run time, which the PTX and the machine "
                     "code do not say", sg, sass_mnemonic(CU_SP_GENERIC, op), pg, ptx_mnemonic(CU_SP_GENERIC, op));
            return true;
        }
        return false;
    }
    describe(sass, sp, op, true, a, sizeof a);
    describe(ptx, sp, op, false, b, sizeof b);
    int tp = cu_summary_total(ptx, sp, op), ts = cu_summary_total(sass, sp, op);
    const char *why;
    if (ts < tp && max_width(sass, sp, op) > max_width(ptx, sp, op))
        why = ": ptxas merged narrow accesses into wider ones, so the hardware executes fewer, wider instructions "
              "than the PTX the simulator runs";
    else if (ts < tp)
        why = ": ptxas removed accesses (a store overwritten on every path, a load it kept in a register, code it "
              "proved dead)";
    else if (ts > tp)
        why = ": ptxas made copies of accesses (unrolled or duplicated code); a cause only where a copy runs more "
              "often than the PTX access it copies";
    else
        why = "";
    snprintf(out, cap, "the machine code has %s where the PTX has %s%s", a, b, why);
    return true;
}
