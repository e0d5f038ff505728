/* sass.c - reading nvdisasm / cuobjdump listings and running ptxas + nvdisasm (see sass.h).
 * The reader is a line scanner: an opcode it does not know is an ordinary instruction
 * (it still counts, for blocks and the issue term), so a new architecture's listing
 * degrades to fewer recognised memory instructions, never to a failure. */
#include "sass.h"

#include "../../common/toolcache.h"
#include "../../common/toolkit.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ws_sass_space_name(ws_sass_space s)
{
    static const char *n[] = {"none", "global", "shared", "local", "generic"};
    return s <= WS_SASS_SP_GENERIC ? n[s] : "?";
}

const char *ws_sass_op_name(ws_sass_op o)
{
    static const char *n[] = {"none", "load", "store", "atomic", "reduction"};
    return o <= WS_SASS_OP_RED ? n[o] : "?";
}

/* ---- growing arrays ------------------------------------------------------------- */

typedef struct {
    char name[64];
    int index;
} label;

typedef struct {          /* one function while it is read */
    ws_sass_function f;
    int cap;
    label *labels;
    int nlabels, lcap;
    char (*targets)[64];  /* per instruction: the label or hex address it branches to */
    int tcap;
} fbuild;

static int push_insn(fbuild *b, const ws_sass_insn *in, const char *target)
{
    if (b->f.ninsns == b->cap) {
        int nc = b->cap ? 2 * b->cap : 64;
        ws_sass_insn *ni = realloc(b->f.insns, (size_t)nc * sizeof *ni);
        if (!ni) return -1;
        b->f.insns = ni;
        char (*nt)[64] = realloc(b->targets, (size_t)nc * sizeof *nt);
        if (!nt) return -1;
        b->targets = nt;
        b->cap = nc;
    }
    b->f.insns[b->f.ninsns] = *in;
    snprintf(b->targets[b->f.ninsns], sizeof b->targets[0], "%s", target);
    b->f.ninsns++;
    return 0;
}

static int push_label(fbuild *b, const char *name, size_t n)
{
    if (b->nlabels == b->lcap) {
        int nc = b->lcap ? 2 * b->lcap : 32;
        label *nl = realloc(b->labels, (size_t)nc * sizeof *nl);
        if (!nl) return -1;
        b->labels = nl;
        b->lcap = nc;
    }
    label *l = &b->labels[b->nlabels++];
    snprintf(l->name, sizeof l->name, "%.*s", (int)(n < sizeof l->name ? n : sizeof l->name - 1), name);
    l->index = b->f.ninsns;
    return 0;
}

/* ---- one instruction ------------------------------------------------------------ */

typedef struct { const char *op; ws_sass_space sp; ws_sass_op kind; } mem_kind;
static const mem_kind mem_kinds[] = {
    {"LDG", WS_SASS_SP_GLOBAL, WS_SASS_OP_LD},     {"LDGSTS", WS_SASS_SP_GLOBAL, WS_SASS_OP_LD},
    {"STG", WS_SASS_SP_GLOBAL, WS_SASS_OP_ST},     {"ATOMG", WS_SASS_SP_GLOBAL, WS_SASS_OP_ATOM},
    {"REDG", WS_SASS_SP_GLOBAL, WS_SASS_OP_RED},   {"RED", WS_SASS_SP_GLOBAL, WS_SASS_OP_RED},
    {"LDS", WS_SASS_SP_SHARED, WS_SASS_OP_LD},     {"LDSM", WS_SASS_SP_SHARED, WS_SASS_OP_LD},
    {"STS", WS_SASS_SP_SHARED, WS_SASS_OP_ST},     {"STSM", WS_SASS_SP_SHARED, WS_SASS_OP_ST},
    {"ATOMS", WS_SASS_SP_SHARED, WS_SASS_OP_ATOM},
    {"LDL", WS_SASS_SP_LOCAL, WS_SASS_OP_LD},      {"STL", WS_SASS_SP_LOCAL, WS_SASS_OP_ST},
    {"LD", WS_SASS_SP_GENERIC, WS_SASS_OP_LD},     {"ST", WS_SASS_SP_GENERIC, WS_SASS_OP_ST},
    {"ATOM", WS_SASS_SP_GENERIC, WS_SASS_OP_ATOM},
};

/* Bytes per lane from the modifiers (".E.128.CONSTANT", ".U8", ".ADD.F64.RN"); 4 otherwise. */
static int mods_width(const char *opc, const char *base)
{
    int w = 4;
    const char *m = opc + strlen(base);
    while (*m == '.') {
        m++;
        size_t n = strcspn(m, ".");
        char tok[24];
        snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), m);
        if (!strcmp(tok, "128")) w = 16;
        else if (!strcmp(tok, "64") || !strcmp(tok, "F64") || !strcmp(tok, "S64") || !strcmp(tok, "U64")) w = 8;
        else if (!strcmp(tok, "U8") || !strcmp(tok, "S8")) w = 1;
        else if (!strcmp(tok, "U16") || !strcmp(tok, "S16")) w = 2;
        m += n;
    }
    if (!strcmp(base, "LDSM") || !strcmp(base, "STSM")) { /* .x1/.x2/.x4 matrices, a 16-byte row address per lane */
        size_t l = strlen(opc);
        w = l >= 2 && opc[l - 2] == '.' ? (opc[l - 1] == '4' ? 16 : opc[l - 1] == '2' ? 8 : 4) : 4;
    }
    return w;
}

static bool is_reg_token(const char *t, size_t n)
{
    if (n >= 2 && t[0] == 'R' && (isdigit((unsigned char)t[1]) || t[1] == 'Z')) return true;
    if (n >= 3 && t[0] == 'U' && t[1] == 'R' && (isdigit((unsigned char)t[2]) || t[2] == 'Z')) return true;
    return false;
}

/* "[R0+UR4+0x4]" -> base "R0+UR4", offset 4; "[R2.64+-0x10]" -> "R2", -16. */
static void parse_address(const char *a, size_t n, ws_sass_insn *in)
{
    in->base[0] = 0;
    in->offset = 0;
    size_t bl = 0;
    size_t i = 0;
    while (i < n) {
        int sign = 1;
        while (i < n && (a[i] == '+' || a[i] == '-' || a[i] == ' ')) {
            if (a[i] == '-') sign = -sign;
            i++;
        }
        size_t j = i;
        while (j < n && a[j] != '+' && a[j] != '-' && a[j] != ' ') j++;
        const char *t = a + i;
        size_t tl = j - i;
        if (tl == 0) break;
        if (is_reg_token(t, tl)) {
            size_t rl = strcspn(t, ".+- ]");
            if (rl > tl) rl = tl;
            if (!(rl == 2 && !strncmp(t, "RZ", 2)) && !(rl == 3 && !strncmp(t, "URZ", 3)) &&
                bl + rl + 2 < sizeof in->base) {
                if (bl) in->base[bl++] = '+';
                memcpy(in->base + bl, t, rl);
                bl += rl;
                in->base[bl] = 0;
            }
        } else if (isdigit((unsigned char)t[0])) {
            in->offset += sign * (int64_t)strtoll(t, NULL, 0);
        }
        i = j;
    }
}

static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Reads "@!P0 LDS.128 R4, [R0+0x10] (*"SpillRefill"*)" into in (text has no ';'). */
static void parse_text(const char *t, ws_sass_insn *in, char *target, size_t tcap)
{
    target[0] = 0;
    while (*t == ' ' || *t == '\t' || *t == '{') t++;
    /* the listing's text, spaces collapsed, annotations dropped */
    size_t o = 0;
    bool sp = false;
    for (const char *p = t; *p && o + 1 < sizeof in->text; p++) {
        if (p[0] == '(' && p[1] == '*') {
            const char *e = strstr(p, "*)");
            if (strstr(p, "SpillRefill") && (!e || strstr(p, "SpillRefill") < e)) in->spill = true;
            if (!e) break;
            p = e + 1;
            continue;
        }
        if (isspace((unsigned char)*p)) { sp = o > 0; continue; }
        if (sp) { in->text[o++] = ' '; sp = false; }
        if (o + 1 < sizeof in->text) in->text[o++] = *p;
    }
    while (o && in->text[o - 1] == ' ') o--;
    in->text[o] = 0;

    const char *p = in->text;
    in->guard = -1;
    if (*p == '@') {
        p++;
        if (*p == '!') { in->guard_neg = true; p++; }
        if (*p == 'U') p++;
        if (p[0] == 'P' && p[1] == 'T') in->guard = 7;
        else if (p[0] == 'P' && isdigit((unsigned char)p[1])) in->guard = p[1] - '0';
        while (*p && *p != ' ') p++;
        while (*p == ' ') p++;
    }
    size_t n = strcspn(p, " ");
    snprintf(in->opcode, sizeof in->opcode, "%.*s", (int)(n < sizeof in->opcode ? n : sizeof in->opcode - 1), p);
    const char *ops = p + n;
    char base[24];
    size_t bn = strcspn(in->opcode, ".");
    snprintf(base, sizeof base, "%.*s", (int)bn, in->opcode);

    for (size_t k = 0; k < sizeof mem_kinds / sizeof mem_kinds[0]; k++) {
        if (strcmp(base, mem_kinds[k].op)) continue;
        in->space = mem_kinds[k].sp;
        in->op = mem_kinds[k].kind;
        in->width = (uint8_t)mods_width(in->opcode, base);
        /* the address: after desc[..] when there is one, else the first [..] not of c[..][..] */
        const char *a = strstr(ops, "desc[");
        if (a) a = strchr(strchr(a, ']') ? strchr(a, ']') : a, '[');
        else
            for (const char *q = strchr(ops, '['); q; q = strchr(q + 1, '['))
                if (q == ops || (q[-1] != 'c' && q[-1] != ']')) { a = q; break; }
        if (a) {
            const char *e = strchr(a, ']');
            if (e) parse_address(a + 1, (size_t)(e - a - 1), in);
        }
        break;
    }

    /* "@!PT LDS RZ, [RZ]": ptxas pads cp.async code with accesses that never run */
    if (in->guard == 7 && in->guard_neg) in->space = WS_SASS_SP_NONE;
    /* the tensor pipe's instructions, by ncu's op classes (smsp__inst_executed_pipe_tensor_op_*) */
    static const struct { const char *op; ws_sass_tensor t; } tensor_ops[] = {
        {"HMMA", WS_SASS_TENSOR_HMMA}, {"HGMMA", WS_SASS_TENSOR_HMMA}, {"QGMMA", WS_SASS_TENSOR_HMMA},
        {"IMMA", WS_SASS_TENSOR_IMMA}, {"IGMMA", WS_SASS_TENSOR_IMMA}, {"BMMA", WS_SASS_TENSOR_IMMA},
        {"BGMMA", WS_SASS_TENSOR_IMMA}, {"DMMA", WS_SASS_TENSOR_DMMA},
    };
    for (size_t k = 0; k < sizeof tensor_ops / sizeof tensor_ops[0]; k++)
        if (!strcmp(base, tensor_ops[k].op)) in->tensor = tensor_ops[k].t;
    /* HFMA2.MMA: a half FMA ptxas issues on the tensor pipe (often to set a register to a constant);
     * ncu counts it in ..._pipe_tensor_op_hmma (the H200: 2,048 in the corpus's fp32 matrixMul
     * kernels, one per warp, where the listing has no HMMA) */
    if (!strncmp(in->opcode, "HFMA2.MMA", 9) && (in->opcode[9] == 0 || in->opcode[9] == '.'))
        in->tensor = WS_SASS_TENSOR_HMMA;

    static const char *branches[] = {"BRA", "BRX", "JMP", "JMX", "CALL", "RET", "EXIT", "KILL", "BPT"};
    for (size_t k = 0; k < sizeof branches / sizeof branches[0]; k++)
        if (!strcmp(base, branches[k])) in->is_branch = true;
    in->is_exit = !strcmp(base, "EXIT") || !strcmp(base, "RET") || !strcmp(base, "KILL");
    in->is_call = !strcmp(base, "CALL");
    if (in->is_branch || !strcmp(base, "BSSY")) {
        /* nvdisasm: `(.L_x_3); cuobjdump: a hex address */
        const char *q = strstr(ops, "`(");
        if (q) {
            q += 2;
            size_t l = strcspn(q, ")");
            snprintf(target, tcap, "%.*s", (int)(l < tcap ? l : tcap - 1), q);
        } else if ((q = strstr(ops, "0x")) != NULL && !strchr(ops, '[')) {
            size_t l = strspn(q + 2, "0123456789abcdefABCDEF");
            snprintf(target, tcap, "#%.*s", (int)(l + 2 < tcap ? l + 2 : tcap - 1), q);
        }
    }
}

/* ---- blocks and loops ------------------------------------------------------------ */

int ws_sass_successors(const ws_sass_function *f, int b, int out[2])
{
    const ws_sass_block *B = &f->blocks[b];
    const ws_sass_insn *last = &f->insns[B->first + B->n - 1];
    int n = 0;
    bool uncond = last->guard < 0 || (last->guard == 7 && !last->guard_neg);
    bool div = !strncmp(last->opcode, "BRA.DIV", 7);     /* taken only by a diverged warp */
    bool falls = !(last->is_branch && !last->is_call && uncond && !div);
    if (falls && b + 1 < f->nblocks) out[n++] = b + 1;
    if (last->is_branch && !last->is_call && !last->is_exit && last->target >= 0) {
        int t = f->insns[last->target].block;
        if (!(n && out[0] == t)) out[n++] = t;
    }
    return n;
}

#define MAX_CFG_BLOCKS 4096 /* dominator bit sets are nblocks^2 bits */

/* Loop depth of every block from the natural loops of the CFG (an edge to a dominator is
 * a back edge; a backward jump that is not one, such as ptxas's jump back from a
 * divergent slow path, makes no loop), and which blocks only a diverged warp reaches
 * (BRA.DIV slow paths: cold). */
static int control_flow(ws_sass_function *f)
{
    int nb = f->nblocks;
    if (nb == 0) return 0;
    int (*succ)[2] = calloc((size_t)nb, sizeof *succ);
    int *nsucc = calloc((size_t)nb, sizeof *nsucc);
    bool *hot = calloc((size_t)nb, sizeof *hot);
    if (!succ || !nsucc || !hot) { free(succ); free(nsucc); free(hot); return -1; }
    for (int b = 0; b < nb; b++) nsucc[b] = ws_sass_successors(f, b, succ[b]);
    /* hot: reachable from the entry without taking a BRA.DIV */
    hot[0] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (int b = 0; b < nb; b++) {
            if (!hot[b]) continue;
            const ws_sass_insn *last = &f->insns[f->blocks[b].first + f->blocks[b].n - 1];
            bool div = !strncmp(last->opcode, "BRA.DIV", 7);
            for (int k = 0; k < nsucc[b]; k++) {
                int t = succ[b][k];
                if (div && k == 1) continue; /* ws_sass_successors(): [0] falls through, [1] is the target */
                if (!hot[t]) { hot[t] = true; changed = true; }
            }
        }
    }
    for (int b = 0; b < nb; b++) f->blocks[b].cold = !hot[b];
    int rc = 0;
    if (nb <= MAX_CFG_BLOCKS) {
        size_t words = ((size_t)nb + 63) / 64;
        uint64_t *dom = malloc((size_t)nb * words * sizeof *dom), *tmp = malloc(words * sizeof *tmp);
        int *stack = malloc((size_t)nb * sizeof *stack);
        uint8_t *in_loop = malloc((size_t)nb);
        if (!dom || !tmp || !stack || !in_loop) rc = -1;
        for (int b = 0; !rc && b < nb; b++) /* entry dominated by itself, the rest by all */
            for (size_t w = 0; w < words; w++) dom[(size_t)b * words + w] = b ? ~0ull : (w == 0 ? 1ull : 0);
        for (bool changed = !rc; changed;) {
            changed = false;
            for (int b = 1; b < nb; b++) {
                bool any = false;
                for (size_t w = 0; w < words; w++) tmp[w] = ~0ull;
                for (int p = 0; p < nb; p++)
                    for (int k = 0; k < nsucc[p]; k++)
                        if (succ[p][k] == b) {
                            any = true;
                            for (size_t w = 0; w < words; w++) tmp[w] &= dom[(size_t)p * words + w];
                        }
                if (!any) for (size_t w = 0; w < words; w++) tmp[w] = 0; /* unreachable */
                tmp[b / 64] |= 1ull << (b % 64);
                if (memcmp(tmp, &dom[(size_t)b * words], words * sizeof *tmp)) {
                    memcpy(&dom[(size_t)b * words], tmp, words * sizeof *tmp);
                    changed = true;
                }
            }
        }
        for (int h = 0; !rc && h < nb; h++) { /* one loop per header h: every back edge u -> h */
            int sp = 0;
            memset(in_loop, 0, (size_t)nb);
            for (int u = 0; u < nb; u++)
                for (int k = 0; k < nsucc[u]; k++)
                    if (succ[u][k] == h && (dom[(size_t)u * words + h / 64] >> (h % 64) & 1) && !in_loop[u]) {
                        in_loop[u] = 1;
                        stack[sp++] = u;
                    }
            if (!sp) continue;
            in_loop[h] = 1;
            while (sp) { /* the natural loop: blocks that reach a back edge without passing h */
                int x = stack[--sp];
                if (x == h) continue;
                for (int p = 0; p < nb; p++)
                    for (int k = 0; k < nsucc[p]; k++)
                        if (succ[p][k] == x && !in_loop[p]) { in_loop[p] = 1; stack[sp++] = p; }
            }
            for (int b = 0; b < nb; b++) f->blocks[b].loop_depth += in_loop[b];
        }
        free(dom);
        free(tmp);
        free(stack);
        free(in_loop);
    }
    for (int b = 0; b < nb; b++)
        for (int i = f->blocks[b].first; i < f->blocks[b].first + f->blocks[b].n; i++) f->insns[i].loop_depth = f->blocks[b].loop_depth;
    free(succ);
    free(nsucc);
    free(hot);
    return rc;
}

static int finish_function(fbuild *b)
{
    ws_sass_function *f = &b->f;
    uint8_t *leader = calloc((size_t)f->ninsns + 1, 1);
    if (!leader) return -1;
    for (int i = 0; i < f->ninsns; i++) {
        ws_sass_insn *in = &f->insns[i];
        in->target = -1;
        const char *t = b->targets[i];
        if (t[0] == '#') {
            uint32_t addr = (uint32_t)strtoul(t + 1, NULL, 16);
            for (int k = 0; k < f->ninsns; k++)
                if (f->insns[k].addr == addr) { in->target = k; break; }
        } else if (t[0]) {
            for (int k = 0; k < b->nlabels; k++)
                if (!strcmp(b->labels[k].name, t)) { in->target = b->labels[k].index < f->ninsns ? b->labels[k].index : -1; break; }
        }
        if (in->target >= 0) leader[in->target] = 1;
        if (in->is_branch && !in->is_call) leader[i + 1] = 1;
    }
    leader[0] = 1;
    int nb = 0;
    for (int i = 0; i < f->ninsns; i++) nb += leader[i];
    f->blocks = calloc((size_t)(nb ? nb : 1), sizeof *f->blocks);
    if (!f->blocks) { free(leader); return -1; }
    int cur = -1;
    for (int i = 0; i < f->ninsns; i++) {
        if (leader[i]) f->blocks[++cur].first = i;
        f->blocks[cur].n++;
        f->insns[i].block = cur;
    }
    f->nblocks = nb;
    int rc = control_flow(f);
    free(leader);
    return rc;
}

/* ---- the listing ----------------------------------------------------------------- */

void ws_sass_free(ws_sass_listing *l)
{
    if (!l) return;
    for (int i = 0; i < l->nfuncs; i++) {
        free(l->funcs[i].insns);
        free(l->funcs[i].blocks);
    }
    free(l->funcs);
    free(l);
}

const ws_sass_function *ws_sass_find(const ws_sass_listing *l, const char *name)
{
    for (int i = 0; l && name && i < l->nfuncs; i++)
        if (!strcmp(l->funcs[i].name, name)) return &l->funcs[i];
    return NULL;
}

static int close_function(ws_sass_listing *l, fbuild *b, int *fcap)
{
    if (!b->f.name[0]) return 0;
    int rc = finish_function(b);
    free(b->labels);
    free(b->targets);
    if (rc) { free(b->f.insns); free(b->f.blocks); memset(b, 0, sizeof *b); return -1; }
    if (l->nfuncs == *fcap) {
        int nc = *fcap ? 2 * *fcap : 8;
        ws_sass_function *nf = realloc(l->funcs, (size_t)nc * sizeof *nf);
        if (!nf) { free(b->f.insns); free(b->f.blocks); memset(b, 0, sizeof *b); return -1; }
        l->funcs = nf;
        *fcap = nc;
    }
    l->funcs[l->nfuncs++] = b->f;
    memset(b, 0, sizeof *b);
    return 0;
}

/* The function a header line opens, or NULL: ".section .text.NAME,..." (nvdisasm) or
 * "Function : NAME" (cuobjdump). */
static bool header_name(const char *s, size_t n, char *out, size_t cap)
{
    const char *p = s;
    while (p < s + n && isspace((unsigned char)*p)) p++;
    const char *q = NULL;
    if (starts(p, ".section") && (q = strstr(p, ".text.")) && q < s + n) q += 6;
    else if (starts(p, "Function : ")) q = p + 11;
    if (!q) return false;
    size_t l = 0;
    while (q + l < s + n && !isspace((unsigned char)q[l]) && q[l] != ',' && q[l] != '"') l++;
    if (!l || l >= cap) return false;
    memcpy(out, q, l);
    out[l] = 0;
    return true;
}

ws_sass_listing *ws_sass_parse(const char *path, const char *text, ws_error *err)
{
    ws_sass_listing *l = calloc(1, sizeof *l);
    if (!l) { ws_error_set(err, path, 0, 0, "out of memory reading the SASS listing"); return NULL; }
    snprintf(l->path, sizeof l->path, "%s", path ? path : "<sass>");
    fbuild b;
    memset(&b, 0, sizeof b);
    int fcap = 0, lineno = 0, src_line = 0;
    bool oom = false;
    for (const char *p = text ? text : ""; *p && !oom;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        lineno++;
        char name[WS_SASS_NAME_MAX];
        const char *s = p;
        while (s < p + n && isspace((unsigned char)*s)) s++;
        if (header_name(p, n, name, sizeof name)) {
            if (close_function(l, &b, &fcap)) oom = true;
            snprintf(b.f.name, sizeof b.f.name, "%s", name);
            src_line = 0;
        } else if (starts(s, ".target") && !l->arch[0]) {
            const char *q = s + 7;
            while (*q == ' ' || *q == '\t') q++;
            size_t k = strcspn(q, " \t\r\n");
            snprintf(l->arch, sizeof l->arch, "%.*s", (int)(k < sizeof l->arch ? k : sizeof l->arch - 1), q);
        } else if (starts(s, "//## File")) {
            /* the outermost location: the last "line N" (after "inlined at" when there is one) */
            const char *last = NULL;
            for (const char *q = s; (q = strstr(q, "line ")) && q < p + n; q += 5) last = q;
            if (last) src_line = atoi(last + 5);
            if (b.f.name[0]) b.f.has_lines = true;
        } else if (b.f.name[0] && s[0] == '/' && s[1] == '*' && isxdigit((unsigned char)s[2])) {
            const char *q = s + 2;
            while (isxdigit((unsigned char)*q)) q++;
            if (q[0] != '*' || q[1] != '/') { p = e ? e + 1 : p + n; continue; }
            ws_sass_insn in;
            memset(&in, 0, sizeof in);
            in.addr = (uint32_t)strtoul(s + 2, NULL, 16);
            in.line = src_line;
            const char *semi = memchr(q, ';', (size_t)(p + n - q));
            if (!semi) {
                ws_error_set(err, l->path, lineno, (int)(q - p) + 1, "instruction without ';' in function %s", b.f.name);
                close_function(l, &b, &fcap);
                ws_sass_free(l);
                return NULL;
            }
            char body[256], target[64];
            size_t bl = (size_t)(semi - q - 2);
            snprintf(body, sizeof body, "%.*s", (int)(bl < sizeof body ? bl : sizeof body - 1), q + 2);
            parse_text(body, &in, target, sizeof target);
            if (push_insn(&b, &in, target)) oom = true;
        } else if (b.f.name[0] && n > 1 && p[n - 1] == ':' && (s[0] == '.' || isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '$')) {
            if (push_label(&b, s, (size_t)(p + n - 1 - s))) oom = true;
        }
        p = e ? e + 1 : p + n;
    }
    if (!oom && close_function(l, &b, &fcap)) oom = true;
    if (oom) {
        free(b.labels);
        free(b.targets);
        free(b.f.insns);
        ws_sass_free(l);
        ws_error_set(err, path, 0, 0, "out of memory reading the SASS listing");
        return NULL;
    }
    if (!l->nfuncs) {
        ws_error_set(err, l->path, 0, 0, "no function in the SASS listing (expected nvdisasm or cuobjdump -sass output)");
        ws_sass_free(l);
        return NULL;
    }
    return l;
}

/* ---- obtaining SASS ------------------------------------------------------------ */

bool ws_sass_disabled(void)
{
    const char *e = getenv("WARPSCOPE_SASS");
    return e && (!strcmp(e, "off") || !strcmp(e, "0") || !strcmp(e, "no"));
}

char *ws_sass_compile(const char *ptx, const char *arch, const char *entry, ws_error *err)
{
    return ws_sass_compile_with(ptx, arch, entry, WS_SASS_NVDISASM, err);
}

/* Listings made in this process, by key: check and a catalog run ask for every kernel of a
 * module, and one ptxas + one lister run serves them all even with the disk cache off. A few
 * modules are live at a time (a run walks the catalog file by file), so a short ring is enough. */
#define MEMO_SLOTS 4
static struct { char *key, *text; } g_memo[MEMO_SLOTS];
static int g_memo_next;
static pthread_mutex_t g_memo_lock = PTHREAD_MUTEX_INITIALIZER;

static char *memo_get(const char *key)
{
    char *hit = NULL;
    pthread_mutex_lock(&g_memo_lock);
    for (int i = 0; i < MEMO_SLOTS && !hit; i++)
        if (g_memo[i].key && !strcmp(g_memo[i].key, key)) hit = strdup(g_memo[i].text);
    pthread_mutex_unlock(&g_memo_lock);
    return hit;
}

static void memo_put(const char *key, const char *text)
{
    char *k = strdup(key), *t = strdup(text);
    if (!k || !t) {               /* not kept: the next ask compiles again */
        free(k);
        free(t);
        return;
    }
    pthread_mutex_lock(&g_memo_lock);
    int i = g_memo_next;
    g_memo_next = (g_memo_next + 1) % MEMO_SLOTS;
    free(g_memo[i].key);
    free(g_memo[i].text);
    g_memo[i].key = k;
    g_memo[i].text = t;
    pthread_mutex_unlock(&g_memo_lock);
}

void ws_sass_forget(void)
{
    pthread_mutex_lock(&g_memo_lock);
    for (int i = 0; i < MEMO_SLOTS; i++) {
        free(g_memo[i].key);
        free(g_memo[i].text);
        g_memo[i].key = g_memo[i].text = NULL;
    }
    g_memo_next = 0;
    pthread_mutex_unlock(&g_memo_lock);
}

/* .entry directives in the PTX (at a line's start, after blanks and .visible/.weak) */
static int count_entries(const char *ptx)
{
    int n = 0;
    for (const char *p = ptx; (p = strstr(p, ".entry")); p += 6) {
        const char *b = p;
        while (b > ptx && b[-1] != '\n') b--;
        while (*b == ' ' || *b == '\t') b++;
        if ((b == p || !strncmp(b, ".visible", 8) || !strncmp(b, ".weak", 5)) && isspace((unsigned char)p[6])) n++;
    }
    return n;
}

/* One ptxas + lister run for entry (NULL: every entry of the module), kept under key. */
static char *list_now(const char *ptx, const char *arch, const char *entry, ws_sass_disasm how, const char *ptxas,
                      const char *disasm, const char *key, ws_error *err)
{
    const char *dname = how == WS_SASS_CUOBJDUMP ? "cuobjdump" : "nvdisasm";
    const char *tmpdir = getenv("TMPDIR");
    char dir[600];
    snprintf(dir, sizeof dir, "%s/warpscope-sass-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir)) {
        ws_error_set(err, dir, 0, 0, "cannot create a temporary directory for ptxas");
        return NULL;
    }
    char ptx_path[700], cubin_path[700], archopt[64], why[400] = "";
    snprintf(ptx_path, sizeof ptx_path, "%s/k.ptx", dir);
    snprintf(cubin_path, sizeof cubin_path, "%s/k.cubin", dir);
    char *out = NULL, *sass = NULL;
    int st = 0;
    FILE *f = fopen(ptx_path, "w");
    if (!f || fputs(ptx, f) < 0) {
        if (f) fclose(f);
        ws_error_set(err, ptx_path, 0, 0, "cannot write the PTX for ptxas");
        goto done;
    }
    fclose(f);
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    /* -e: machine code for the kernel asked about only, not every entry of its file */
    char *pargv[] = {(char *)ptxas, archopt, "-lineinfo", "-o", cubin_path, ptx_path, "-e", (char *)entry, NULL};
    if (!entry) pargv[6] = NULL;
    out = ws_tool_run(pargv, NULL, &st, why, sizeof why);
    if (!out || st != 0) {
        ws_error_set(err, "ptxas", 0, 0, "ptxas -arch=%s failed (status %d): %.300s", arch, st, out ? out : why);
        goto done;
    }
    /* nvdisasm gives source lines (-gi); cuobjdump, the toolkit's older lister, gives none */
    char *nargv[] = {(char *)disasm, "-c", "-gi", cubin_path, NULL}, *cargv[] = {(char *)disasm, "-sass", cubin_path, NULL};
    sass = ws_tool_run(how == WS_SASS_CUOBJDUMP ? cargv : nargv, NULL, &st, why, sizeof why);
    if (!sass || st != 0 || !strstr(sass, how == WS_SASS_CUOBJDUMP ? "Function" : ".text.")) {
        ws_error_set(err, dname, 0, 0, "%s failed (status %d): %.300s",
                     how == WS_SASS_CUOBJDUMP ? "cuobjdump -sass" : "nvdisasm -c -gi", st, sass ? sass : why);
        free(sass);
        sass = NULL;
    } else {
        ws_cache_put("sass", key, sass, strlen(sass));
        memo_put(key, sass);
    }
done:
    free(out);
    unlink(cubin_path);
    unlink(ptx_path);
    rmdir(dir);
    return sass;
}

/* The key naming everything entry's listing (NULL = all) depends on; malloc'd, NULL (err) when out of memory. */
static char *key_for(const char *ptx, const char *arch, const char *entry, ws_sass_disasm how, const char *ptxas,
                     const char *pv, const char *disasm, const char *dv, const char *hash, ws_error *err)
{
    size_t klen = strlen(ptxas) + strlen(disasm) + (entry ? strlen(entry) : 0) + strlen(arch) + 256;
    char *key = malloc(klen);
    if (!key) {
        ws_error_set(err, "sass", 0, 0, "out of memory");
        return NULL;
    }
    snprintf(key, klen, "ptxas=%s %s\nlister=%s %s %s\narch=%s\nentry=%s\nptx=%s:%zu\n", ptxas, pv, disasm, dv,
             how == WS_SASS_CUOBJDUMP ? "-sass" : "-c -gi", arch, entry ? entry : "(all)", hash, strlen(ptx));
    return key;
}

/* A listing made before under key: this process's memo, else the disk cache; NULL = none. */
static char *listing_kept(const char *key, ws_sass_disasm how)
{
    if (!key) return NULL;
    char *hit = memo_get(key);
    if (hit) return hit;
    hit = ws_cache_get("sass", key, NULL);
    if (hit && !strstr(hit, how == WS_SASS_CUOBJDUMP ? "Function" : ".text.")) {
        free(hit);                /* whole, but not a listing: made again */
        return NULL;
    }
    if (hit) memo_put(key, hit);
    return hit;
}

char *ws_sass_compile_with(const char *ptx, const char *arch, const char *entry, ws_sass_disasm how, ws_error *err)
{
    ws_tool lister = how == WS_SASS_CUOBJDUMP ? WS_TOOL_CUOBJDUMP : WS_TOOL_NVDISASM;
    char ptxas[1024], disasm[1024];
    if (ws_tool_find(WS_TOOL_PTXAS, ptxas, sizeof ptxas, err) || ws_tool_find(lister, disasm, sizeof disasm, err))
        return NULL;                  /* err: what was looked at and what to run */
    for (const char *c = arch; *c; c++)
        if (!(*c == '_' || islower((unsigned char)*c) || isdigit((unsigned char)*c))) {
            ws_error_set(err, "sass", 0, 0, "architecture '%s' is not of the form sm_NN", arch);
            return NULL;
        }
    /* the listing depends on the PTX bytes, both tools (path and version) and the options */
    char hash[33], pv[64], dv[64];
    ws_cache_hash(ptx, strlen(ptx), hash);
    ws_tool_version(WS_TOOL_PTXAS, pv, sizeof pv);
    ws_tool_version(lister, dv, sizeof dv);
    /* One listing per module: every kernel of a file is asked for in turn (check, the catalog),
     * and ptxas compiles each entry on its own, so the module's listing holds each kernel's
     * machine code as -e would make it. A module too large to compile whole for one kernel
     * (generated files of thousands of entries), or one that ptxas refuses whole (an entry
     * another architecture needs), is listed for the entry alone; that listing is looked for
     * before the whole module is tried again, so a refused module costs one failed ptxas once. */
    bool whole = entry && count_entries(ptx) <= WS_SASS_MODULE_MAX_ENTRIES;
    char *wkey = whole ? key_for(ptx, arch, NULL, how, ptxas, pv, disasm, dv, hash, err) : NULL;
    char *ekey = key_for(ptx, arch, entry, how, ptxas, pv, disasm, dv, hash, err);
    char *got = NULL;
    if ((whole && !wkey) || !ekey) goto done;
    if ((got = listing_kept(wkey, how)) || (got = listing_kept(ekey, how))) goto done;
    if (wkey) {
        ws_error refused;
        if ((got = list_now(ptx, arch, NULL, how, ptxas, disasm, wkey, &refused))) goto done;
    }
    got = list_now(ptx, arch, entry, how, ptxas, disasm, ekey, err);
done:
    free(wkey);
    free(ekey);
    return got;
}
