/* exec_call.c - calls as the PTX ABI makes them: the caller stores the arguments
 * in .param variables, `call` binds them to the callee's parameters, the callee
 * runs in a frame of its own (value file, per-lane parameter space, a local frame
 * above the caller's on each lane's stack, SIMT paths above the caller's), and
 * `ret` hands the return value back. Indirect calls go through function
 * addresses, a group of lanes per target; recursion is bounded by
 * SIM_MAX_CALL_DEPTH. The library functions nvcc calls, vprintf (printf) and
 * __assertfail (assert), are run here.
 * Invariant: while a call runs, the caller's paths sit below w->floor untouched,
 * the top one already at the instruction after the call; a frame pops when its
 * last path does, and only lanes that returned (not exited) get the value. */
#include "interp_priv.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_PRINTF_ARGS 32        /* CUDA: more are ignored, their conversions printed as they stand */
#define MAX_STRING (64u << 10)    /* longest string printf or assert reads from the kernel's memory */

/* --- frames ------------------------------------------------------------------ */

static void mirror(sim_warp *w)
{
    sim_frame *f = &w->frames[w->depth];
    w->prog = f->prog;
    w->file = f->file;
    w->floor = f->floor;
    w->exit_node = f->prog->n;
}

void sim_frames_reset(sim_ctx *c, sim_warp *w)
{
    (void)c;
    w->depth = 0;
    w->site_pc = 0;
    mirror(w);
}

void sim_frames_free(sim_warp *w)
{
    for (int i = 0; i < w->cap_frames; i++) {
        free(w->frames[i].file);
        free(w->frames[i].pbuf);
    }
    free(w->frames);
    w->frames = NULL;
    w->file = NULL;
}

/* Each lane's stack holds at least need bytes (moving the lanes' bytes when it grows). */
static int grow_stack(sim_ctx *c, sim_warp *w, const sim_insn *site, uint64_t need)
{
    if (need <= w->local_stride) return 0;
    if (need > SIM_MAX_STACK_BYTES)
        return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "the call needs %" PRIu64 " bytes of local memory per thread, more than "
                         "the simulator's stack of %u bytes (recursion that does not end?)", need, SIM_MAX_STACK_BYTES);
    uint64_t stride = w->local_stride ? w->local_stride : 256;
    while (stride < need) stride *= 2;
    if (stride > SIM_MAX_STACK_BYTES) stride = SIM_MAX_STACK_BYTES;
    uint8_t *n = calloc(32, stride);
    if (!n) return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "out of memory for a %" PRIu64 "-byte stack per lane", stride);
    for (int l = 0; l < 32 && w->local; l++) memcpy(n + (uint64_t)l * stride, w->local + (uint64_t)l * w->local_stride, w->local_stride);
    free(w->local);
    w->local = n;
    w->local_stride = stride;
    return 0;
}

/* Lane l's bytes of parameter symbol s in frame f (its parameters, or a call argument it declared). */
static uint8_t *param_of(sim_ctx *c, const sim_warp *w, const sim_frame *f, int l, const ptx_symbol *s)
{
    return sim_param_ptr(c, w, f, l, s->offset, s->size);
}

/* A frame for callee, run by the lanes g of the call site: arguments bound, paths above the caller's. */
static int push_frame(sim_ctx *c, sim_warp *w, const sim_insn *site, int callee, uint32_t g)
{
    const sim_program *P = sim_decode_function(c, callee);
    const ptx_insn *pi = site->pi;
    const ptx_function *caller = w->prog->fn;
    if (!P) return -1;
    const ptx_function *fn = P->fn;
    if (pi->ncall_args != fn->nparams)
        return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "the call passes %d argument%s to %.200s, which takes %d", pi->ncall_args,
                         pi->ncall_args == 1 ? "" : "s", fn->name, fn->nparams);
    if (w->depth + 1 >= SIM_MAX_CALL_DEPTH)
        return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "calls nested %d deep, the simulator's limit (recursion that does not end?)",
                         SIM_MAX_CALL_DEPTH);
    if (w->depth + 2 > w->cap_frames) {
        int nc = w->cap_frames * 2;
        sim_frame *nf = realloc(w->frames, (size_t)nc * sizeof *nf);
        if (!nf) return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "out of memory for call frames");
        memset(nf + w->cap_frames, 0, (size_t)(nc - w->cap_frames) * sizeof *nf);
        w->frames = nf;
        w->cap_frames = nc;
    }
    sim_frame *cur = &w->frames[w->depth], *f = &w->frames[w->depth + 1];
    /* value file: registers zeroed, the special registers it reads, its immediates */
    uint64_t grow = (f->file_cap < P->file_words ? (uint64_t)P->file_words * 8 : 0) +
                    (f->pcap < 32 * ((fn->arg_base + fn->arg_bytes + 7) / 8 * 8) ? 32 * (fn->arg_base + fn->arg_bytes + 8) : 0);
    uint64_t limit = c->cfg->max_host_bytes ? c->cfg->max_host_bytes : (8ull << 30);
    if (c->frame_bytes + grow > limit)
        return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "call frames need more than the simulator's limit of %" PRIu64 " bytes of host "
                         "memory (recursion that does not end?)", limit);
    c->frame_bytes += grow;
    if (f->file_cap < P->file_words) {
        free(f->file);
        f->file = aligned_alloc(64, ((size_t)P->file_words * 8 + 63) / 64 * 64);
        f->file_cap = f->file ? P->file_words : 0;
        f->imms_of = NULL;
        if (!f->file) return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "out of memory for a call frame");
    }
    memset(f->file, 0, (size_t)P->imm_off * 8);
    if (f->imms_of != P) {
        for (int k = 0; k < P->nimm; k++)
            for (int l = 0; l < 32; l++) f->file[P->imm_off + (uint32_t)k * 32 + (uint32_t)l] = P->imm[k];
        f->imms_of = P;
    }
    sim_sreg_fill(c, w, P, f->file, SIM_SREG_ALL);
    /* parameter space: the arguments, then room for the calls it makes */
    uint64_t stride = (fn->arg_base + fn->arg_bytes + 7) / 8 * 8;
    if (stride > UINT32_MAX) return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "parameters of %.200s too large", fn->name);
    if (f->pcap < 32 * stride) {
        free(f->pbuf);
        f->pbuf = malloc(32 * stride);
        f->pcap = f->pbuf ? 32 * stride : 0;
        if (!f->pbuf) return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "out of memory for a call frame");
    }
    if (stride) memset(f->pbuf, 0, 32 * stride);
    f->pstride = (uint32_t)stride;
    f->pbase = 0;
    for (int i = 0; i < fn->nparams; i++) {
        const ptx_symbol *src = &caller->syms[caller->call_args[pi->call_arg0 + i]];
        const ptx_symbol *dst = &fn->syms[fn->param_syms[i]];
        uint64_t n = src->size < dst->size ? src->size : dst->size;
        for (uint32_t mm = g; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint8_t *s = param_of(c, w, cur, l, src), *d = f->pbuf + (uint64_t)l * stride + dst->offset;
            if (!s) return sim_fault(c, w, site, l, WS_FAULT_KERNEL, "argument %d ('%.100s') lies outside the parameter space", i + 1,
                                     src->name);
            memcpy(d, s, n);
        }
    }
    /* local frame above the caller's */
    f->local_base = (cur->local_top + 15) / 16 * 16;
    f->local_top = f->local_base + fn->local_bytes;
    if (grow_stack(c, w, site, f->local_top)) return -1;
    if (fn->local_bytes)
        for (int l = 0; l < 32; l++) memset(w->local + (uint64_t)l * w->local_stride + f->local_base, 0, fn->local_bytes);
    /* paths: one entry holding the lanes that call, room for its branches */
    int need = w->sp + 2 * P->n + 10;
    if (need > w->cap) {
        sim_simt_entry *ns = realloc(w->stack, (size_t)need * sizeof *ns);
        if (!ns) return sim_fault(c, w, site, -1, WS_FAULT_KERNEL, "out of memory for the SIMT stack");
        w->stack = ns;
        w->cap = need;
    }
    f->floor = w->sp;
    w->stack[w->sp++] = (sim_simt_entry){0, -1, g};
    f->prog = P;
    f->site = site;
    f->mask = g;
    if (w->depth == 0) w->site_pc = (uint32_t)(site - c->prog.insns);
    w->depth++;
    mirror(w);
    return 0;
}

/* The running frame is done: the lanes that returned get the return value. */
static void pop_frame(sim_ctx *c, sim_warp *w)
{
    sim_frame *f = &w->frames[w->depth], *caller = &w->frames[w->depth - 1];
    const ptx_insn *pi = f->site->pi;
    const ptx_function *fn = f->prog->fn;
    uint32_t back = f->mask & w->live;
    if (pi->opnd[0].kind == PTX_OPND_SYM && fn->retval_sym >= 0) {
        const ptx_symbol *dst = &caller->prog->fn->syms[pi->opnd[0].sym], *src = &fn->syms[fn->retval_sym];
        uint64_t n = src->size < dst->size ? src->size : dst->size;
        for (uint32_t mm = back; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint8_t *d = param_of(c, w, caller, l, dst);
            if (d) memcpy(d, f->pbuf + (uint64_t)l * f->pstride + src->offset, n);
        }
    }
    w->depth--;
    mirror(w);
}

bool sim_frames_settle(sim_ctx *c, sim_warp *w)
{
    for (;;) {
        if (sim_simt_settle(w, w->prog)) return true;
        if (w->depth == 0) return false;
        pop_frame(c, w);
    }
}

/* --- printf and assert ------------------------------------------------------- */

/* The NUL-terminated string at generic address a, as lane l reads it (the caller
 * frees it); NULL when it is not readable or longer than MAX_STRING, with *rc -1
 * (a fault) or 0 (a memory error counted as a warning). */
static char *read_string(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, uint64_t a, const char *what, int *rc)
{
    size_t cap = 64, n = 0;
    char *s = malloc(cap);
    *rc = -1;
    if (!s) { sim_fault(c, w, in, l, WS_FAULT_KERNEL, "out of memory reading %s", what); return NULL; }
    for (;;) {
        const uint8_t *p = sim_generic_ptr(c, w, l, a + n, 1);
        if (!p) {
            free(s);
            /* a string that starts in a buffer and finds no NUL before its end names the buffer */
            for (int i = 0; i < c->nregions; i++) {
                const sim_region *r = &c->region[i];
                if (a >= r->base && a < r->base + r->size) {
                    *rc = sim_mem_fault(c, w, in, l, WS_MEMERR_GLOBAL, "global load of 1 bytes at 0x%" PRIx64 " while reading %s: the "
                                        "string starts at byte %" PRIu64 " of buffer '%s' and runs past the end of it "
                                        "(%" PRIu64 " bytes) with no NUL", a + n, what, a - r->base, r->name, r->size);
                    return NULL;
                }
            }
            *rc = sim_mem_fault(c, w, in, l, WS_MEMERR_GLOBAL, "global load of 1 bytes at 0x%" PRIx64 " while reading %s, which is "
                                "not in any buffer or memory window", a + n, what);
            return NULL;
        }
        if (n + 1 >= cap) {
            char *ns = cap >= MAX_STRING ? NULL : realloc(s, cap * 2);
            if (!ns) {
                free(s);
                sim_fault(c, w, in, l, WS_FAULT_KERNEL, "%s at 0x%" PRIx64 " is not terminated within %u bytes", what, a, MAX_STRING);
                return NULL;
            }
            s = ns;
            cap *= 2;
        }
        s[n++] = (char)*p;
        if (!*p) { *rc = 0; return s; }
    }
}

/* Reads the next argument of size bytes (aligned to its size, as nvcc packs them)
 * from the argument buffer at generic address args; 0 and a fault when unreadable. */
static int next_arg(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, uint64_t args, uint64_t *off, unsigned size,
                    uint64_t *v)
{
    *off = (*off + size - 1) / size * size;
    const uint8_t *p = sim_generic_ptr(c, w, l, args + *off, size);
    if (!p)
        return sim_mem_fault(c, w, in, l, WS_MEMERR_GLOBAL, "printf's argument at 0x%" PRIx64 " (%u bytes) is not in the kernel's "
                             "memory", args + *off, size) ? -1 : 1;
    *v = 0;
    memcpy(v, p, size);
    *off += size;
    return 0;
}

/* fmt formatted as the host's C library formats a GPU printf record: each conversion
 * %[flags][width][.precision][size]type reads its argument at its own alignment
 * (ints and chars 4 bytes, l/ll/z/j/t integers, pointers, strings and every float 8);
 * '*' reads an int. Returns the arguments read, or -1 after a fault. */
/* Writes n bytes of printf output while the launch's output fits the FIFO; once a write does
 * not fit, it and everything after it are counted, not printed. */
static void put(sim_ctx *c, FILE *out, const char *text, size_t n)
{
    if (c->res->printf_dropped || c->res->printf_bytes + n > WS_PRINTF_FIFO_BYTES) {   /* full stays full */
        c->res->printf_dropped += n;
        return;
    }
    c->res->printf_bytes += n;
    if (out) fwrite(text, 1, n, out);
}

/* snprintf of one conversion into a bounded buffer, then put(); the field's width and
 * precision were checked to fit the FIFO, so the buffer stays below it. */
#define EMIT_BOUNDED(...)                                                                              \
    do {                                                                                               \
        char small[256];                                                                               \
        int n_ = snprintf(small, sizeof small, __VA_ARGS__);                                           \
        if (n_ < 0) break;                                                                             \
        if ((size_t)n_ < sizeof small) { put(c, out, small, (size_t)n_); break; }                      \
        char *big = malloc((size_t)n_ + 1);                                                            \
        if (!big) { c->res->printf_dropped += (size_t)n_; break; }                                     \
        snprintf(big, (size_t)n_ + 1, __VA_ARGS__);                                                    \
        put(c, out, big, (size_t)n_);                                                                  \
        free(big);                                                                                     \
    } while (0)

static int format(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, const char *fmt, uint64_t args, FILE *out)
{
    uint64_t off = 0;
    int nargs = 0;
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            size_t run = strcspn(p, "%");
            put(c, out, p, run);
            p += run;
            continue;
        }
        if (p[1] == '%') { put(c, out, "%", 1); p += 2; continue; }
        const char *start = p++;
        char spec[64];
        size_t k = 0;
        spec[k++] = '%';
        int star[2], nstar = 0;
        uint64_t field = 0;                      /* the largest width or precision: a field wider than
                                                    the FIFO can never be printed (%999999999d) */
        while (*p && strchr("#0- +'", *p)) { if (k < 40) spec[k++] = *p; p++; }
        for (int part = 0; part < 2; part++) {  /* width, then precision */
            if (part == 1) {
                if (*p != '.') break;
                if (k < 40) spec[k++] = *p;
                p++;
            }
            if (*p == '*') {
                uint64_t v = 0;
                int r = nargs < MAX_PRINTF_ARGS ? next_arg(c, w, in, l, args, &off, 4, &v) : 1;
                if (r < 0) return -1;
                nargs += r == 0;
                star[nstar++] = (int)(uint32_t)v;
                uint64_t mag = (int)(uint32_t)v < 0 ? -(int64_t)(int)(uint32_t)v : (int64_t)(int)(uint32_t)v;
                if (mag > field) field = mag;
                if (k < 40) spec[k++] = '*';
                p++;
            } else {
                uint64_t num = 0;
                while (*p >= '0' && *p <= '9') {
                    if (num <= INT32_MAX) num = num * 10 + (uint64_t)(*p - '0');   /* C widths are ints */
                    if (k < 40) spec[k++] = *p;
                    p++;
                }
                if (num > field) field = num;
            }
        }
        char size[3] = "";
        int ns = 0;
        while (*p && strchr("hlLzjt", *p) && ns < 2) size[ns++] = *p++;
        size[ns] = 0;
        char type = *p ? *p++ : 0;
        if (!type || !strchr("cdiouxXpeEfFgGaAs", type) || nargs >= MAX_PRINTF_ARGS) {
            /* not a conversion CUDA's printf knows, or past its 32 arguments: printed as written */
            put(c, out, start, (size_t)(p - start));
            continue;
        }
        bool is_float = strchr("eEfFgGaA", type) != NULL, wide = size[0] && size[0] != 'h';
        unsigned bytes = is_float || type == 's' || type == 'p' || wide ? 8 : 4;
        uint64_t v = 0;
        int r = next_arg(c, w, in, l, args, &off, bytes, &v);
        if (r < 0) return -1;
        if (r > 0) continue;                     /* warning already counted: nothing to print */
        nargs++;
        /* the spec as the host library reads it (floats are doubles; %Ld is %lld), and a value of its C type */
        bool sized = !is_float && type != 's' && type != 'c' && type != 'p';   /* %ls would be a wide string */
        const char *host_size = !sized ? "" : !strcmp(size, "L") ? "ll" : size;
        for (int i = 0; host_size[i]; i++) spec[k++] = host_size[i];
        spec[k++] = type;
        spec[k] = 0;
        if (field >= WS_PRINTF_FIFO_BYTES) {     /* it alone would fill the FIFO: dropped, not formatted */
            c->res->printf_dropped += field;
            continue;
        }
        int a0 = nstar > 0 ? star[0] : 0, a1 = nstar > 1 ? star[1] : 0;
#define EMIT(val) do { if (nstar == 2) EMIT_BOUNDED(spec, a0, a1, val); else if (nstar == 1) EMIT_BOUNDED(spec, a0, val); \
                       else EMIT_BOUNDED(spec, val); } while (0)
        if (is_float) {
            double d;
            memcpy(&d, &v, 8);
            EMIT(d);
        } else if (type == 's') {
            if (!v) { EMIT("(null)"); continue; }
            int src;
            char *str = read_string(c, w, in, l, v, "a printf %s argument", &src);
            if (!str) { if (src) return -1; continue; }
            EMIT(str);
            free(str);
        } else if (type == 'p') {
            EMIT((void *)(uintptr_t)v);
        } else if (!strcmp(host_size, "l")) {
            EMIT((long)v);
        } else if (!strcmp(host_size, "ll")) {
            EMIT((long long)v);
        } else if (host_size[0] == 'j') {
            EMIT((intmax_t)v);
        } else if (host_size[0] == 'z') {
            EMIT((size_t)v);
        } else if (host_size[0] == 't') {
            EMIT((ptrdiff_t)v);
        } else {
            EMIT((int)(uint32_t)v);
        }
#undef EMIT
    }
    return nargs;
#undef EMIT_BOUNDED
}

/* vprintf(format, args) for each lane of m, in lane order; the return value is the
 * number of arguments read (-1 for a NULL format), as CUDA's printf returns. */
static int run_vprintf(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    const ptx_function *fn = w->prog->fn;
    sim_frame *f = &w->frames[w->depth];
    if (pi->ncall_args != 2) return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "vprintf takes 2 arguments, the call passes %d", pi->ncall_args);
    const ptx_symbol *sf = &fn->syms[fn->call_args[pi->call_arg0]], *sa = &fn->syms[fn->call_args[pi->call_arg0 + 1]];
    const ptx_symbol *sr = pi->opnd[0].kind == PTX_OPND_SYM ? &fn->syms[pi->opnd[0].sym] : NULL;
    FILE *out = c->cfg->printf_out;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t fa = 0, aa = 0;
        const uint8_t *p = param_of(c, w, f, l, sf), *q = param_of(c, w, f, l, sa);
        if (!p || !q) return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "vprintf's arguments lie outside the parameter space");
        memcpy(&fa, p, sf->size < 8 ? sf->size : 8);
        memcpy(&aa, q, sa->size < 8 ? sa->size : 8);
        int32_t rv = -1;
        if (fa) {
            int src;
            char *fmt = read_string(c, w, in, l, fa, "the printf format", &src);
            if (!fmt) { if (src) return -1; continue; }
            int n = format(c, w, in, l, fmt, aa, out);
            free(fmt);
            if (n < 0) return -1;
            rv = n;
        }
        c->res->printf_calls++;
        uint8_t *r = sr ? param_of(c, w, f, l, sr) : NULL;
        if (r) memcpy(r, &rv, sr->size < 4 ? sr->size : 4);
    }
    if (out) fflush(out);
    return 0;
}

/* __assertfail(message, file, line, function, charSize): each lane of m prints the
 * GPU's line, and the kernel stops (a device-side assert). */
static int run_assertfail(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    const ptx_function *fn = w->prog->fn;
    sim_frame *f = &w->frames[w->depth];
    if (pi->ncall_args < 4)
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "__assertfail takes 5 arguments, the call passes %d", pi->ncall_args);
    char first[WS_MSG_MAX] = "";
    int first_lane = __builtin_ctz(m);
    FILE *out = c->cfg->printf_out;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t v[4] = {0, 0, 0, 0};
        for (int i = 0; i < 4; i++) {
            const ptx_symbol *s = &fn->syms[fn->call_args[pi->call_arg0 + i]];
            const uint8_t *p = param_of(c, w, f, l, s);
            if (!p) return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "__assertfail's arguments lie outside the parameter space");
            memcpy(&v[i], p, s->size < 8 ? s->size : 8);
        }
        int src;
        char *msg = v[0] ? read_string(c, w, in, l, v[0], "the assertion's text", &src) : NULL;
        char *file = v[1] ? read_string(c, w, in, l, v[1], "the assertion's file name", &src) : NULL;
        char *func = v[3] ? read_string(c, w, in, l, v[3], "the assertion's function name", &src) : NULL;
        uint64_t t = (uint64_t)w->index * 32 + (uint64_t)l, bx = c->L->block[0], by = c->L->block[1];
        char line[WS_MSG_MAX + 256];
        snprintf(line, sizeof line, "%s:%u: %s%sblock: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                 file ? file : "", (unsigned)(uint32_t)v[2], func && func[0] ? func : "", func && func[0] ? ": " : "",
                 c->block[0], c->block[1], c->block[2], (unsigned)(t % bx), (unsigned)((t / bx) % by),
                 (unsigned)(t / (bx * by)), msg ? msg : "");
        free(msg);
        free(file);
        free(func);
        if (out) fprintf(out, "%s\n", line);
        if (l == first_lane) snprintf(first, sizeof first, "%.*s", (int)sizeof first - 1, line);
    }
    if (out) fflush(out);
    return sim_fault(c, w, in, first_lane, WS_FAULT_KERNEL, "device-side assert failed: %s", first);
}

/* --- the call ---------------------------------------------------------------- */

int sim_exec_call(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    int callee = in->target;
    if (pi->opnd[1].kind == PTX_OPND_REG) {
        /* indirect: the lanes calling the lowest lane's target go now, the rest call
         * again (a path at this call) once they return */
        const uint64_t *fp = w->file + in->src[1];
        int l0 = __builtin_ctz(m);
        uint64_t a = fp[l0], idx = (a - SIM_WIN_FUNC) / SIM_FUNC_STRIDE;
        if (a < SIM_WIN_FUNC || (a - SIM_WIN_FUNC) % SIM_FUNC_STRIDE || idx >= (uint64_t)c->mod->nfuncs)
            return sim_fault(c, w, in, l0, WS_FAULT_KERNEL, "indirect call to 0x%" PRIx64 ", which is not the address of a function "
                             "of this module", a);
        uint32_t g = 0;
        SIM_LANES(m, if (fp[l] == a) g |= 1u << l);
        if (g != m) {
            if (w->sp + 1 > w->cap) {
                sim_simt_entry *ns = realloc(w->stack, (size_t)(w->cap + 8) * sizeof *ns);
                if (!ns) return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "out of memory for the SIMT stack");
                w->stack = ns;
                w->cap += 8;
            }
            int pc = (int)(in - w->prog->insns);
            w->stack[w->sp++] = (sim_simt_entry){pc, pc + 1, m & ~g};
        }
        m = g;
        callee = (int)idx;
    }
    switch (callee) {
    case PTX_CALLEE_VPRINTF: return run_vprintf(c, w, in, m);
    case PTX_CALLEE_ASSERTFAIL: return run_assertfail(c, w, in, m);
    default:
        if (callee < 0 || callee >= c->mod->nfuncs)
            return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "call to a function this module does not define");
        if (c->mod->funcs[callee].refusal) {
            char why[WS_MSG_MAX + 64];
            ws_error_format(c->mod->funcs[callee].refusal, why, sizeof why);
            return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "call to %.100s, which cannot be simulated: %s", c->mod->funcs[callee].name, why);
        }
        return push_frame(c, w, in, callee, m);
    }
}
