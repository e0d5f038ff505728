/* fragments.c - the fragment layouts of fragments.h, from the PTX ISA's formulas.
 * Invariant: ws_frag_where is a bijection from (lane, element) to the matrix's cells. */
#include "fragments.h"

void ws_frag_dims(const ws_frag_form *f, char which, int *rows, int *cols)
{
    switch (which) {
    case 'a': *rows = f->m; *cols = f->k; break;
    case 'b': *rows = f->k; *cols = f->n; break;
    default: *rows = f->m; *cols = f->n; break;
    }
}

static int elem_bits(const ws_frag_form *f, char which)
{
    return which == 'a' || which == 'b' ? f->ab_bits : f->c_bits;
}

int ws_frag_elems(const ws_frag_form *f, char which)
{
    int r, c;
    ws_frag_dims(f, which, &r, &c);
    return r * c / 32;
}

int ws_frag_regs(const ws_frag_form *f, char which)
{
    int bits = elem_bits(f, which);
    int per = bits >= 32 ? 1 : 32 / bits;
    return ws_frag_elems(f, which) / per;
}

void ws_frag_where(const ws_frag_form *f, char which, int lane, int e, ws_frag_pos *p)
{
    int g = lane >> 2, t = lane & 3, bits = elem_bits(f, which);
    int per = bits >= 32 ? 1 : 32 / bits;
    p->reg = e / per;
    p->shift = (e % per) * bits;
    if (which == 'd') which = 'c';
    int half = 0;                                /* wmma: the n8 half of B and C/D */
    if (f->wmma && which != 'a') {
        int n8 = ws_frag_elems(f, which) / 2;
        half = e / n8;
        e %= n8;
    }
    if (bits == 64 || (which == 'c' && f->c_bits == 64)) { /* mma.m8n8k4.f64 */
        if (which == 'a') { p->row = g; p->col = t; }
        else if (which == 'b') { p->row = t; p->col = g; }
        else { p->row = g; p->col = 2 * t + e; }
        return;
    }
    int K = f->k;
    switch (which) {
    case 'a':
        p->row = g + 8 * ((e / per) % 2);
        p->col = t * per + e % per + (K / 2) * (e / (2 * per));
        break;
    case 'b':
        p->row = t * per + e % per + (K / 2) * (e / per);
        p->col = g + 8 * half;
        break;
    default:
        p->row = g + 8 * (e / 2);
        p->col = 2 * t + e % 2 + 8 * half;
        break;
    }
}
