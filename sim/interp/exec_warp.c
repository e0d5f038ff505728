/* exec_warp.c - instructions whose lanes see each other: shfl.sync,
 * vote.sync, match.sync, activemask, redux.sync, bar.warp.sync (__syncwarp).
 * The .sync forms take a member mask per lane: lanes whose masks name each other
 * form one collective (a tiled_partition<4> passes 0xf << its tile's first lane).
 * Invariant: every source lane is read before any destination lane is
 * written (destination and source may be the same register), and a .sync
 * collective runs only when its member masks are what the PTX ISA requires. */
#include "interp_priv.h"

/* What the PTX ISA requires of .sync member masks on sm_70 and newer, lane l of the
 * executing lanes m passing M[l]: l is in M[l]; the lanes M[l] names that have not
 * exited execute it with it (they do: a warp runs here in lockstep, so one that is on
 * another path of the diverged warp never meets this one, and on the GPU the executing
 * lanes would wait for it); and lanes that name each other pass the same mask. Anything
 * else is undefined behaviour on the GPU, reported with compute-sanitizer synccheck's
 * name for it. Fills M; 0, or -1 with the error. */
static int member_masks(sim_ctx *c, sim_warp *w, const sim_insn *in, int opnd, uint32_t m, uint32_t M[32])
{
    const uint64_t *v = w->file + in->src[opnd];
    SIM_LANES(m, M[l] = (uint32_t)v[l]);
    if (m == w->live && !(w->live & ~M[__builtin_ctz(m)])) {  /* the common case: one mask naming every lane */
        uint32_t m0 = M[__builtin_ctz(m)];
        bool same = true;
        SIM_LANES(m, same &= M[l] == m0);
        if (same) return 0;
    }
    char what[64];                               /* the opcode with its modifiers, for the messages */
    ptx_format_insn(w->prog->fn, in->pi, what, sizeof what);
    char *sp = strchr(what, ' ');
    if (sp) *sp = 0;
    SIM_LANES(m, {
        if (!(M[l] >> l & 1))
            return sim_fault(c, w, in, l, WS_FAULT_SYNC, "%s with member mask 0x%08x, which does not name this lane: every lane "
                             "executing it must be in its mask (PTX ISA: behaviour undefined; compute-sanitizer "
                             "synccheck: 'Invalid arguments')", what, M[l]);
        uint32_t absent = M[l] & w->live & ~m;
        if (absent)
            return sim_fault(c, w, in, l, WS_FAULT_SYNC, "%s with member mask 0x%08x names lanes 0x%08x, which have not exited but "
                             "do not execute it with this lane (they are on another path of the diverged warp): on "
                             "sm_70 and newer the lanes of the mask wait for each other, so the warp hangs or the "
                             "result is undefined (PTX ISA; compute-sanitizer synccheck reports it)",
                             what, M[l], absent);
        uint32_t peers = M[l] & m;
        while (peers) {
            int k = __builtin_ctz(peers);
            peers &= peers - 1;
            if ((uint32_t)v[k] != M[l])
                return sim_fault(c, w, in, l, WS_FAULT_SYNC, "%s: lanes %d and %d name each other but pass different member masks "
                                 "(0x%08x and 0x%08x): the lanes of one collective must pass the same mask (PTX ISA: "
                                 "behaviour undefined; compute-sanitizer synccheck: 'Invalid arguments')",
                                 what, l, k, M[l], (uint32_t)v[k]);
        }
    });
    return 0;
}

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
    uint32_t M[32];
    if ((pi->flags & PTX_F_SYNC) && member_masks(c, w, in, pi->nopnd - 1, m, M)) return -1;
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
        uint32_t M[32];
        if (sync && member_masks(c, w, in, 2, m, M)) return -1;
        if (!sync) SIM_LANES(m, M[l] = m);
        uint32_t t = sim_pred_mask(F, in->src[1], pi->opnd[1].neg);
        uint64_t r[32];
        SIM_LANES(m, {
            uint32_t member = M[l] & m, tl = t & member;
            switch (pi->vote) {
            case PTX_VOTE_ALL: r[l] = tl == member; break;
            case PTX_VOTE_ANY: r[l] = tl != 0; break;
            case PTX_VOTE_UNI: r[l] = tl == 0 || tl == member; break;
            default: r[l] = tl; break;           /* ballot */
            }
        });
        SIM_LANES(m, d[l] = r[l]);
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
        uint32_t M[32];
        if (member_masks(c, w, in, ia + 1, m, M)) return -1;
        int bits = sim_bits(pi->type);
        uint64_t res[32], pr[32];
        SIM_LANES(m, {
            uint32_t same = 0, member = M[l] & m;
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
        uint32_t M[32];
        if (member_masks(c, w, in, 2, m, M)) return -1;
        bool sgn = ptx_type_is_signed(pi->type);
        uint64_t res[32];
        uint32_t done = 0;
        SIM_LANES(m, {
            if (done >> l & 1) continue;
            uint32_t member = M[l] & m;          /* one collective: its lanes share the result */
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
            for (uint32_t mm = member; mm; mm &= mm - 1) res[__builtin_ctz(mm)] = acc;
            done |= member;
        });
        SIM_LANES(m, d[l] = res[l]);
        return 0;
    }
    case PTX_BAR: {                              /* bar.warp.sync: lanes run in lockstep; the mask is checked */
        uint32_t M[32];
        if (member_masks(c, w, in, 0, m, M)) return -1;
        /* the executing lanes are the mask's live lanes (member_masks refused any other):
           racecheck orders their shared accesses across it */
        if (c->cfg->on_warp_sync) c->cfg->on_warp_sync(c->cfg->warp_sync_ctx, c->block_linear, w->index, m, pi->src_line);
        return 0;
    }
    default: {
        char txt[160];
        ptx_format_insn(w->prog->fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, WS_FAULT_UNSUPPORTED, "unsupported instruction '%s'", txt);
    }
    }
}
