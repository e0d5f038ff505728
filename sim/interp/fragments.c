/* fragments.c - the fragment layouts of fragments.h, from the PTX ISA's formulas.
 * Invariant: ws_frag_where is a bijection from (lane, element) to the matrix's cells. */
#include "fragments.h"

#include <stddef.h>

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

/* One formula for every form: a fragment is a grid of blocks, each one register per lane.
 * A: blocks of 8 rows x 4p columns, lane (g, t) holding row g, columns t*p .. t*p+p-1, the
 *    row blocks counted first; B: 4p rows x 8 columns, lane holding rows t*p .. t*p+p-1 of
 *    column g, the k blocks first; C/D: 8 x 8 blocks of two elements (g, 2t) and (g, 2t+1),
 *    row blocks first. For the mma shapes this is the PTX ISA's table; for wmma (whose layout
 *    the ISA leaves to the target) it is the mma tiles side by side. */
void ws_frag_where(const ws_frag_form *f, char which, int lane, int e, ws_frag_pos *p)
{
    int g = lane >> 2, t = lane & 3, bits = elem_bits(f, which);
    int per = bits >= 32 ? 1 : 32 / bits;
    p->reg = e / per;
    p->shift = (e % per) * bits;
    if (which == 'd') which = 'c';
    int b, nb;
    switch (which) {
    case 'a':
        b = e / per;
        nb = f->m / 8 > 0 ? f->m / 8 : 1;
        p->row = 8 * (b % nb) + g;
        p->col = 4 * per * (b / nb) + t * per + e % per;
        break;
    case 'b':
        b = e / per;
        nb = f->k / (4 * per) > 0 ? f->k / (4 * per) : 1;
        p->row = 4 * per * (b % nb) + t * per + e % per;
        p->col = 8 * (b / nb) + g;
        break;
    default:
        b = e / 2;
        nb = f->m / 8 > 0 ? f->m / 8 : 1;
        p->row = 8 * (b % nb) + g;
        p->col = 8 * (b / nb) + 2 * t + e % 2;
        break;
    }
}

/* A few forms per kernel at most: a small per-thread cache, searched linearly, so -j N threads
 * share nothing; slots are reused round-robin when a kernel uses more forms than fit. */
#define MAP_SLOTS 8
typedef struct {
    int m, n, k, ab_bits, c_bits;
    char which;
    ws_frag_map map;
} map_slot;
static _Thread_local map_slot map_cache[MAP_SLOTS];
static _Thread_local int map_used, map_next;

const ws_frag_map *ws_frag_map_get(const ws_frag_form *f, char which)
{
    if (which == 'd') which = 'c';
    for (int i = 0; i < map_used; i++) {
        map_slot *s = &map_cache[i];
        if (s->which == which && s->m == f->m && s->n == f->n && s->k == f->k && s->ab_bits == f->ab_bits
            && s->c_bits == f->c_bits)
            return &s->map;
    }
    int ne = ws_frag_elems(f, which), rows, cols;
    ws_frag_dims(f, which, &rows, &cols);
    if (ne <= 0 || ne > WS_FRAG_MAX_ELEMS || rows > 256 || cols > 256) return NULL;
    int at = map_used < MAP_SLOTS ? map_used++ : (map_next++ % MAP_SLOTS);
    map_slot *s = &map_cache[at];
    s->m = f->m; s->n = f->n; s->k = f->k; s->ab_bits = f->ab_bits; s->c_bits = f->c_bits; s->which = which;
    s->map.nelem = ne;
    for (int l = 0; l < 32; l++)
        for (int e = 0; e < ne; e++) {
            ws_frag_pos p;
            ws_frag_where(f, which, l, e, &p);
            s->map.reg[e] = p.reg;        /* reg and shift depend on e only */
            s->map.shift[e] = p.shift;
            s->map.row[l][e] = (unsigned char)p.row;
            s->map.col[l][e] = (unsigned char)p.col;
            s->map.at[l][e] = (unsigned short)(p.row * cols + p.col);
        }
    return &s->map;
}
