/* exec_warp.c - instructions whose lanes see each other: shfl.sync,
 * vote.sync, match.sync, activemask, redux.sync.
 * Invariant: every source lane is read before any destination lane is
 * written (destination and source may be the same register). */
#include "interp_priv.h"

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask (PTX ISA pseudo-code). */
static int shfl(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    uint64_t *F = w->file;
    bool has_p = pi->nopnd == 6 || (!(pi->flags & PTX_F_SYNC) && pi->nopnd == 5);
    int ia = has_p ? 2 : 1;
    const uint64_t *a = F + in->src[ia], *b = F + in->src[ia + 1], *cc = F + in->src[ia + 2];
    uint64_t *d = F + in->src[0], *p = has_p ? F + in->src[1] : NULL;
    uint64_t src[32], outv[32], outp[32];
    for (int l = 0; l < 32; l++) src[l] = a[l];
    SIM_LANES(m, {
        uint32_t bval = (uint32_t)b[l] & 31, cv = (uint32_t)cc[l];
        uint32_t seg = (cv >> 8) & 31, clampv = cv & 31;
        int lane = l;
        int maxl = (lane & (int)seg) | (int)(clampv & ~seg), minl = lane & (int)seg, j;
        bool pv;
        switch (pi->shfl) {
        case PTX_SHFL_UP: j = lane - (int)bval; pv = j >= maxl; break;
        case PTX_SHFL_DOWN: j = lane + (int)bval; pv = j <= maxl; break;
        case PTX_SHFL_BFLY: j = lane ^ (int)bval; pv = j <= maxl; break;
        default: j = minl | (int)(bval & ~seg); pv = j <= maxl; break;
        }
        if (!pv) j = lane;
        outv[l] = src[j & 31];
        outp[l] = pv;
    });
    (void)c;
    SIM_LANES(m, { d[l] = outv[l]; if (p) p[l] = outp[l]; });
    return 0;
}

int sim_exec_warp(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    if (ptx_tc_op(in->pi->op)) return sim_exec_tc_warp(c, w, in, m); /* groups, mbarrier, mma: exec_tc.c */
    const ptx_insn *pi = in->pi;
    uint64_t *F = w->file;
    uint64_t *d = F + in->src[0];
    bool sync = pi->flags & PTX_F_SYNC;

    switch (pi->op) {
    case PTX_SHFL:
        return shfl(c, w, in, m);
    case PTX_VOTE: {
        const uint64_t *a = F + in->src[1];
        uint32_t member = m;
        if (sync && pi->nopnd >= 3) member &= (uint32_t)F[in->src[2] + __builtin_ctz(m)];
        uint32_t t = sim_pred_mask(F, in->src[1], pi->opnd[1].neg) & member;
        (void)a;
        uint64_t r;
        switch (pi->vote) {
        case PTX_VOTE_ALL: r = t == member; break;
        case PTX_VOTE_ANY: r = t != 0; break;
        case PTX_VOTE_UNI: r = t == 0 || t == member; break;
        default: r = t; break;                   /* ballot */
        }
        SIM_LANES(m, d[l] = r);
        return 0;
    }
    case PTX_ACTIVEMASK:
        SIM_LANES(m, d[l] = m);
        return 0;
    case PTX_MATCH: {
        /* match.any: lanes holding the same value; match.all: all or nothing */
        bool all = pi->vote == PTX_VOTE_ALL;
        bool has_p = all && pi->nopnd == 4;
        int ia = has_p ? 2 : 1;
        const uint64_t *a = F + in->src[ia];
        uint32_t member = m & (uint32_t)F[in->src[ia + 1] + __builtin_ctz(m)];
        int bits = sim_bits(pi->type);
        uint64_t res[32], pr[32];
        SIM_LANES(m, {
            uint32_t same = 0;
            for (uint32_t mm = member; mm; mm &= mm - 1) {
                int k = __builtin_ctz(mm);
                if (sim_zext(a[k], bits) == sim_zext(a[l], bits)) same |= 1u << k;
            }
            if (all) { res[l] = same == member ? member : 0; pr[l] = same == member; }
            else res[l] = same;
        });
        SIM_LANES(m, { d[l] = res[l]; if (has_p) F[in->src[1] + l] = pr[l]; });
        return 0;
    }
    case PTX_REDUX: {
        const uint64_t *a = F + in->src[1];
        uint32_t member = m & (uint32_t)F[in->src[2] + __builtin_ctz(m)];
        bool sgn = ptx_type_is_signed(pi->type);
        uint64_t acc = 0;
        bool first = true;
        for (uint32_t mm = member; mm; mm &= mm - 1) {
            int k = __builtin_ctz(mm);
            uint64_t v = sgn ? (uint64_t)sim_sext(a[k], 32) : sim_zext(a[k], 32);
            if (first) { acc = v; first = false; continue; }
            switch (pi->atomop) {
            case PTX_ATOM_ADD: acc += v; break;
            case PTX_ATOM_AND: acc &= v; break;
            case PTX_ATOM_OR: acc |= v; break;
            case PTX_ATOM_XOR: acc ^= v; break;
            case PTX_ATOM_MIN: acc = sgn ? ((int64_t)v < (int64_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case PTX_ATOM_MAX: acc = sgn ? ((int64_t)v > (int64_t)acc ? v : acc) : (v > acc ? v : acc); break;
            default: break;
            }
        }
        SIM_LANES(m, d[l] = acc);
        return 0;
    }
    default: {
        char txt[160];
        ptx_format_insn(c->fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, "unsupported instruction '%s'", txt);
    }
    }
}
