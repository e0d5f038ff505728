/* decode.c - turns a resolved ptx_function into the interpreter's program:
 * every operand becomes an offset into a warp's value file, immediates and
 * symbol addresses become broadcast constants, branches get their
 * reconvergence points. Done once per launch for the kernel and every function
 * it reaches through calls, so the hot loop never decodes.
 * Invariant: every sim_insn.src[] offset is valid for any operand index < PTX_MAX_OPND
 * (absent operands point at scratch), so executors may read them blindly. */
#include "interp_priv.h"

#include <stdlib.h>

/* The opcode's class from its row in ptx_ops.h, refined where the modifiers or the
 * operands decide. */
static sim_cls classify(const ptx_insn *in)
{
    sim_cls cls = (sim_cls)ptx_op_info(in->op)->cls;
    switch (cls) {
    case SIM_CLS_BRA:
        return in->nopnd > 0 && in->opnd[0].kind == PTX_OPND_LABEL ? SIM_CLS_BRA : SIM_CLS_UNSUPPORTED;
    case SIM_CLS_BAR:
        if (in->flags & PTX_F_WARP) return SIM_CLS_WARP;  /* bar.warp.sync: its member mask (exec_warp.c) */
        if (in->op == PTX_BARRIER_CLUSTER) return SIM_CLS_BAR; /* exec_cluster.c */
        if (in->flags & PTX_F_CLUSTER) return SIM_CLS_UNSUPPORTED; /* thread block clusters are not simulated */
        return SIM_CLS_BAR;                               /* .sync .arrive .red: exec_barrier.c */
    default:
        return cls;
    }
}

/* Type an immediate in operand i is read as (float literals are converted to it). */
static ptx_type imm_type(const ptx_insn *in, int i)
{
    int t2 = ptx_op_info(in->op)->t2;
    return t2 > 0 && i >= t2 ? in->type2 : in->type;
}

static uint64_t imm_value(const ptx_insn *in, int i, const ptx_operand *o)
{
    uint64_t v = (uint64_t)o->imm;
    if (!o->is_float) return v;
    ptx_type t = imm_type(in, i);
    if (o->is_double && t == PTX_T_F32) return sim_f32b((float)sim_f64(v));
    if (!o->is_double && t == PTX_T_F64) return sim_f64b((double)sim_f32(v));
    if (t == PTX_T_F16 || t == PTX_T_BF16) {
        double x = o->is_double ? sim_f64(v) : sim_f32(v);
        return t == PTX_T_F16 ? sim_f2h(x, PTX_RND_RN) : sim_f2bf(x, PTX_RND_RN);
    }
    return v;
}

static uint64_t sym_address(const sim_ctx *c, const ptx_symbol *s)
{
    if (s->space == PTX_SPACE_GLOBAL) return c->region[c->nregions - 1].base + s->offset;
    return s->offset;                            /* offset in its own space */
}

static int add_imm(sim_program *p, int *cap, uint64_t v)
{
    for (int k = 0; k < p->nimm; k++)
        if (p->imm[k] == v) return k;
    if (p->nimm == *cap) {
        int nc = *cap ? *cap * 2 : 64;
        uint64_t *n = realloc(p->imm, (size_t)nc * sizeof *n);
        if (!n) return -1;
        p->imm = n;
        *cap = nc;
    }
    p->imm[p->nimm] = v;
    return p->nimm++;
}

/* Special registers fn reads get consecutive slots after its registers. */
static void place_sregs(const ptx_function *fn, sim_program *p)
{
    for (int r = 0; r < PTX_SREG_COUNT; r++) p->sreg_slot[r] = -1;
    for (int i = 0; i < fn->ninsns; i++)
        for (int k = 0; k < fn->insns[i].nopnd && k < PTX_MAX_OPND; k++) {
            const ptx_operand *o = &fn->insns[i].opnd[k];
            if (o->kind != PTX_OPND_SREG || (unsigned)o->sreg >= PTX_SREG_COUNT || p->sreg_slot[o->sreg] >= 0) continue;
            p->sreg_slot[o->sreg] = (int16_t)p->nsregs;
            p->sregs[p->nsregs++] = (uint8_t)o->sreg;
        }
    p->sreg_off = (uint32_t)fn->nregs * 32;
}

static int decode_fn(sim_ctx *c, const ptx_function *fn, sim_program *p)
{
    int n = fn->ninsns, cap = 0;
    memset(p, 0, sizeof *p);
    p->fn = fn;
    p->n = n;
    place_sregs(fn, p);
    p->scratch_off = p->sreg_off + (uint32_t)p->nsregs * 32;
    p->imm_off = p->scratch_off + 2 * 32;
    p->insns = aligned_alloc(64, (size_t)(n ? n : 1) * sizeof *p->insns);  /* a record per cache-line pair */
    if (p->insns) memset(p->insns, 0, (size_t)(n ? n : 1) * sizeof *p->insns);
    int32_t *ipdom = malloc((size_t)(n ? n : 1) * 2 * sizeof *ipdom), *loop_join = ipdom ? ipdom + n : NULL;
    if (!p->insns || !ipdom || sim_simt_joins(fn, ipdom, loop_join)) {
        free(ipdom);
        ws_error_set(c->err, c->mod->path, 0, 0, "out of memory decoding %s", fn->name);
        return -1;
    }
    /* immediates are collected first as pool indices, turned into offsets below */
    /* per instruction: its operands', then its vector operand's elements' (PTX_MAX_OPND + e) */
    int (*immidx)[PTX_MAX_OPND + 4] = malloc((size_t)(n ? n : 1) * sizeof *immidx);
    if (!immidx) { free(ipdom); return -1; }
    for (int i = 0; i < n; i++) {
        const ptx_insn *pi = &fn->insns[i];
        sim_insn *s = &p->insns[i];
        s->pi = pi;
        s->cls = (uint8_t)classify(pi);
        if (pi->op == PTX_SETMAXNREG && !ws_setmaxnreg_effective(c->fn)) { /* ptxas drops it (C7508) */
            s->cls = SIM_CLS_NOP;
            c->res->nreg.ignored = true;
        }
        s->guard = pi->guard >= 0 ? pi->guard * 32 : -1;
        s->guard_neg = pi->guard_neg;
        s->vec_opnd = -1;
        s->mem_opnd = -1;
        s->mem_base = -1;
        s->mem_base_bits = 64;
        s->more[0] = s->more[1] = (sim_addr){-1, 64, 0};
        s->ipdom = ipdom[i];
        s->loop_join = loop_join[i];
        for (int k = 0; k < PTX_MAX_OPND + 4; k++) immidx[i][k] = -1;
        for (int k = 0; k < PTX_MAX_OPND; k++) s->src[k] = p->scratch_off;
        for (int k = 0; k < 4; k++) s->vec[k] = p->scratch_off;
        for (int k = 0; k < pi->nopnd && k < PTX_MAX_OPND; k++) {
            const ptx_operand *o = &pi->opnd[k];
            switch (o->kind) {
            case PTX_OPND_REG: s->src[k] = (uint32_t)o->reg * 32; break;
            case PTX_OPND_SREG:
                s->src[k] = p->sreg_off + (uint32_t)p->sreg_slot[o->sreg] * 32;
                if (o->sreg == PTX_SREG_CLOCK || o->sreg == PTX_SREG_CLOCK_HI || o->sreg == PTX_SREG_CLOCK64 ||
                    o->sreg == PTX_SREG_GLOBALTIMER || o->sreg == PTX_SREG_GLOBALTIMER_LO ||
                    o->sreg == PTX_SREG_GLOBALTIMER_HI) s->reads_clock = p->reads_clock = true;
                break;
            case PTX_OPND_FUNC:                  /* a function's address: a constant */
                if ((immidx[i][k] = add_imm(p, &cap, SIM_WIN_FUNC + (uint64_t)(o->target < 0 ? 0 : o->target) *
                                                                   SIM_FUNC_STRIDE)) < 0) goto oom;
                break;
            case PTX_OPND_IMM:
                if ((immidx[i][k] = add_imm(p, &cap, imm_value(pi, k, o))) < 0) goto oom;
                break;
            case PTX_OPND_SYM:
                if ((immidx[i][k] = add_imm(p, &cap, sym_address(c, &fn->syms[o->sym]))) < 0) goto oom;
                break;
            case PTX_OPND_MEM:
                if (s->mem_opnd >= 0) {          /* a further address (cp.async's [src], bulk's [mbar]) */
                    if (s->nmore == 2) break;    /* the parser allows no more (ptx_insn_extra_mem) */
                    sim_addr *x = &s->more[s->nmore++];
                    x->disp = (uint64_t)o->imm;
                    if (o->base_kind == PTX_OPND_REG) {
                        int wd = fn->regs[o->reg].width * 8;
                        x->base = o->reg * 32;
                        x->base_bits = wd > 0 && wd < 64 ? wd : 64;
                    } else if (o->base_kind == PTX_OPND_SYM) {
                        x->disp += sym_address(c, &fn->syms[o->sym]);
                    }
                    break;
                }
                s->mem_opnd = k;
                s->mem_disp = (uint64_t)o->imm;
                if (o->base_kind == PTX_OPND_REG) {
                    s->mem_base = o->reg * 32;
                    int wd = fn->regs[o->reg].width * 8;
                    s->mem_base_bits = wd > 0 && wd < 64 ? wd : 64;
                } else if (o->base_kind == PTX_OPND_SYM) {
                    s->mem_disp += sym_address(c, &fn->syms[o->sym]);
                }
                break;
            case PTX_OPND_LABEL: s->target = o->target; break;   /* bra: a pc; call: the callee */
            case PTX_OPND_VEC:
                s->vec_opnd = k;
                s->vec_n = o->vec_n;
                for (int e = 0; e < o->vec_n && e < 4; e++) {
                    s->vec[e] = o->vec[e] >= 0 ? (uint32_t)o->vec[e] * 32 : p->scratch_off;
                    if (o->vec_imm >> e & 1) {   /* an immediate element: a constant like the others */
                        ptx_operand t = {.kind = PTX_OPND_IMM, .imm = o->vimm[e], .is_float = o->vec_fimm >> e & 1,
                                         .is_double = o->vec_dimm >> e & 1};
                        if ((immidx[i][PTX_MAX_OPND + e] = add_imm(p, &cap, imm_value(pi, k, &t))) < 0) goto oom;
                    }
                }
                break;
            default: break;                      /* sink, none: scratch */
            }
        }
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < PTX_MAX_OPND; k++)
            if (immidx[i][k] >= 0) p->insns[i].src[k] = p->imm_off + (uint32_t)immidx[i][k] * 32;
    for (int i = 0; i < n; i++)
        for (int e = 0; e < 4; e++)
            if (immidx[i][PTX_MAX_OPND + e] >= 0)
                p->insns[i].vec[e] = p->imm_off + (uint32_t)immidx[i][PTX_MAX_OPND + e] * 32;
    for (int i = 0; i < n; i++) sim_alu_decode(&p->insns[i]);
    /* where a SIMT entry can end or a loop region open: every reconvergence pc, every loop's join
     * and header, the pc after a call (exec_call.c's waiting entry), the exit; elsewhere the settle
     * after a straight-line instruction has nothing to do (exec_step.c skips it) */
    uint8_t *joins = calloc((size_t)n + 2, 1);
    if (!joins) goto oom;
    for (int i = 0; i < n; i++) {
        if (ipdom[i] >= 0 && ipdom[i] <= n) joins[ipdom[i]] = 1;
        if (loop_join[i] >= 0 && loop_join[i] <= n) joins[loop_join[i]] = 1;
        if (loop_join[i] != SIM_NO_JOIN) joins[i] = 1;
        if (p->insns[i].cls == SIM_CLS_CALL) joins[i + 1] = 1;
    }
    joins[n] = 1;
    for (int i = 0; i < n; i++) p->insns[i].next_plain = !joins[i + 1];
    free(joins);
    p->file_words = p->imm_off + (uint32_t)p->nimm * 32;
    sim_simt_leaves_quietly(fn, p);
    free(immidx);
    free(ipdom);
    return 0;
oom:
    free(immidx);
    free(ipdom);
    ws_error_set(c->err, c->mod->path, 0, 0, "out of memory decoding %s", fn->name);
    return -1;
}

static bool in_file(const sim_program *p, int64_t off)
{
    return off >= 0 && off + 32 <= (int64_t)p->file_words;
}

static bool a_pc(const sim_program *p, int32_t pc)
{
    return pc == SIM_NO_JOIN || (pc >= 0 && pc <= p->n);
}

int sim_program_check(const sim_program *p)
{
    if (p->scratch_off + 64 > p->imm_off || p->imm_off + (uint32_t)p->nimm * 32 != p->file_words) return 1;
    for (int i = 0; i < p->n; i++) {
        const sim_insn *s = &p->insns[i];
        bool ok = s->pi == &p->fn->insns[i] && s->cls <= SIM_CLS_UNSUPPORTED && a_pc(p, s->ipdom) &&
                  a_pc(p, s->loop_join) && (s->guard < 0 || (uint32_t)s->guard + 32 <= p->sreg_off) &&
                  (s->mem_base < 0 || in_file(p, s->mem_base)) && s->nmore >= 0 && s->nmore <= 2;
        for (int k = 0; ok && k < PTX_MAX_OPND; k++) ok = in_file(p, s->src[k]);
        for (int e = 0; ok && e < 4; e++) ok = in_file(p, s->vec[e]);
        for (int j = 0; ok && j < s->nmore; j++) ok = s->more[j].base < 0 || in_file(p, s->more[j].base);
        if (ok && s->cls == SIM_CLS_BRA) ok = s->target >= 0 && s->target <= p->n;
        if (!ok) return 2 + i;
    }
    return 0;
}

sim_program *sim_decode_function(sim_ctx *c, int f)
{
    if (!c->progs || f < 0 || f >= c->mod->nfuncs) {
        ws_error_set(c->err, c->mod->path, 0, 0, "call to function #%d, which is not in the kernel's module", f);
        return NULL;
    }
    if (c->progs[f]) return c->progs[f];
    sim_program *p = calloc(1, sizeof *p);
    if (!p) {
        ws_error_set(c->err, c->mod->path, 0, 0, "out of memory decoding %s", c->mod->funcs[f].name);
        return NULL;
    }
    if (decode_fn(c, &c->mod->funcs[f], p)) { free(p); return NULL; }
    WS_ASSERT(sim_program_check(p) == 0);
    return c->progs[f] = p;
}

int sim_decode(sim_ctx *c)
{
    const ptx_module *m = c->mod;
    if (decode_fn(c, c->fn, &c->prog)) return -1;
    WS_ASSERT(sim_program_check(&c->prog) == 0);
    sim_progress_plan(&c->prog);                 /* the watch's slice: only the kernel's frame is watched */
    int n = m->nfuncs, root = -1;
    for (int i = 0; i < n; i++)
        if (&m->funcs[i] == c->fn) root = i;
    if (root < 0) return 0;         /* a function outside the module (tests): no callees */
    c->progs = calloc((size_t)n, sizeof *c->progs);
    int *queue = malloc((size_t)n * sizeof *queue);
    if (!c->progs || !queue) {
        free(queue);
        ws_error_set(c->err, m->path, 0, 0, "out of memory decoding %s", c->fn->name);
        return -1;
    }
    c->progs[root] = &c->prog;
    int qh = 0, qt = 0;
    queue[qt++] = root;
    while (qh < qt) {                            /* what the kernel calls or takes the address of */
        const ptx_function *f = &m->funcs[queue[qh++]];
        for (int i = 0; i < f->ninsns; i++)
            for (int k = 0; k < f->insns[i].nopnd && k < PTX_MAX_OPND; k++) {
                const ptx_insn *in = &f->insns[i];
                const ptx_operand *o = &in->opnd[k];
                bool names = o->kind == PTX_OPND_FUNC || (in->op == PTX_CALL && k == 1 && o->kind == PTX_OPND_LABEL);
                if (!names || o->target < 0 || o->target >= n || c->progs[o->target]) continue;
                sim_program *p = calloc(1, sizeof *p);
                if (!p || decode_fn(c, &m->funcs[o->target], p)) {
                    free(p);
                    free(queue);
                    if (p) return -1;
                    ws_error_set(c->err, m->path, 0, 0, "out of memory decoding %s", c->fn->name);
                    return -1;
                }
                WS_ASSERT(sim_program_check(p) == 0);
                c->progs[o->target] = p;
                queue[qt++] = o->target;
            }
    }
    free(queue);
    return 0;
}

void sim_program_free(sim_program *p)
{
    free(p->insns);
    free(p->imm);
    free(p->keep);
    memset(p, 0, sizeof *p);
}

void sim_programs_free(sim_ctx *c)
{
    if (c->progs)
        for (int i = 0; i < c->mod->nfuncs; i++)
            if (c->progs[i] && c->progs[i] != &c->prog) {
                sim_program_free(c->progs[i]);
                free(c->progs[i]);
            }
    free(c->progs);
    c->progs = NULL;
    sim_program_free(&c->prog);
}
