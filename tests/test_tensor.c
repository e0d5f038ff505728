/* test_tensor.c - the tensor-era instructions in the interpreter (sim/interp/exec_tc.c,
 * exec_matrix.c, exec_mma.c, fragments.c) on nvcc PTX from tests/data/tensor/tensor.cu:
 * mma and wmma against a plain-C matrix product, with every lane's fragment registers packed
 * and unpacked here from the PTX ISA's layout tables (written out per form, not through
 * sim/interp/fragments.c); ldmatrix/stmatrix element placement and their wavefronts derived from the
 * row addresses; cp.async data, zero-fill, sectors and wavefronts from the addresses; the
 * faults for reads before a wait; mbarrier phases; refusals of forms not implemented. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "events.h"
#include "../common/device.h"
#include "../common/tmap.h"
#include "../sim/interp/fragments.h"
#include "../common/desc.h"
#include "../common/files.h"
#include "../sim/interp/interp.h"
#include "../sim/interp/racecheck.h"
#include "../sim/models/memstats.h"
#include "../sim/models/models.h"

#define DATA "tests/data/tensor/tensor.ptx"

/* --- harness ------------------------------------------------------------------------------ */

typedef struct {
    ptx_module *mod;
    const ptx_function *fn;
    ws_launch L;
    ws_sim_config cfg;
    ws_sim_result res;
    ws_error err;
    ws_test_events cap;
    int rc;
} run_t;

static void setup_from(run_t *r, const char *file, const char *kernel, uint32_t threads)
{
    memset(r, 0, sizeof *r);
    ws_error e;
    r->mod = ptx_load(file, &e);
    if (!r->mod) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
    r->fn = ptx_find_function(r->mod, kernel);
    assert_non_null(r->fn);
    r->L.grid[0] = r->L.grid[1] = r->L.grid[2] = 1;
    r->L.block[0] = threads; r->L.block[1] = r->L.block[2] = 1;
    r->cfg.module = r->mod;
    r->cfg.fn = r->fn;
    r->cfg.launch = &r->L;
    r->cfg.source_file = "tensor.cu";
}

static void setup(run_t *r, const char *kernel, uint32_t threads) { setup_from(r, DATA, kernel, threads); }

static void buf_init(run_t *r, ws_type t, uint64_t count, ws_init_kind init, uint64_t seed, double lo, double hi)
{
    ws_buffer *b = &r->L.buffers[r->L.nbuffers];
    snprintf(b->name, sizeof b->name, "b%d", r->L.nbuffers);
    b->type = t;
    b->count = count;
    b->bytes = count * ws_type_size(t);
    b->init = init;
    b->seed = seed;
    b->lo = lo;
    b->hi = hi;
    r->L.args[r->L.nargs].kind = WS_ARG_BUFFER;
    r->L.args[r->L.nargs++].buffer = r->L.nbuffers++;
}

static void buf_zero(run_t *r, ws_type t, uint64_t count) { buf_init(r, t, count, WS_INIT_ZERO, 0, 0, 0); }
static void buf_rand(run_t *r, ws_type t, uint64_t count, uint64_t seed, double lo, double hi)
{
    buf_init(r, t, count, WS_INIT_RANDOM, seed, lo, hi);
}

static void arg_int(run_t *r, int64_t v)
{
    r->L.args[r->L.nargs].kind = WS_ARG_INT;
    r->L.args[r->L.nargs++].ivalue = v;
}

static char *error_text(run_t *r)
{
    static char msg[1600];
    ws_error_format(&r->err, msg, sizeof msg);
    return msg;
}

static int run(run_t *r)
{
    r->cfg.listener = ws_test_events_add;
    r->cfg.listener_ctx = &r->cap;
    r->rc = ws_sim_run(&r->cfg, &r->res, &r->err);
    return r->rc;
}

static void run_ok(run_t *r)
{
    if (run(r)) fail_msg("%s", error_text(r));
}

static void teardown(run_t *r)
{
    ws_sim_result_free(&r->res);
    ptx_free(r->mod);
    free(r->cap.ev);
}

static const void *data(run_t *r, int i) { return r->res.buffer_data[i]; }

/* Events of one kind, in order. */
static int events_of(const run_t *r, ws_mem_kind k, const ws_mem_event **out, int cap)
{
    int n = 0;
    for (int i = 0; i < r->cap.n; i++)
        if (r->cap.ev[i].kind == k && n < cap) out[n++] = &r->cap.ev[i];
    return n;
}

/* --- fp16 / bf16 from first principles --------------------------------------------------------- */

static double f16(uint16_t h)
{
    int e = h >> 10 & 31, f = h & 1023;
    double v = e == 0 ? ldexp(f, -24) : ldexp(1024 + f, e - 25);
    return h >> 15 ? -v : v;
}

static double bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float as_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Round to nearest binary16 (inputs here are normal and in range). */
static uint16_t to_f16(double x)
{
    int e;
    double m = frexp(fabs(x), &e);                 /* x = m * 2^e, m in [0.5, 1) */
    double q = nearbyint(ldexp(m, 11));            /* 11 significant bits */
    if (q == 2048) { q = 1024; e++; }
    return (uint16_t)((x < 0 ? 0x8000 : 0) | (uint32_t)(e + 14) << 10 | ((uint32_t)q - 1024));
}

/* --- the H200's HMMA sum (results/h200-hmma-rule/, results/h200-hmma-chain/) ---------------------- *
 * C and the K products aligned to the largest exponent E (a product's: the sum of its operands'
 * exponents, C's own), each truncated toward zero to a multiple of 2^(E-25), summed exactly
 * (ref_hmma_sum); an f32 D truncates that sum toward zero to 24 significant bits (ref_hmma), an
 * f16 D rounds the same sum once to nearest (to_f16(ref_hmma_sum)); a zero result is +0. Written
 * from that statement with frexp (the simulator reads exponent fields); operands here are normal. */

static int expo2(double x) { int e; frexp(x, &e); return e - 1; }   /* floor(log2 |x|), x != 0 */

static double ref_hmma_sum(double c, const double *a, int sa, const double *b, int sb, int K)
{
    int E = c != 0 ? expo2(c) : -100000;
    for (int k = 0; k < K; k++)
        if (a[k * sa] * b[k * sb] != 0 && expo2(a[k * sa]) + expo2(b[k * sb]) > E) E = expo2(a[k * sa]) + expo2(b[k * sb]);
    if (E == -100000) return 0;
    long long units = (long long)trunc(ldexp(c, 25 - E));
    for (int k = 0; k < K; k++) units += (long long)trunc(ldexp(a[k * sa] * b[k * sb], 25 - E));
    return ldexp((double)units, E - 25);
}

static double ref_hmma(double c, const double *a, int sa, const double *b, int sb, int K)
{
    double sum = ref_hmma_sum(c, a, sa, b, sb, K);
    if (sum == 0) return 0;
    int e;
    double m = frexp(sum, &e);                      /* sum = m * 2^e, |m| in [0.5, 1) */
    return ldexp(trunc(ldexp(m, 24)), e - 24);
}

/* --- mma: the PTX ISA's layout tables, per form ------------------------------------------------- *
 * g = groupID = lane >> 2, t = threadID_in_group = lane % 4; element i of a fragment. */

typedef struct { int row, col; } rc;

static rc f16_k16_a(int lane, int i)  /* "row = g for a0,a1,a4,a5, g+8 otherwise; col = 2t + (i&1), +8 for i >= 4" */
{
    int g = lane >> 2, t = lane & 3;
    return (rc){(i == 0 || i == 1 || i == 4 || i == 5) ? g : g + 8, 2 * t + (i & 1) + (i >= 4 ? 8 : 0)};
}
static rc f16_k16_b(int lane, int i)  /* "row = 2t + (i&1), +8 for i >= 2; col = g" */
{
    return (rc){2 * (lane & 3) + (i & 1) + (i >= 2 ? 8 : 0), lane >> 2};
}
static rc acc_c(int lane, int i)      /* "row = g for c0,c1, g+8 for c2,c3; col = 2t + (i&1)" */
{
    return (rc){(lane >> 2) + (i >= 2 ? 8 : 0), 2 * (lane & 3) + (i & 1)};
}
static rc tf32_k8_a(int lane, int i)  /* "row = g for a0,a2, g+8 for a1,a3; col = t for a0,a1, t+4 for a2,a3" */
{
    return (rc){(lane >> 2) + (i & 1 ? 8 : 0), (lane & 3) + (i >= 2 ? 4 : 0)};
}
static rc tf32_k8_b(int lane, int i)  /* "row = t for b0, t+4 for b1; col = g" */
{
    return (rc){(lane & 3) + (i ? 4 : 0), lane >> 2};
}
static rc s8_k32_a(int lane, int i)   /* "row = g for i < 4 or 8 <= i < 12, g+8 otherwise; col = 4t + (i&3), +16 for i >= 8" */
{
    int g = lane >> 2, t = lane & 3;
    return (rc){(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, 4 * t + (i & 3) + (i >= 8 ? 16 : 0)};
}
static rc s8_k32_b(int lane, int i)   /* "row = 4t + (i&3), +16 for i >= 4; col = g" */
{
    return (rc){4 * (lane & 3) + (i & 3) + (i >= 4 ? 16 : 0), lane >> 2};
}
static rc f16_k8_a(int lane, int i)   /* "row = g for a0,a1, g+8 for a2,a3; col = 2t + (i&1)" */
{
    return (rc){(lane >> 2) + (i >= 2 ? 8 : 0), 2 * (lane & 3) + (i & 1)};
}
static rc f16_k8_b(int lane, int i)   /* "row = 2t + (i&1); col = g" */
{
    return (rc){2 * (lane & 3) + (i & 1), lane >> 2};
}

/* Element i of lane's fragment, bits wide, from registers reg[lane * stride + ...]. */
static uint32_t elem_of(const uint32_t *reg, int stride, int lane, int i, int bits)
{
    int per = 32 / bits;
    uint32_t w = reg[lane * stride + i / per];
    return bits == 32 ? w : (w >> (i % per * bits)) & ((1u << bits) - 1);
}

typedef struct {
    int form, m, n, k, ab_bits;
    rc (*a)(int, int), (*b)(int, int);
    int ta, tb;              /* 0 f16, 1 bf16, 2 tf32, 3 s8, 4 u8 */
    int f16_acc, sat;
} mma_case;

static double in_value(int type, uint32_t bits)
{
    switch (type) {
    case 0: return f16((uint16_t)bits);
    case 1: return bf16((uint16_t)bits);
    case 2: return as_float(bits & 0xffffe000u);   /* tf32: "the lower 13 bits are ignored" */
    case 3: return (int8_t)bits;
    default: return (uint8_t)bits;
    }
}

static void check_mma_case(const mma_case *mc)
{
    run_t r;
    setup(&r, "mma_form", 32);
    /* registers: f16/bf16 halves in [0.5, 2); tf32 floats in [0.5, 2) with random low bits; bytes
       anything; C floats in [0.5, 2) or, for the integer forms, any int32 (saturation and wrap) */
    int halves = mc->ta <= 1;
    if (mc->ta == 0) buf_rand(&r, WS_TYPE_USHORT, 32 * 16, 11, 0x3800, 0x4000);
    else if (mc->ta == 1) buf_rand(&r, WS_TYPE_USHORT, 32 * 16, 11, 0x3f00, 0x4000);
    else if (mc->ta == 2) buf_rand(&r, WS_TYPE_UINT, 32 * 8, 11, 0x3f000000, 0x40000000);
    else buf_rand(&r, WS_TYPE_UCHAR, 32 * 32, 11, 0, 256);
    if (mc->tb == 0) buf_rand(&r, WS_TYPE_USHORT, 32 * 8, 12, 0x3800, 0x4000);
    else if (mc->tb == 1) buf_rand(&r, WS_TYPE_USHORT, 32 * 8, 12, 0x3f00, 0x4000);
    else if (mc->tb == 2) buf_rand(&r, WS_TYPE_UINT, 32 * 4, 12, 0x3f000000, 0x40000000);
    else buf_rand(&r, WS_TYPE_UCHAR, 32 * 16, 12, 0, 256);
    if (mc->ta >= 3) buf_rand(&r, WS_TYPE_UINT, 32 * 4, 13, 0, 4294967296.0);
    else if (mc->f16_acc) buf_rand(&r, WS_TYPE_USHORT, 32 * 8, 13, 0x3800, 0x4000);
    else buf_rand(&r, WS_TYPE_UINT, 32 * 4, 13, 0x3f000000, 0x40000000);
    buf_zero(&r, WS_TYPE_UINT, 32 * 4);
    arg_int(&r, mc->form);
    run_ok(&r);
    (void)halves;
    const uint32_t *A = data(&r, 0), *B = data(&r, 1), *C = data(&r, 2), *D = data(&r, 3);
    double a[16][32], b[32][8], c[16][8];
    int64_t ia[16][32], ib[32][8];
    int ne_a = mc->m * mc->k / 32, ne_b = mc->k * mc->n / 32;
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < ne_a; i++) {
            rc p = mc->a(l, i);
            uint32_t v = elem_of(A, 8, l, i, mc->ab_bits);
            a[p.row][p.col] = in_value(mc->ta, v);
            ia[p.row][p.col] = (int64_t)a[p.row][p.col];
        }
        for (int i = 0; i < ne_b; i++) {
            rc p = mc->b(l, i);
            uint32_t v = elem_of(B, 4, l, i, mc->ab_bits);
            b[p.row][p.col] = in_value(mc->tb, v);
            ib[p.row][p.col] = (int64_t)b[p.row][p.col];
        }
        for (int i = 0; i < 4; i++) {
            rc p = acc_c(l, i);
            uint32_t v = elem_of(C, 4, l, i, mc->f16_acc ? 16 : 32);
            c[p.row][p.col] = mc->ta >= 3 ? (double)(int32_t)v : mc->f16_acc ? f16((uint16_t)v) : as_float(v);
        }
    }
    int checked = 0;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            rc p = acc_c(l, i);
            uint32_t got = elem_of(D, 4, l, i, mc->f16_acc ? 16 : 32);
            if (mc->ta >= 3) {
                int64_t acc = (int64_t)c[p.row][p.col];
                for (int k = 0; k < mc->k; k++) acc += ia[p.row][k] * ib[k][p.col];
                int32_t want = mc->sat ? (int32_t)(acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc)
                                       : (int32_t)(uint32_t)(uint64_t)acc;
                if ((int32_t)got != want)
                    fail_msg("form %d lane %d c%d (%d,%d): %d, want %d", mc->form, l, i, p.row, p.col, (int32_t)got, want);
            } else {
                double acc = mc->f16_acc ? ref_hmma_sum(c[p.row][p.col], &a[p.row][0], 1, &b[0][p.col], 8, mc->k)
                                         : ref_hmma(c[p.row][p.col], &a[p.row][0], 1, &b[0][p.col], 8, mc->k);
                if (mc->f16_acc) {
                    if (got != to_f16(acc))
                        fail_msg("form %d lane %d c%d: 0x%04x, want 0x%04x (%g)", mc->form, l, i, got, to_f16(acc), acc);
                } else if (as_float(got) != (float)acc) {
                    fail_msg("form %d lane %d c%d (%d,%d): %.9g, want %.9g", mc->form, l, i, p.row, p.col, as_float(got),
                             (double)(float)acc);
                }
            }
            checked++;
        }
    assert_int_equal(checked, 128);            /* 16 x 8 results, each held by one lane */
    teardown(&r);
}

static void test_mma_f16_m16n8k16_sums_as_the_h200_through_the_isa_fragment_layouts(void **state)
{
    (void)state;
    mma_case f32acc = {0, 16, 8, 16, 16, f16_k16_a, f16_k16_b, 0, 0, 0, 0};
    check_mma_case(&f32acc);
    mma_case f16acc = {1, 16, 8, 16, 16, f16_k16_a, f16_k16_b, 0, 0, 1, 0};
    check_mma_case(&f16acc);
    mma_case k8 = {6, 16, 8, 8, 16, f16_k8_a, f16_k8_b, 0, 0, 0, 0};
    check_mma_case(&k8);
}

static void test_mma_bf16_and_tf32_sum_as_the_h200_tf32_dropping_13_low_bits(void **state)
{
    (void)state;
    mma_case bf = {2, 16, 8, 16, 16, f16_k16_a, f16_k16_b, 1, 1, 0, 0};
    check_mma_case(&bf);
    mma_case tf = {3, 16, 8, 8, 32, tf32_k8_a, tf32_k8_b, 2, 2, 0, 0};
    check_mma_case(&tf);
}

static void test_mma_int8_m16n8k32_wraps_and_satfinite_saturates(void **state)
{
    (void)state;
    mma_case s8 = {4, 16, 8, 32, 8, s8_k32_a, s8_k32_b, 3, 3, 0, 0};
    check_mma_case(&s8);
    mma_case u8s8 = {5, 16, 8, 32, 8, s8_k32_a, s8_k32_b, 4, 3, 0, 1};
    check_mma_case(&u8s8);
}

static void test_mma_f64_m8n8k4_is_four_fused_multiply_adds_per_element(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mma_f64", 32);
    buf_rand(&r, WS_TYPE_DOUBLE, 32, 1, -1, 1);
    buf_rand(&r, WS_TYPE_DOUBLE, 32, 2, -1, 1);
    buf_rand(&r, WS_TYPE_DOUBLE, 64, 3, -1, 1);
    buf_zero(&r, WS_TYPE_DOUBLE, 64);
    run_ok(&r);
    const double *A = data(&r, 0), *B = data(&r, 1), *C = data(&r, 2), *D = data(&r, 3);
    double a[8][4], b[4][8];
    for (int l = 0; l < 32; l++) {             /* "A: row g, col t; B: row t, col g" */
        a[l >> 2][l & 3] = A[l];
        b[l & 3][l >> 2] = B[l];
    }
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 2; i++) {          /* "C: row g, col 2t + i" */
            int row = l >> 2, col = 2 * (l & 3) + i;
            double acc = C[2 * l + i];
            for (int k = 0; k < 4; k++) acc = fma(a[row][k], b[k][col], acc);
            assert_true(D[2 * l + i] == acc);
        }
    teardown(&r);
}

static void test_an_mma_form_not_implemented_is_refused_by_name_when_reached(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mma_unimplemented", 32);
    buf_zero(&r, WS_TYPE_UINT, 32);
    assert_int_equal(run(&r), -1);
    const char *msg = error_text(&r);
    assert_non_null(strstr(msg, "unsupported instruction 'mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16"));
    assert_non_null(strstr(msg, "does not implement"));
    assert_non_null(strstr(msg, "tensor.cu:"));  /* located at its source line */
    teardown(&r);
}

/* A buffer of the given words, through a raw file (the simulator's file(path) initialiser). */
static void buf_words(run_t *r, const uint32_t *w, int n, char *path)
{
    strcpy(path, "/tmp/ws-test-hmma-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(w, 4, (size_t)n, f), (size_t)n);
    fclose(f);
    buf_init(r, WS_TYPE_UINT, (uint64_t)n, WS_INIT_FILE, 0, 0, 0);
    ws_buffer *b = &r->L.buffers[r->L.nbuffers - 1];
    snprintf(b->file, sizeof b->file, "%s", path);
}

/* The H200's own outputs (tests/data/tensor/hmma_h200.txt, cut from results/h200-hmma-rule/): the
 * recorded A, B, C of one mma.sync laid into each lane's registers by the ISA's tables, run, and
 * every D bit pattern compared with the GPU's. Cases 0 and 2 put a product 25 and 26 bits below
 * C (kept / dropped), case 10 is random: the exact sum rounded once differs from the GPU in them. */
static void test_mma_reproduces_the_h200s_recorded_outputs_bit_for_bit(void **state)
{
    (void)state;
    FILE *f = fopen("tests/data/tensor/hmma_h200.txt", "r");
    assert_non_null(f);
    static char line[16384];
    uint32_t mat[4][256];                     /* A, B, C, D row-major */
    int rows[4] = {0}, cols[4] = {0}, have = 0, cases = 0, differ_from_plain = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char form[16], which;
        int ccase, off = 0, R, C;
        assert_int_equal(sscanf(line, "%15s %d %c %d %d %n", form, &ccase, &which, &R, &C, &off), 5);
        int m = which == 'A' ? 0 : which == 'B' ? 1 : which == 'C' ? 2 : 3;
        rows[m] = R, cols[m] = C;
        char *q = line + off;
        for (int x = 0; x < R * C; x++) mat[m][x] = (uint32_t)strtoul(q, &q, 16);
        have |= 1 << m;
        if (have != 15) continue;
        have = 0;
        /* form as tests/data/tensor/tensor.cu's mma_form numbers them */
        int fno = !strcmp(form, "f16.f32") ? 0 : !strcmp(form, "f16.f16") ? 1 : !strcmp(form, "bf16.f32") ? 2 : 3;
        int K = cols[0], abits = fno == 3 ? 32 : 16, cbits = fno == 1 ? 16 : 32;
        rc (*fa)(int, int) = fno == 3 ? tf32_k8_a : f16_k16_a, (*fb)(int, int) = fno == 3 ? tf32_k8_b : f16_k16_b;
        uint32_t A[32 * 8] = {0}, B[32 * 4] = {0}, Cr[32 * 4] = {0};
        int per = 32 / abits;
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < 16 * K / 32; i++) {
                rc p = fa(l, i);
                A[l * 8 + i / per] |= mat[0][p.row * K + p.col] << (i % per * abits);
            }
            for (int i = 0; i < K * 8 / 32; i++) {
                rc p = fb(l, i);
                B[l * 4 + i / per] |= mat[1][p.row * 8 + p.col] << (i % per * abits);
            }
            for (int i = 0; i < 4; i++) {
                rc p = acc_c(l, i);
                Cr[l * 4 + i / (32 / cbits)] |= mat[2][p.row * 8 + p.col] << (i % (32 / cbits) * cbits);
            }
        }
        run_t r;
        char pa[64], pb[64], pc[64];
        setup(&r, "mma_form", 32);
        buf_words(&r, A, 32 * 8, pa);
        buf_words(&r, B, 32 * 4, pb);
        buf_words(&r, Cr, 32 * 4, pc);
        buf_zero(&r, WS_TYPE_UINT, 32 * 4);
        arg_int(&r, fno);
        run_ok(&r);
        const uint32_t *D = data(&r, 3);
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < 4; i++) {
                rc p = acc_c(l, i);
                uint32_t got = elem_of(D, 4, l, i, cbits), want = mat[3][p.row * 8 + p.col];
                if (got != want)
                    fail_msg("%s case %d D(%d,%d): 0x%08x, the H200 0x%08x", form, ccase, p.row, p.col, got, want);
                /* the plain rule (exact sum rounded once) on the same inputs, to show the cases bite */
                double acc = fno == 1 ? f16((uint16_t)mat[2][p.row * 8 + p.col]) : as_float(mat[2][p.row * 8 + p.col]);
                for (int k = 0; k < K; k++)
                    acc += in_value(fno == 2 ? 1 : fno == 3 ? 2 : 0, mat[0][p.row * K + k]) *
                           in_value(fno == 2 ? 1 : fno == 3 ? 2 : 0, mat[1][k * 8 + p.col]);
                uint32_t plain = fno == 1 ? to_f16(acc) : 0;
                if (fno != 1) { float fl = (float)acc; memcpy(&plain, &fl, 4); }
                differ_from_plain += plain != want;
            }
        teardown(&r);
        unlink(pa), unlink(pb), unlink(pc);
        cases++;
        (void)rows;
    }
    fclose(f);
    assert_int_equal(cases, 12);               /* 4 forms x 3 cases */
    assert_true(differ_from_plain > 0);
}

/* One mma_form m16n8k16 (fno 1: f16 into f16, 2: bf16 into f32) of row-major A (16 x 16), B (16 x 8)
 * and C (16 x 8) bits, laid into the lanes by the ISA's tables; D row-major into d. */
static void run_mma_k16(int fno, const uint32_t *ma, const uint32_t *mb, const uint32_t *mc, uint32_t *md)
{
    int cbits = fno == 1 ? 16 : 32;
    uint32_t A[32 * 8] = {0}, B[32 * 4] = {0}, Cr[32 * 4] = {0};
    for (int l = 0; l < 32; l++) {
        for (int i = 0; i < 8; i++) {
            rc p = f16_k16_a(l, i);
            A[l * 8 + i / 2] |= ma[p.row * 16 + p.col] << (i % 2 * 16);
        }
        for (int i = 0; i < 4; i++) {
            rc p = f16_k16_b(l, i);
            B[l * 4 + i / 2] |= mb[p.row * 8 + p.col] << (i % 2 * 16);
            p = acc_c(l, i);
            Cr[l * 4 + i / (32 / cbits)] |= mc[p.row * 8 + p.col] << (i % (32 / cbits) * cbits);
        }
    }
    run_t r;
    char pa[64], pb[64], pc[64];
    setup(&r, "mma_form", 32);
    buf_words(&r, A, 32 * 8, pa);
    buf_words(&r, B, 32 * 4, pb);
    buf_words(&r, Cr, 32 * 4, pc);
    buf_zero(&r, WS_TYPE_UINT, 32 * 4);
    arg_int(&r, fno);
    run_ok(&r);
    const uint32_t *D = data(&r, 3);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            rc p = acc_c(l, i);
            md[p.row * 8 + p.col] = elem_of(D, 4, l, i, cbits);
        }
    teardown(&r);
    unlink(pa), unlink(pb), unlink(pc);
}

/* Worked by hand from the rule (results/h200-hmma-chain/NOTES.md). Rows 0-7: C = 1, products
 * 2^-11 * 1 and 2^-12 * 2^-12 = 2^-24; E = 0, both kept (2^-24 >= 2^-25), the sum 1 + 2^-11 + 2^-24
 * lies above the halfway point 1 + 2^-11 between the halves 1 and 1 + 2^-10, so an f16 D is
 * 1 + 2^-10 = 0x3c01 (through f32 first the 2^-24 is lost, 1 + 2^-11 is a tie and goes to even,
 * 0x3c00). Rows 8-15: C = +0 and one product -2^-14 * 2^-12 = -2^-26, below half the smallest
 * subnormal half (2^-25): the magnitude rounds to 0, and the H200 gives +0 (IEEE rounding would
 * keep the sign, 0x8000). bf16 into f32, C = +0 and one product -2^-100 * 2^-100 = -2^-200: below
 * every f32, truncated to 0, again +0 (not 0x80000000). */
static void test_mma_f16_d_rounds_the_aligned_sum_once_and_a_zero_result_is_positive(void **state)
{
    (void)state;
    uint32_t ma[256] = {0}, mb[128] = {0}, mc[128], md[128];
    for (int i = 0; i < 8; i++) ma[i * 16 + 0] = 0x1000, ma[i * 16 + 1] = 0x0c00;     /* 2^-11, 2^-12 */
    for (int i = 8; i < 16; i++) ma[i * 16 + 2] = 0x8400;                              /* -2^-14 */
    for (int j = 0; j < 8; j++) mb[0 * 8 + j] = 0x3c00, mb[1 * 8 + j] = 0x0c00, mb[2 * 8 + j] = 0x0c00;
    for (int x = 0; x < 128; x++) mc[x] = x < 64 ? 0x3c00 : 0x0000;
    run_mma_k16(1, ma, mb, mc, md);
    for (int x = 0; x < 128; x++) {
        uint32_t want = x < 64 ? 0x3c01 : 0x0000;
        if (md[x] != want) fail_msg("f16 D(%d,%d): 0x%04x, want 0x%04x", x / 8, x % 8, md[x], want);
    }
    memset(ma, 0, sizeof ma), memset(mb, 0, sizeof mb), memset(mc, 0, sizeof mc);
    for (int i = 0; i < 16; i++) ma[i * 16 + 5] = 0x8d80;        /* bf16 -2^-100: field 27, sign */
    for (int j = 0; j < 8; j++) mb[5 * 8 + j] = 0x0d80;          /* 2^-100 */
    run_mma_k16(2, ma, mb, mc, md);
    for (int x = 0; x < 128; x++) assert_int_equal(md[x], 0x00000000);
}

/* wmma m16n16k8 tf32 is two k4 sums (results/h200-hmma-chain: all of its 1,048,576 recorded outputs;
 * one k8 sum reproduces 69 %). By hand: C = 1, A's k = 0 and 4 are 2^-12, B's too: each half adds
 * 2^-24 to 1 (kept in the sum, E = 0) and truncates to f32, losing it: D = 1 = 0x3f800000. One k8
 * sum would keep 1 + 2^-23 = 0x3f800001. */
static void test_wmma_m16n16k8_tf32_sums_its_two_k4_halves_in_turn(void **state)
{
    (void)state;
    run_t r;
    setup_from(&r, "tests/data/tensor/forms.ptx", "wmma_m16n16k8_tf32_rc", 32);
    uint32_t A[128] = {0}, B[128] = {0}, C[256];
    char pa[64], pb[64], pc[64];
    for (int i = 0; i < 16; i++) A[i * 8 + 0] = A[i * 8 + 4] = 0x39800000;    /* A row-major: 2^-12 */
    for (int j = 0; j < 16; j++) B[j * 8 + 0] = B[j * 8 + 4] = 0x39800000;    /* B col-major */
    for (int x = 0; x < 256; x++) C[x] = 0x3f800000;
    buf_words(&r, A, 128, pa);
    buf_words(&r, B, 128, pb);
    buf_words(&r, C, 256, pc);
    buf_zero(&r, WS_TYPE_UINT, 256);
    run_ok(&r);
    const uint32_t *D = data(&r, 3);
    for (int x = 0; x < 256; x++) assert_int_equal(D[x], 0x3f800000);
    teardown(&r);
    unlink(pa), unlink(pb), unlink(pc);
}

/* The H200's chains (tests/data/tensor/hmma_chain_h200.txt, cut from results/h200-hmma-chain/):
 * tests/gpu/hmma_chain_probe.cu's kernels make their inputs from hashes, so running its PTX here
 * gives the GPU's inputs (the record's A/B/C0 digests matched); every D word of the first chains
 * of each kernel must be the GPU's, checked through an FNV-1a digest of the GPU's words and, where
 * the simulator before this rule differed, word by word. */
#define CHAIN_PTX "tests/data/tensor/hmma_chain.ptx"

static uint64_t fnv1a64(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void test_mma_chains_reproduce_the_h200s_every_step(void **state)
{
    (void)state;
    FILE *f = fopen("tests/data/tensor/hmma_chain_h200.txt", "r");
    assert_non_null(f);
    char line[256], name[64] = "";
    int kernels = 0, words_checked = 0, old_wrong = 0;
    run_t r;
    const uint32_t *D = NULL;
    size_t nd = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int nch, S, mn, wrong;
        unsigned long long fnv;
        unsigned idx, gpu, old;
        if (sscanf(line, "kernel %63s %d %d %d %d %llx", name, &nch, &S, &mn, &wrong, &fnv) == 6) {
            if (D) teardown(&r);
            /* A, B, C0, D as the description sizes them: M x K, K x N, M x N words per step */
            static const struct { const char *k; int ak, bk; } dims[] = {
                {"chain_f16_k16", 256, 128}, {"chain_f16_k8", 128, 64}, {"chain_f16f32_k16", 256, 128},
                {"chain_bf16_k16", 256, 128}, {"chain_tf32_k8", 128, 64}, {"chain_tf32_k4", 64, 32},
                {"chain_wmma_tf32_rc", 128, 128}, {"chain_wmma_tf32_cr", 128, 128},
            };
            int ak = 0, bk = 0;
            for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
                if (!strcmp(dims[i].k, name)) ak = dims[i].ak, bk = dims[i].bk;
            assert_true(ak > 0);
            char entry[96];
            snprintf(entry, sizeof entry, "_Z%zu%sPjS_S_S_ii", strlen(name), name);
            setup_from(&r, CHAIN_PTX, entry, 128);
            r.L.grid[0] = (uint32_t)nch / 4;
            buf_zero(&r, WS_TYPE_UINT, (uint64_t)nch * S * ak);
            buf_zero(&r, WS_TYPE_UINT, (uint64_t)nch * S * bk);
            buf_zero(&r, WS_TYPE_UINT, (uint64_t)nch * mn);
            buf_zero(&r, WS_TYPE_UINT, (uint64_t)nch * S * mn);
            arg_int(&r, nch);
            arg_int(&r, S);
            run_ok(&r);
            D = data(&r, 3);
            nd = (size_t)nch * S * mn;
            if (fnv1a64(D, nd * 4) != fnv)
                fail_msg("%s: D's digest %016llx, the H200's %016llx", name, (unsigned long long)fnv1a64(D, nd * 4), fnv);
            words_checked += (int)nd;
            old_wrong += wrong;
            kernels++;
        } else if (sscanf(line, "at %u %x %x", &idx, &gpu, &old) == 3) {
            assert_non_null(D);
            assert_true(idx < nd);
            assert_true(gpu != old);                   /* the rule before this one got it wrong */
            if (D[idx] != gpu) fail_msg("%s D[%u]: 0x%08x, the H200 0x%08x", name, idx, D[idx], gpu);
        } else {
            fail_msg("hmma_chain_h200.txt: unreadable line '%s'", line);
        }
    }
    fclose(f);
    if (D) teardown(&r);
    assert_int_equal(kernels, 8);
    assert_int_equal(words_checked, 393216);   /* 64 x 16 x 128 x 2 + 16 x 8 x 128 x 4 + 16 x 8 x 256 x 2 */
    assert_int_equal(old_wrong, 34725);        /* the outputs the previous rule got wrong among them */
}

/* --- wmma --------------------------------------------------------------------------------------- */

static void test_wmma_row_col_f32_col_row_f16_and_bf16_sum_as_the_h200(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "wmma_forms", 32);
    buf_rand(&r, WS_TYPE_USHORT, 256, 1, 0x3800, 0x4000);          /* a */
    buf_rand(&r, WS_TYPE_USHORT, 256, 2, 0x3800, 0x4000);          /* b */
    buf_rand(&r, WS_TYPE_UINT, 256, 3, 0x3f000000, 0x40000000);    /* c32 */
    buf_zero(&r, WS_TYPE_FLOAT, 256);                              /* d32 */
    buf_rand(&r, WS_TYPE_USHORT, 256, 4, 0x3800, 0x4000);          /* c16 */
    buf_zero(&r, WS_TYPE_USHORT, 256);                             /* d16 */
    buf_rand(&r, WS_TYPE_USHORT, 256, 5, 0x3f00, 0x4000);          /* ab */
    buf_rand(&r, WS_TYPE_USHORT, 256, 6, 0x3f00, 0x4000);          /* bb */
    buf_zero(&r, WS_TYPE_FLOAT, 256);                              /* db */
    run_ok(&r);
    const uint16_t *a = data(&r, 0), *b = data(&r, 1), *c16 = data(&r, 4), *d16 = data(&r, 5);
    const uint16_t *ab = data(&r, 6), *bb = data(&r, 7);
    const float *c32 = data(&r, 2), *d32 = data(&r, 3), *db = data(&r, 8);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            /* 1: A row-major a[i*16+k], B col-major b[j*16+k], C/D row-major */
            double a1[16], b1[16], a2[16], b2[16], a3[16], b3[16];
            for (int k = 0; k < 16; k++) {
                a1[k] = f16(a[i * 16 + k]), b1[k] = f16(b[j * 16 + k]);
                /* 2: A col-major a[k*16+i], B row-major b[k*16+j], C/D col-major */
                a2[k] = f16(a[k * 16 + i]), b2[k] = f16(b[k * 16 + j]);
                /* 3: bf16, A and B row-major */
                a3[k] = bf16(ab[i * 16 + k]), b3[k] = bf16(bb[k * 16 + j]);
            }
            double x = ref_hmma(c32[i * 16 + j], a1, 1, b1, 1, 16), y = ref_hmma_sum(f16(c16[j * 16 + i]), a2, 1, b2, 1, 16);
            double z = ref_hmma(0, a3, 1, b3, 1, 16);
            assert_true(d32[i * 16 + j] == (float)x);
            assert_int_equal(d16[j * 16 + i], to_f16(y));
            assert_true(db[i * 16 + j] == (float)z);
        }
    /* the first wmma.load (A, row-major from global): its fragment events read each of the 512
       bytes of A exactly once (registers of two contiguous halves: 4-byte lanes) */
    const ws_mem_event *ev[64];
    int n = events_of(&r, WS_KIND_WMMA, ev, 64);
    assert_true(n >= 4);
    int seen[512] = {0};
    uint64_t base = r.res.buffer_base[0];
    for (int e = 0; e < 4; e++) {
        assert_int_equal(ev[e]->pc, ev[0]->pc);
        assert_int_equal(ev[e]->width, 4);
        assert_int_equal(ev[e]->space, WS_SPACE_GLOBAL);
        for (int l = 0; l < 32; l++)
            for (int k = 0; k < 4; k++) seen[ev[e]->addr[l] - base + (uint64_t)k]++;
    }
    for (int i = 0; i < 512; i++) assert_int_equal(seen[i], 1);
    assert_true(n < 5 || ev[4]->pc != ev[0]->pc);
    teardown(&r);
}

/* --- every wmma shape and type, the cvt packing forms, fp8 mma (tests/data/tensor/forms.cu) ----- */

#define FORMS "tests/data/tensor/forms.ptx"

enum { T_F16, T_BF16, T_TF32, T_S8, T_U8, T_F64, T_F32, T_S32 };

typedef struct {
    const char *kernel;
    int m, n, k, ta, tc;
    char la, lb, lc;          /* 'r' / 'c': the layouts of A, B and C in memory (D is row-major) */
} wmma_case;

static ws_type mem_type(int t)
{
    switch (t) {
    case T_F16: case T_BF16: return WS_TYPE_USHORT;
    case T_S8: case T_U8: return WS_TYPE_UCHAR;
    case T_F64: return WS_TYPE_DOUBLE;
    default: return WS_TYPE_UINT;
    }
}

/* Element i of a buffer of type t, as its exact value. */
static double value_of(int t, const void *p, int i)
{
    switch (t) {
    case T_F16: return f16(((const uint16_t *)p)[i]);
    case T_BF16: return bf16(((const uint16_t *)p)[i]);
    case T_S8: return (int8_t)((const uint8_t *)p)[i];
    case T_U8: return ((const uint8_t *)p)[i];
    case T_F64: return ((const double *)p)[i];
    case T_S32: return (int32_t)((const uint32_t *)p)[i];
    case T_TF32: {                                 /* cvt.rna.tf32.f32: ties away, 13 low bits cleared */
        uint32_t u = ((const uint32_t *)p)[i];
        return as_float((u + 0x1000u) & 0xffffe000u);
    }
    default: return as_float(((const uint32_t *)p)[i]);
    }
}

static void buf_of(run_t *r, int t, int count, uint64_t seed)
{
    switch (t) {
    case T_F16: buf_rand(r, WS_TYPE_USHORT, (uint64_t)count, seed, 0x3800, 0x4000); break;     /* [0.5, 2) */
    case T_BF16: buf_rand(r, WS_TYPE_USHORT, (uint64_t)count, seed, 0x3f00, 0x4000); break;
    case T_S8: case T_U8: buf_rand(r, WS_TYPE_UCHAR, (uint64_t)count, seed, 0, 256); break;
    case T_F64: buf_rand(r, WS_TYPE_DOUBLE, (uint64_t)count, seed, -1, 1); break;
    case T_S32: buf_rand(r, WS_TYPE_UINT, (uint64_t)count, seed, 0, 4294967296.0); break;
    default: buf_rand(r, WS_TYPE_UINT, (uint64_t)count, seed, 0x3f000000, 0x40000000); break; /* f32/tf32 [0.5, 2) */
    }
}

static void check_wmma_case(const wmma_case *wc)
{
    run_t r;
    int M = wc->m, N = wc->n, K = wc->k;
    setup_from(&r, FORMS, wc->kernel, 32);
    buf_of(&r, wc->ta, M * K, 21);
    buf_of(&r, wc->ta, K * N, 22);
    buf_of(&r, wc->tc, M * N, 23);
    buf_zero(&r, mem_type(wc->tc), (uint64_t)(M * N));
    run_ok(&r);
    const void *A = data(&r, 0), *B = data(&r, 1), *C = data(&r, 2), *D = data(&r, 3);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double c = value_of(wc->tc, C, wc->lc == 'r' ? i * N + j : j * M + i);
            if (wc->tc == T_S32) {
                int64_t acc = (int64_t)c;
                for (int k = 0; k < K; k++)
                    acc += (int64_t)value_of(wc->ta, A, wc->la == 'r' ? i * K + k : k * M + i) *
                           (int64_t)value_of(wc->ta, B, wc->lb == 'r' ? k * N + j : j * K + k);
                int32_t got = ((const int32_t *)D)[i * N + j], want = (int32_t)(uint32_t)(uint64_t)acc;
                if (got != want) fail_msg("%s (%d,%d): %d, want %d", wc->kernel, i, j, got, want);
                continue;
            }
            double acc = c, xs[32], ys[32];
            for (int k = 0; k < K; k++) {
                xs[k] = value_of(wc->ta, A, wc->la == 'r' ? i * K + k : k * M + i);
                ys[k] = value_of(wc->ta, B, wc->lb == 'r' ? k * N + j : j * K + k);
                if (wc->ta == T_F64) acc = fma(xs[k], ys[k], acc);     /* f64: k order */
            }
            if (wc->ta == T_TF32)                                    /* m16n16k8: two k4 sums in turn */
                acc = ref_hmma(ref_hmma(c, xs, 1, ys, 1, 4), xs + 4, 1, ys + 4, 1, 4);
            else if (wc->tc == T_F16) acc = ref_hmma_sum(c, xs, 1, ys, 1, K);
            else if (wc->ta != T_F64) acc = ref_hmma(c, xs, 1, ys, 1, K);   /* f16, bf16 */
            if (wc->tc == T_F16) {
                uint16_t got = ((const uint16_t *)D)[i * N + j];
                if (got != to_f16(acc)) fail_msg("%s (%d,%d): 0x%04x, want 0x%04x", wc->kernel, i, j, got, to_f16(acc));
            } else if (wc->tc == T_F64) {
                if (((const double *)D)[i * N + j] != acc) fail_msg("%s (%d,%d): %.17g, want %.17g", wc->kernel, i, j,
                                                                    ((const double *)D)[i * N + j], acc);
            } else if (((const float *)D)[i * N + j] != (float)acc) {
                fail_msg("%s (%d,%d): %.9g, want %.9g", wc->kernel, i, j, ((const float *)D)[i * N + j], (double)(float)acc);
            }
        }
    teardown(&r);
}

static void test_wmma_of_every_shape_and_type_sums_as_the_h200(void **state)
{
    (void)state;
    static const wmma_case cases[] = {
        {"wmma_m32n8k16_f16_rc", 32, 8, 16, T_F16, T_F32, 'r', 'c', 'r'},
        {"wmma_m8n32k16_f16_cr_f16acc", 8, 32, 16, T_F16, T_F16, 'c', 'r', 'c'},
        {"wmma_m32n8k16_bf16_rr", 32, 8, 16, T_BF16, T_F32, 'r', 'r', 'r'},
        {"wmma_m8n32k16_bf16_cc", 8, 32, 16, T_BF16, T_F32, 'c', 'c', 'r'},
        {"wmma_m16n16k16_s8_rc", 16, 16, 16, T_S8, T_S32, 'r', 'c', 'r'},
        {"wmma_m32n8k16_u8_rr", 32, 8, 16, T_U8, T_S32, 'r', 'r', 'r'},
        {"wmma_m8n32k16_s8_cc", 8, 32, 16, T_S8, T_S32, 'c', 'c', 'c'},
        {"wmma_m16n16k8_tf32_rc", 16, 16, 8, T_TF32, T_F32, 'r', 'c', 'r'},
        {"wmma_m8n8k4_f64_rc", 8, 8, 4, T_F64, T_F64, 'r', 'c', 'r'},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_wmma_case(&cases[i]);
}

/* Every fragment of every form is a bijection onto its matrix, with as many registers as the
 * PTX ISA gives it (f16 A/B: the distinct ones; the PTX vector repeats them up to 8). */
static void test_fragment_layouts_cover_each_element_once_in_the_isa_register_counts(void **state)
{
    (void)state;
    static const struct { int m, n, k, ab, c, ra, rb, rc; } forms[] = {
        {16, 16, 16, 16, 32, 4, 4, 8}, {32, 8, 16, 16, 32, 8, 2, 8}, {8, 32, 16, 16, 16, 2, 8, 4},
        {16, 16, 16, 8, 32, 2, 2, 8},  {32, 8, 16, 8, 32, 4, 1, 8},  {8, 32, 16, 8, 32, 1, 4, 8},
        {16, 16, 8, 32, 32, 4, 4, 8},  {8, 8, 4, 64, 64, 1, 1, 2},   {16, 8, 32, 8, 32, 4, 2, 4},
        {16, 8, 16, 16, 16, 4, 2, 2},  {16, 8, 4, 32, 32, 2, 1, 4},
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        ws_frag_form ff = {forms[f].m, forms[f].n, forms[f].k, forms[f].ab, forms[f].c, true};
        const char which[3] = {'a', 'b', 'c'};
        const int regs[3] = {forms[f].ra, forms[f].rb, forms[f].rc};
        for (int w = 0; w < 3; w++) {
            int rows, cols;
            ws_frag_dims(&ff, which[w], &rows, &cols);
            assert_int_equal(ws_frag_regs(&ff, which[w]), regs[w]);
            static int seen[32 * 32];
            memset(seen, 0, sizeof seen);
            int bits = w < 2 ? forms[f].ab : forms[f].c;
            for (int l = 0; l < 32; l++)
                for (int e = 0; e < ws_frag_elems(&ff, which[w]); e++) {
                    ws_frag_pos p;
                    ws_frag_where(&ff, which[w], l, e, &p);
                    assert_true(p.row >= 0 && p.row < rows && p.col >= 0 && p.col < cols);
                    assert_true(p.reg < regs[w] && p.shift + bits <= (bits == 64 ? 64 : 32));
                    seen[p.row * cols + p.col]++;
                }
            for (int i = 0; i < rows * cols; i++) assert_int_equal(seen[i], 1);
        }
    }
}

/* The cached fragment maps (ws_frag_map_get, the hot loops' layout) agree with ws_frag_where
 * for every form, on first build, on a cache hit and after more forms than the cache holds
 * have cycled through it (three rounds over 11 forms x 3 fragments). */
static void test_fragment_maps_agree_with_the_formula_through_cache_reuse(void **state)
{
    (void)state;
    static const int forms[][5] = {
        {16, 16, 16, 16, 32}, {32, 8, 16, 16, 32}, {8, 32, 16, 16, 16}, {16, 16, 16, 8, 32}, {32, 8, 16, 8, 32},
        {8, 32, 16, 8, 32}, {16, 16, 8, 32, 32}, {8, 8, 4, 64, 64}, {16, 8, 32, 8, 32}, {16, 8, 16, 16, 16},
        {16, 8, 4, 32, 32},
    };
    const char which[4] = {'a', 'b', 'c', 'd'};
    for (int round = 0; round < 3; round++)
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
            for (int w = 0; w < 4; w++) {
                ws_frag_form ff = {forms[f][0], forms[f][1], forms[f][2], forms[f][3], forms[f][4], true};
                const ws_frag_map *fm = ws_frag_map_get(&ff, which[w]);
                assert_non_null(fm);
                assert_int_equal(fm->nelem, ws_frag_elems(&ff, which[w]));
                for (int l = 0; l < 32; l++)
                    for (int e = 0; e < fm->nelem; e++) {
                        ws_frag_pos p;
                        ws_frag_where(&ff, which[w], l, e, &p);
                        assert_int_equal(fm->row[l][e], p.row);
                        assert_int_equal(fm->col[l][e], p.col);
                        assert_int_equal(fm->reg[e], p.reg);
                        assert_int_equal(fm->shift[e], p.shift);
                    }
            }
}

/* The nearest fp8 by search over all 256 codes (ties to the even code), saturating: from the
 * formats' definitions (e4m3: bias 7, S.1111.111 NaN, no infinity; e5m2: bias 15, IEEE). */
static double fp8_value(int code, bool e5)
{
    int s = code >> 7, e = e5 ? (code >> 2 & 31) : (code >> 3 & 15), f = e5 ? (code & 3) : (code & 7);
    int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7;
    if (e5 ? e == 31 : (e == 15 && f == 7)) return NAN;
    double v = e == 0 ? ldexp(f, 1 - bias - mb) : ldexp((1 << mb) + f, e - bias - mb);
    return s ? -v : v;
}
static uint8_t ref_fp8(double x, bool e5)
{
    double mx = e5 ? 57344 : 448;
    if (x > mx) x = mx;
    if (x < -mx) x = -mx;
    int best = -1;
    double bd = INFINITY;
    for (int c = 0; c < 256; c++) {
        double v = fp8_value(c, e5), d = fabs(v - x);
        if (isnan(v) || (v == 0 && signbit(v) != signbit(x))) continue;
        if (d < bd || (d == bd && !(c & 1))) { bd = d; best = c; }
    }
    return (uint8_t)best;
}

static void test_cuda_fp16_bf16_and_fp8_packing_intrinsics_run_as_the_isa_rounds(void **state)
{
    (void)state;
    run_t r;
    setup_from(&r, FORMS, "cvt_pack", 64);
    /* a, b, h2, bf2, e4, e5, back: a beyond e4m3's 448 (saturates), b in fp8's subnormals */
    buf_rand(&r, WS_TYPE_FLOAT, 64, 31, -600, 600);
    buf_rand(&r, WS_TYPE_FLOAT, 64, 32, -0.01, 0.01);
    buf_zero(&r, WS_TYPE_UINT, 64);
    buf_zero(&r, WS_TYPE_UINT, 64);
    buf_zero(&r, WS_TYPE_USHORT, 64);
    buf_zero(&r, WS_TYPE_USHORT, 64);
    buf_zero(&r, WS_TYPE_UINT, 64);
    run_ok(&r);
    const float *a = data(&r, 0), *b = data(&r, 1);
    const uint32_t *h2 = data(&r, 2), *bf2 = data(&r, 3), *back = data(&r, 6);
    const uint16_t *e4 = data(&r, 4), *e5 = data(&r, 5);
    for (int i = 0; i < 64; i++) {
        /* half2 .x (low) is a, .y (high) is b; the asm is cvt d, b, a: the first source goes high */
        _Float16 ha = (_Float16)a[i], hb = (_Float16)b[i];
        uint16_t ua, ub;
        memcpy(&ua, &ha, 2);
        memcpy(&ub, &hb, 2);
        assert_int_equal(h2[i], (uint32_t)ub << 16 | ua);
        uint32_t xa, xb;
        memcpy(&xa, &a[i], 4);
        memcpy(&xb, &b[i], 4);
        uint32_t ba = (xa + 0x7fff + (xa >> 16 & 1)) >> 16, bb = (xb + 0x7fff + (xb >> 16 & 1)) >> 16;
        assert_int_equal(bf2[i], bb << 16 | ba);
        uint8_t qa = ref_fp8(a[i], false), qb = ref_fp8(b[i], false);
        assert_int_equal(e4[i], (uint16_t)(qb << 8 | qa));
        assert_int_equal(e5[i], (uint16_t)(ref_fp8(b[i], true) << 8 | ref_fp8(a[i], true)));
        _Float16 wa = (_Float16)fp8_value(qa, false), wb = (_Float16)fp8_value(qb, false);  /* exact */
        memcpy(&ua, &wa, 2);
        memcpy(&ub, &wb, 2);
        assert_int_equal(back[i], (uint32_t)ub << 16 | ua);
    }
    teardown(&r);
}

static void test_fp8_mma_m16n8k32_equals_the_plain_product(void **state)
{
    (void)state;
    for (int form = 0; form < 2; form++) {
        run_t r;
        setup_from(&r, FORMS, "mma_fp8", 32);
        buf_rand(&r, WS_TYPE_UCHAR, 32 * 16, 41, 0, 0x70);      /* positive, finite codes of both formats */
        buf_rand(&r, WS_TYPE_UCHAR, 32 * 8, 42, 0, 0x70);
        buf_rand(&r, WS_TYPE_FLOAT, 32 * 4, 43, -1, 1);
        buf_zero(&r, WS_TYPE_FLOAT, 32 * 4);
        arg_int(&r, form);
        run_ok(&r);
        const uint32_t *A = data(&r, 0), *B = data(&r, 1);
        const float *C = data(&r, 2), *D = data(&r, 3);
        double a[16][32], b[32][8];
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < 16; i++) {
                rc p = s8_k32_a(l, i);                 /* the fp8 m16n8k32 table is the s8 one */
                a[p.row][p.col] = fp8_value((int)elem_of(A, 4, l, i, 8), form == 1);
            }
            for (int i = 0; i < 8; i++) {
                rc p = s8_k32_b(l, i);
                b[p.row][p.col] = fp8_value((int)elem_of(B, 2, l, i, 8), false);
            }
        }
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < 4; i++) {
                rc p = acc_c(l, i);
                double acc = C[l * 4 + i];
                for (int k = 0; k < 32; k++) acc += a[p.row][k] * b[k][p.col];
                if (D[l * 4 + i] != (float)acc) fail_msg("form %d lane %d c%d: %.9g, want %.9g", form, l, i, D[l * 4 + i], acc);
            }
        teardown(&r);
    }
}

/* --- ldmatrix / stmatrix ---------------------------------------------------------------------- */

/* The wavefronts of an LDSM/STSM event from its row addresses: per phase (8 lanes) the most
 * rows any 16-byte bank group (address / 16 % 8) holds. */
static int phase_wavefronts(const ws_mem_event *ev)
{
    int total = 0;
    for (int p = 0; p < 4; p++) {
        int count[8] = {0}, most = 0, any = 0;
        for (int l = 8 * p; l < 8 * p + 8; l++) {
            if (!(ev->active_mask >> l & 1)) continue;
            any = 1;
            int g = (int)(ev->addr[l] / 16 % 8);
            if (++count[g] > most) most = count[g];
        }
        total += any ? most : 0;
    }
    return total;
}

static int ldsm_wavefronts(const ws_mem_event *ev)
{
    ws_bank_result bk;
    ws_coalesce_result co;
    ws_mem_verdict v;
    ws_models_geometry(ev, 0, &co, &bk, &v);
    assert_non_null(v.bk);
    return v.bk->wavefronts;
}

static void check_ldmatrix(int pitch, int form, int want_wavefronts)
{
    run_t r;
    setup(&r, "ldmatrix_rows", 32);
    buf_rand(&r, WS_TYPE_USHORT, 64 * 96, 7, 0, 65536);
    buf_zero(&r, WS_TYPE_UINT, 128);
    arg_int(&r, pitch);
    arg_int(&r, form);
    run_ok(&r);
    const uint16_t *tile = data(&r, 0);
    const uint32_t *out = data(&r, 1);
    int num = form == 0 ? 1 : form == 1 ? 2 : 4;
    bool trans = form == 3;
    for (int i = 0; i < 4; i++)
        for (int l = 0; l < 32; l++) {
            uint32_t want = 0;
            if (i < num) {
                /* matrix i is tile rows 8i..8i+7 (lane 8i + r gives row r); lane l gets
                   (l/4, 2(l%4)) and (l/4, 2(l%4)+1), or with .trans (2(l%4), l/4), (2(l%4)+1, l/4) */
                for (int j = 0; j < 2; j++) {
                    int row = trans ? 2 * (l % 4) + j : l / 4, col = trans ? l / 4 : 2 * (l % 4) + j;
                    want |= (uint32_t)tile[(8 * i + row) * pitch + col] << (16 * j);
                }
            }
            if (out[i * 32 + l] != want)
                fail_msg("pitch %d form %d: register %d lane %d: 0x%08x, want 0x%08x", pitch, form, i, l,
                         out[i * 32 + l], want);
        }
    const ws_mem_event *ev[4];
    assert_int_equal(events_of(&r, WS_KIND_LDSM, ev, 4), 1);
    assert_int_equal(ev[0]->active_mask, num == 4 ? 0xffffffffu : (1u << (8 * num)) - 1);
    assert_int_equal(ev[0]->width, 16);
    assert_int_equal(phase_wavefronts(ev[0]), want_wavefronts);
    assert_int_equal(ldsm_wavefronts(ev[0]), want_wavefronts);
    teardown(&r);
}

static void test_ldmatrix_delivers_the_isa_layout_and_costs_the_bank_groups_of_its_rows(void **state)
{
    (void)state;
    /* rows 128 B apart: every row of a matrix in bank group 0 -> 8 per phase, 32 for .x4 */
    check_ldmatrix(64, 2, 32);
    /* 144 B (padded by 8 halves): group 9r % 8 = r, all distinct -> 1 per phase */
    check_ldmatrix(72, 2, 4);
    check_ldmatrix(72, 3, 4);                  /* .trans: same rows, same cost */
    /* 160 B: group 10r % 8 in {0, 2, 4, 6}, two rows each -> 2 per phase */
    check_ldmatrix(80, 2, 8);
    /* 192 B: group 12r % 8 in {0, 4} -> 4 per phase */
    check_ldmatrix(96, 2, 16);
    /* 112 B: 7r % 8 distinct -> 1 */
    check_ldmatrix(56, 2, 4);
    /* .x1 and .x2 use the first 8 and 16 lanes' addresses: 1 and 2 phases */
    check_ldmatrix(64, 0, 8);
    check_ldmatrix(72, 1, 2);
}

static void check_stmatrix(int pitch, int trans)
{
    run_t r;
    setup(&r, "stmatrix_rows", 32);
    buf_rand(&r, WS_TYPE_UINT, 128, 9, 0, 4294967296.0);
    buf_zero(&r, WS_TYPE_USHORT, 64 * 96);
    arg_int(&r, pitch);
    arg_int(&r, trans);
    run_ok(&r);
    const uint32_t *in = data(&r, 0);
    const uint16_t *out = data(&r, 1);
    static uint16_t want[64 * 96];
    memset(want, 0, sizeof want);
    for (int i = 0; i < 4; i++)
        for (int l = 0; l < 32; l++)
            for (int j = 0; j < 2; j++) {
                /* lane l's register i holds (l/4, 2(l%4)+j) of matrix i; .trans stores it at (col, row) */
                int row = l / 4, col = 2 * (l % 4) + j;
                if (trans) { int x = row; row = col; col = x; }
                want[(8 * i + row) * pitch + col] = (uint16_t)(in[i * 32 + l] >> (16 * j));
            }
    for (int k = 0; k < 64 * pitch; k++)
        if (out[k] != want[k]) fail_msg("pitch %d trans %d: half %d is 0x%04x, want 0x%04x", pitch, trans, k, out[k], want[k]);
    const ws_mem_event *ev[4];
    assert_int_equal(events_of(&r, WS_KIND_STSM, ev, 4), 1);
    assert_int_equal(ev[0]->op, WS_MEM_STORE);
    assert_int_equal(ldsm_wavefronts(ev[0]), phase_wavefronts(ev[0]));
    teardown(&r);
}

static void test_stmatrix_is_ldmatrix_backwards_with_and_without_trans(void **state)
{
    (void)state;
    check_stmatrix(64, 0);
    check_stmatrix(72, 1);
}

/* --- cp.async --------------------------------------------------------------------------------- */

typedef struct { int size, sstride, dstride, zfill; } cp_case;

/* Sectors of the lanes that read: distinct 32-byte sectors of [src, src + n) with n > 0. */
static int cp_sectors(const cp_case *k)
{
    uint64_t seen[64];
    int ns = 0;
    for (int l = 0; l < 32; l++) {
        int n = k->zfill ? l % (k->size + 1) : k->size;
        if (!n) continue;
        uint64_t s = (uint64_t)(l * k->sstride) / 32;
        int dup = 0;
        for (int i = 0; i < ns; i++) dup |= seen[i] == s;
        if (!dup) seen[ns++] = s;
    }
    return ns;
}

static void check_cp_async(const cp_case *k, int want_sectors, int want_wavefronts)
{
    run_t r;
    setup(&r, "cp_async_lanes", 32);
    buf_rand(&r, WS_TYPE_UCHAR, 4096, 5, 0, 256);
    buf_zero(&r, WS_TYPE_UCHAR, 4096);
    arg_int(&r, k->size);
    arg_int(&r, k->sstride);
    arg_int(&r, k->dstride);
    arg_int(&r, k->zfill);
    run_ok(&r);
    const uint8_t *in = data(&r, 0), *out = data(&r, 1);
    static uint8_t want[4096];
    memset(want, 0xee, sizeof want);
    for (int l = 0; l < 32; l++) {
        int n = k->zfill ? l % (k->size + 1) : k->size;
        for (int b = 0; b < k->size; b++) want[l * k->dstride + b] = b < n ? in[l * k->sstride + b] : 0;
    }
    for (int i = 0; i < 4096; i++)
        if (out[i] != want[i]) fail_msg("size %d: shared byte %d is 0x%02x, want 0x%02x", k->size, i, out[i], want[i]);
    /* one global read (the lanes with bytes to read) and one shared write per instruction */
    const ws_mem_event *ev[4];
    assert_int_equal(events_of(&r, WS_KIND_LDGSTS, ev, 4), 2);
    assert_int_equal(ev[0]->space, WS_SPACE_GLOBAL);
    assert_int_equal(ev[1]->space, WS_SPACE_SHARED);
    assert_int_equal(ev[1]->op, WS_MEM_STORE);
    assert_int_equal(ev[1]->active_mask, 0xffffffffu);
    ws_coalesce_result co;
    ws_bank_result bk;
    ws_mem_verdict v;
    ws_models_geometry(ev[0], 0, &co, &bk, &v);
    assert_non_null(v.co);
    assert_int_equal(v.co->requests, 1);
    assert_int_equal(v.co->sectors, cp_sectors(k));
    assert_int_equal(v.co->sectors, want_sectors);
    ws_models_geometry(ev[1], 0, &co, &bk, &v);
    assert_non_null(v.bk);
    assert_int_equal(v.bk->wavefronts, want_wavefronts);
    teardown(&r);
}

static void test_cp_async_copies_zero_fills_and_costs_its_sectors_and_wavefronts(void **state)
{
    (void)state;
    /* Every copy here has a src-size operand (the zero-filling form, SASS LDGSTS...ZFILL): a
       16-byte lane that copies costs its writes twice, as the H200 counted (banks.h).
       32 lanes x 16 B contiguous = 512 B = 16 sectors; .cg: each quarter-warp one line into one
       128-B row, each sector one 32-B block: 4 wavefronts, twice: 8 */
    check_cp_async(&(cp_case){16, 16, 16, 0}, 16, 8);
    /* sources 32 B apart: one sector per lane, 32; destinations 128 B apart: a quarter-warp's
       8 lanes read 2 lines and write 8 rows, 8 wavefronts each, 32, twice: 64 */
    check_cp_async(&(cp_case){16, 32, 128, 0}, 32, 64);
    /* 4 B per lane, contiguous: 128 B = 4 sectors, one wavefront */
    check_cp_async(&(cp_case){4, 4, 4, 0}, 4, 1);
    /* 8 B, src-size l % 9: lanes 0, 9, 18, 27 read nothing; 256 B span 8 sectors, each still
       read by a lane; 8-byte shared writes: 2 wavefronts */
    check_cp_async(&(cp_case){8, 8, 8, 1}, 8, 2);
    /* 16 B with src-size l % 17: lanes 0 and 17 read no sector: 30 sectors of 32 apart; a
       quarter-warp's lanes read 2 lines (4 lanes each, a zero-filling lane going with the first)
       into one 128-B row: 2 wavefronts, 8; the 30 copying lanes again (each quarter-warp keeps
       both lines): 16 (the .cg rule on a pattern the H200 has not been asked about) */
    check_cp_async(&(cp_case){16, 32, 16, 1}, 30, 16);
}

static void test_cp_async_ignore_src_zero_fills_and_reads_nothing(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "cp_async_ignore", 32);
    buf_rand(&r, WS_TYPE_FLOAT, 128, 3, 1, 2);
    buf_zero(&r, WS_TYPE_FLOAT, 128);
    run_ok(&r);
    const float *in = data(&r, 0), *out = data(&r, 1);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) assert_true(out[l * 4 + i] == ((l & 1) ? 0.0f : in[l * 4 + i]));
    const ws_mem_event *ev[4];
    assert_int_equal(events_of(&r, WS_KIND_LDGSTS, ev, 4), 2);
    assert_int_equal(ev[0]->active_mask, 0x55555555u);   /* the even lanes read */
    teardown(&r);
}

/* Ten groups, the newest nine in flight: more than the quick test's ranges per warp, so the
 * bytes are walked; the oldest group's are complete, the next one's still in flight. */
static void test_a_read_of_one_of_nine_groups_in_flight_is_an_error_and_of_the_waited_one_is_not(void **state)
{
    (void)state;
    run_t r;
    for (int read = 0; read <= 1; read++) {
        setup_from(&r, "tests/data/tensor/cp_async_deep.ptx", "cp_async_deep", 32);
        buf_rand(&r, WS_TYPE_FLOAT, 128, 3, 1, 2);
        buf_zero(&r, WS_TYPE_FLOAT, 32);
        arg_int(&r, read);
        if (read == 0) {
            run_ok(&r);
            const float *in = data(&r, 0), *out = data(&r, 1);
            for (int l = 0; l < 32; l++) assert_true(out[l] == in[l * 4]);
        } else {
            assert_int_equal(run(&r), -1);
            assert_non_null(strstr(error_text(&r), "may not have written yet"));
        }
        teardown(&r);
    }
}

/* Three groups into two buffers: the third copy writes buffer 0 while group 0's may still be
 * landing there, so which value a later read sees is undefined (the PTX ISA orders cp.async only
 * through waits): an error naming both copies and the refill. Waiting for group 0 first is fine,
 * and the read after wait_all sees the third copy's data. */
static void test_a_cp_async_refilling_bytes_a_copy_in_flight_writes_is_an_error(void **state)
{
    (void)state;
    run_t r;
    for (int wait_first = 0; wait_first <= 1; wait_first++) {
        setup(&r, "cp_async_refill_in_flight", 32);
        buf_rand(&r, WS_TYPE_FLOAT, 96, 3, 1, 2);
        buf_zero(&r, WS_TYPE_FLOAT, 32);
        arg_int(&r, wait_first);
        if (!wait_first) {
            assert_int_equal(run(&r), -1);
            const char *msg = error_text(&r);
            if (!strstr(msg, "this cp.async writes shared memory at offset 0x0 that this warp's cp.async at line") ||
                !strstr(msg, "more stages in flight than buffers"))
                fail_msg("message: %s", msg);
        } else {
            run_ok(&r);
            const float *in = data(&r, 0), *out = data(&r, 1);
            for (int l = 0; l < 32; l++) assert_true(out[l] == in[64 + l]);
        }
        teardown(&r);
    }
}

static void test_reading_a_cp_async_destination_before_its_wait_is_an_error_naming_the_copy(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "cp_async_early_read", 32);
    buf_rand(&r, WS_TYPE_FLOAT, 128, 3, 1, 2);
    buf_zero(&r, WS_TYPE_FLOAT, 32);
    assert_int_equal(run(&r), -1);
    const char *msg = error_text(&r);
    assert_non_null(strstr(msg, "this warp's cp.async at line"));
    assert_non_null(strstr(msg, "wait"));
    teardown(&r);

    /* wait_group 1 after two groups: the older is complete, the newer still in flight */
    setup(&r, "cp_async_two_groups", 32);
    buf_rand(&r, WS_TYPE_FLOAT, 256, 3, 1, 2);
    buf_zero(&r, WS_TYPE_FLOAT, 96);
    arg_int(&r, 0);
    run_ok(&r);
    const float *in = data(&r, 0), *out = data(&r, 1);
    for (int l = 0; l < 32; l++) {
        assert_true(out[l] == in[l * 4]);
        assert_true(out[64 + l] == in[128 + l * 4]);
    }
    teardown(&r);
    setup(&r, "cp_async_two_groups", 32);
    buf_rand(&r, WS_TYPE_FLOAT, 256, 3, 1, 2);
    buf_zero(&r, WS_TYPE_FLOAT, 96);
    arg_int(&r, 1);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "may not have written yet"));
    teardown(&r);

    /* another warp's copy published by a barrier before that warp waited */
    setup(&r, "cp_async_barrier_without_wait", 64);
    buf_rand(&r, WS_TYPE_FLOAT, 128, 3, 1, 2);
    buf_zero(&r, WS_TYPE_FLOAT, 64);
    assert_int_equal(run(&r), -1);
    msg = error_text(&r);
    assert_non_null(strstr(msg, "warp 1"));                /* the reader */
    assert_non_null(strstr(msg, "warp 0's cp.async"));     /* the copy */
    teardown(&r);
}

/* Runs r through the H200's memory models into a memstats of its own (the caller frees both). */
typedef struct {
    ws_models *m;
    ws_memstats *ms;
} stats_run;

static stats_run run_with_stats(run_t *r)
{
    const ws_device *d = ws_device_find("h200");
    assert_non_null(d);
    stats_run s = {ws_models_new(d, &r->L, 32768), ws_memstats_new(d, &r->L, r->fn->ninsns)};
    assert_non_null(s.m);
    assert_non_null(s.ms);
    assert_int_equal(ws_models_add_sink(s.m, ws_memstats_verdict, s.ms), 0);
    r->cfg.listener = ws_models_listener;
    r->cfg.listener_ctx = s.m;
    assert_int_equal(ws_sim_run(&r->cfg, &r->res, &r->err), 0);
    ws_models_finish(s.m);
    ws_memstats_finish(s.ms, ws_models_cache_totals(s.m));
    return s;
}

static void stats_free(stats_run *s)
{
    ws_memstats_free(s->ms);
    ws_models_free(s->m);
}

/* cp_async_lanes with 32 lanes of 16-byte .cg copies, 16 bytes apart in global memory and dstride apart
 * in shared memory, through the models. */
static stats_run run_cg_copies(run_t *r, int dstride)
{
    setup(r, "cp_async_lanes", 32);
    buf_rand(r, WS_TYPE_UCHAR, 4096, 5, 0, 256);
    buf_zero(r, WS_TYPE_UCHAR, 4096);
    arg_int(r, 16);
    arg_int(r, 16);
    arg_int(r, dstride);
    arg_int(r, 0);
    return run_with_stats(r);
}

static void test_cp_async_is_counted_apart_from_plain_loads_and_stores(void **state)
{
    (void)state;
    run_t r;
    stats_run st = run_cg_copies(&r, 16);
    ws_memstats *ms = st.ms;
    const ws_mem_totals *t = ws_memstats_totals(ms);
    assert_int_equal(t->tc.ldgsts_global.inst, 1);
    assert_int_equal(t->tc.ldgsts_cg, 1);
    assert_int_equal(t->tc.ldgsts_global.sectors, 16);
    assert_int_equal(t->tc.ldgsts_shared.wavefronts, 8);  /* 4 quarter-warps one row each, twice (src-size) */
    /* the kernel's plain shared stores (the 0xee fill) and loads are its own; the copy is not among them */
    assert_int_equal(t->global[WS_MEM_LOAD].inst, 0);
    ws_metric rows[128];
    int n = ws_memstats_metrics(ms, rows, 128);
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(rows[i].name, "smsp__sass_inst_executed_op_ldgsts.sum")) { assert_true(rows[i].value == 1); found++; }
        if (!strcmp(rows[i].name, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum")) {
            assert_true(rows[i].value == 16);
            found++;
        }
    }
    assert_int_equal(found, 2);
    stats_free(&st);
    teardown(&r);
}

/* 32 lanes copy 16 bytes each with cp.async.cg, 16 bytes apart in global memory (512 B: 16 sectors, two
 * lanes a sector) and 32 bytes apart in shared memory: a sector's two lanes write two 32-byte blocks,
 * so each sector is read once per block, 32 reads. The L1 looks each one up, a miss (.cg allocates
 * nothing): on the H200 the lookup misses of the corpus's cp.async-only kernels equal ncu's global-load
 * sectors, these reads again included (wmmaAsyncKernel 15360 of 12288 distinct). */
static void test_a_cg_copy_reading_a_sector_again_looks_it_up_again(void **state)
{
    (void)state;
    run_t r;
    stats_run st = run_cg_copies(&r, 32);
    const ws_mem_totals *t = ws_memstats_totals(st.ms);
    assert_int_equal(t->global[WS_MEM_LOAD].sectors, 32);
    assert_int_equal(t->cache.l1_global_ld_hit, 0);
    assert_int_equal(t->cache.l1_global_ld_miss, 32);
    stats_free(&st);
    teardown(&r);
}

/* --- sub-byte mma.sync (s4/u4, b1) ----------------------------------------------------------- */

/* Runs subbyte_mma's form on A (4 words a lane), B (2 words a lane); D (4 words a lane) to d. */
static void run_subbyte(int form, const uint32_t *A, const uint32_t *B, uint32_t *d)
{
    run_t r;
    char pa[64], pb[64];
    setup(&r, "subbyte_mma", 32);
    buf_words(&r, A, 32 * 4, pa);
    buf_words(&r, B, 32 * 2, pb);
    buf_zero(&r, WS_TYPE_UINT, 32 * 4);
    arg_int(&r, form);
    run_ok(&r);
    memcpy(d, data(&r, 2), 32 * 4 * 4);
    teardown(&r);
    unlink(pa);
    unlink(pb);
}

static void fill_words(uint32_t *w, int n, uint32_t v)
{
    for (int i = 0; i < n; i++) w[i] = v;
}

/* Sums that hold whatever the layout: every s4 A element -1 (0xf) and B 2 over K = 64 give
 * 64 x -2; as u4 A is 15: 64 x 30; b1 rows of 256 ones AND ones: 256, XOR: 0, ones XOR zeros:
 * 256. Then the PTX ISA's m16n8k64 table places one element: lane 5's A register 2, nibble 3 is
 * a19 = row groupID 1, column threadID_in_group 1 x 8 + 3 + 32 = 43; with B all 1 only row 1 of
 * D is 1, which is lanes 4..7's c0 and c1. Lane 6's B register 1, nibble 2 is b10 = row 2 x 8 + 2
 * + 32 = 50, column groupID 1; with A all 1 only column 1 of D is 1: c1 and c3 of lanes 0, 4 .. 28. */
static void test_sub_byte_mma_sums_s4_u4_and_b1_as_the_ptx_isa_lays_them_out(void **state)
{
    (void)state;
    static uint32_t A[128], B[64], D[128];
    fill_words(A, 128, 0xffffffffu);
    fill_words(B, 64, 0x22222222u);
    run_subbyte(0, A, B, D);
    for (int i = 0; i < 128; i++) assert_int_equal((int32_t)D[i], 64 * -2);
    run_subbyte(1, A, B, D);
    for (int i = 0; i < 128; i++) assert_int_equal((int32_t)D[i], 64 * 30);
    fill_words(B, 64, 0xffffffffu);
    run_subbyte(2, A, B, D);
    for (int i = 0; i < 128; i++) assert_int_equal(D[i], 256);
    run_subbyte(3, A, B, D);
    for (int i = 0; i < 128; i++) assert_int_equal(D[i], 0);
    fill_words(B, 64, 0);
    run_subbyte(3, A, B, D);
    for (int i = 0; i < 128; i++) assert_int_equal(D[i], 256);
    run_subbyte(5, A, B, D);                      /* m8n8k128 xor: two D registers a lane */
    for (int l = 0; l < 32; l++) assert_int_equal(D[l * 4], 128), assert_int_equal(D[l * 4 + 1], 128);
    /* one A element */
    fill_words(A, 128, 0);
    A[5 * 4 + 2] = 1u << 12;
    fill_words(B, 64, 0x11111111u);
    run_subbyte(0, A, B, D);
    for (int l = 0; l < 32; l++)
        for (int r = 0; r < 4; r++)
            assert_int_equal(D[l * 4 + r], l >= 4 && l < 8 && r < 2 ? 1u : 0u);
    /* one B element */
    fill_words(A, 128, 0x11111111u);
    fill_words(B, 64, 0);
    B[6 * 2 + 1] = 1u << 8;
    run_subbyte(0, A, B, D);
    for (int l = 0; l < 32; l++)
        for (int r = 0; r < 4; r++)
            assert_int_equal(D[l * 4 + r], l % 4 == 0 && (r == 1 || r == 3) ? 1u : 0u);
}

/* Sub-byte wmma by what it computes in memory: A row-major (row i's K elements in 16 bytes, element
 * k at bit k*bits), B column-major (column j's likewise), D = A B row-major. s4 and u4 take the
 * nibbles as signed / unsigned, b1 sums the bits of the row XOR / AND the column. Random words:
 * a wrong fragment layout or register packing changes the sums. */
static void test_sub_byte_wmma_computes_the_matrix_product_in_memory(void **state)
{
    (void)state;
    for (int form = 0; form < 4; form++) {
        run_t r;
        setup(&r, "wmma_subbyte", 32);
        buf_rand(&r, WS_TYPE_UINT, 32, 21 + form, 0, 4294967296.0);
        buf_rand(&r, WS_TYPE_UINT, 32, 31 + form, 0, 4294967296.0);
        buf_zero(&r, WS_TYPE_INT, 64);
        arg_int(&r, form);
        run_ok(&r);
        const uint32_t *A = data(&r, 0), *B = data(&r, 1);
        const int32_t *D = data(&r, 2);
        int bits = form <= 1 ? 4 : 1, K = 128 / bits;
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                int64_t want = 0;
                for (int k = 0; k < K; k++) {
                    uint32_t ab = A[i * 4 + k * bits / 32] >> (k * bits % 32) & ((1u << bits) - 1);
                    uint32_t bb = B[j * 4 + k * bits / 32] >> (k * bits % 32) & ((1u << bits) - 1);
                    int64_t x = ab, y = bb;
                    if (form == 0) { x = (int64_t)(ab & 7) - (ab & 8); y = (int64_t)(bb & 7) - (bb & 8); }
                    want += form == 2 ? (x ^ y) : form == 3 ? (x & y) : x * y;
                }
                if (D[i * 8 + j] != want) fail_msg("form %d D(%d,%d) = %d, want %lld", form, i, j, D[i * 8 + j], (long long)want);
            }
        teardown(&r);
    }
}

/* --- mbarrier ---------------------------------------------------------------------------------- */

/* The PTX ISA makes mbarrier.init visible to other threads only through a barrier: with one, 64
 * threads arrive and the phase completes; without, warp 1 arrives on an object warp 0
 * initialised in the same barrier interval, and the run stops naming both. */
static void test_an_mbarrier_used_by_another_warp_with_no_barrier_after_its_init_is_an_error(void **state)
{
    (void)state;
    for (int sync = 1; sync >= 0; sync--) {
        run_t r;
        setup(&r, "mbarrier_init_order", 64);
        buf_zero(&r, WS_TYPE_UINT, 64);
        arg_int(&r, sync);
        if (sync) {
            run_ok(&r);
            const uint32_t *out = data(&r, 0);
            for (int t = 0; t < 64; t++) assert_int_equal(out[t], 1);
        } else {
            assert_int_equal(run(&r), -1);
            const char *e = error_text(&r);
            assert_non_null(strstr(e, "warp 1"));
            assert_non_null(strstr(e, "warp 0 initialised"));
            assert_non_null(strstr(e, "no barrier between"));
        }
        teardown(&r);
    }
}

static void test_mbarrier_phases_complete_when_every_arrival_and_every_byte_is_in(void **state)
{
    (void)state;
    for (int tx = 0; tx <= 1; tx++) {
        run_t r;
        setup(&r, "mbarrier_rounds", 64);           /* two warps: one waits while the other arrives */
        buf_zero(&r, WS_TYPE_UINT, 64 * 4);
        arg_int(&r, tx ? 4096 : 0);
        arg_int(&r, 0);
        run_ok(&r);
        const uint32_t *out = data(&r, 0);
        for (int t = 0; t < 64; t++) {
            assert_int_equal(out[t * 4 + 0], 0);    /* phase 0 not complete before the arrivals */
            assert_int_equal(out[t * 4 + 1], 1);    /* ... and complete after the wait */
            assert_int_equal(out[t * 4 + 2], 1);    /* test_wait on the state of an arrival in phase 0 */
            assert_int_equal(out[t * 4 + 3], 1);    /* phase 1 completes after the second round */
        }
        teardown(&r);
    }
    /* expected bytes that never arrive: the phase never completes and the waiting loop spins
       until the instruction budget stops it */
    run_t r;
    setup(&r, "mbarrier_rounds", 64);
    buf_zero(&r, WS_TYPE_UINT, 64 * 4);
    arg_int(&r, 4096);
    arg_int(&r, 1);
    r.cfg.max_thread_insns = 200000;
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "budget"));
    teardown(&r);
}

/* --- bulk copies and tensor maps ------------------------------------------------------------- */

/* bulk_copy on 1024 random floats, copying n bytes in, back out and out again. */
static void setup_bulk_copy(run_t *r, int n)
{
    setup(r, "bulk_copy", 64);
    buf_rand(r, WS_TYPE_FLOAT, 1024, 3, -1, 1);
    buf_zero(r, WS_TYPE_FLOAT, 1024);
    buf_zero(r, WS_TYPE_FLOAT, 1024);
    arg_int(r, n);
}

static void test_a_bulk_copy_lands_on_its_mbarrier_and_a_bulk_store_writes_it_back(void **state)
{
    (void)state;
    run_t r;
    setup_bulk_copy(&r, 4096);
    run_ok(&r);
    const float *in = data(&r, 0), *out = data(&r, 1), *out2 = data(&r, 2);
    for (int i = 0; i < 1024; i++) {
        assert_true(out[i] == in[i]);
        assert_true(out2[i] == in[i]);
    }
    /* the copy in: 4096 bytes = 256 16-byte chunks = 8 events on each side, numbered 0..7 */
    const ws_mem_event *ev[64];
    int n = events_of(&r, WS_KIND_BULK, ev, 64);
    assert_int_equal(n, 32);                    /* 8 + 8 in, 8 + 8 out */
    for (int i = 0; i < 8; i++) {
        assert_int_equal(ev[i]->space, WS_SPACE_GLOBAL);
        assert_int_equal(ev[i]->part, (uint32_t)i);
        assert_int_equal(ev[8 + i]->space, WS_SPACE_SHARED);
        assert_int_equal(ev[8 + i]->op, WS_MEM_STORE);
    }
    uint64_t base = r.res.buffer_base[0];
    for (int l = 0; l < 32; l++) assert_int_equal(ev[1]->addr[l], base + 512 + 16 * (uint64_t)l);
    teardown(&r);
    /* a size that is not a multiple of 16 faults */
    setup_bulk_copy(&r, 4092);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "multiple of 16"));
    teardown(&r);
}

/* ncu counts a plain cp.async.bulk (UBLKCP) under the TMA rows: one instruction per copy and the
 * 32-byte sectors its global side reads (H200, cuda-samples' LargeChunkAWBarrier: 524,288 copies
 * of 16 bytes, 16,777,216 bytes). bulk_copy's copy in reads 4096 aligned bytes: 128 sectors; its
 * copy out (shared -> global) is no load. */
static void test_a_bulk_copy_counts_as_one_tma_load_reading_its_sectors(void **state)
{
    (void)state;
    run_t r;
    setup_bulk_copy(&r, 4096);
    stats_run st = run_with_stats(&r);
    ws_metric rows[160];
    int n = ws_memstats_metrics(st.ms, rows, 160), found = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(rows[i].name, "smsp__sass_inst_executed_op_tma_ld.sum")) { assert_true(rows[i].value == 1); found++; }
        if (!strcmp(rows[i].name, "smsp__sass_inst_executed_op_tma_st.sum")) { assert_true(rows[i].value == 1); found++; }
        if (!strcmp(rows[i].name, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum")) {
            assert_true(rows[i].value == 4096);
            found++;
        }
    }
    assert_int_equal(found, 3);
    stats_free(&st);
    teardown(&r);
}

/* The L1 data path's time counts what passes the LSU data pipe. bulk_copy's copy in (4096 bytes global ->
 * shared) is written by the TMA unit, past it: no wavefront (the H200 ran mma_tma's 8 KB k-tiles with 1.9
 * LSU wavefronts, results/h200-tma-cpasync). Its copy out keeps one per 128-B line: 32. The loop between
 * them, 32 warp LDS of 128 B (one wavefront each) and 32 STG of one line each: 64. */
static void test_a_bulk_copy_into_shared_takes_no_lsu_data_path_wavefronts(void **state)
{
    (void)state;
    run_t r;
    setup_bulk_copy(&r, 4096);
    stats_run st = run_with_stats(&r);
    uint64_t l1 = 0, shared = 0;
    for (int sm = 0; sm < ws_memstats_sm_count(st.ms); sm++) {
        l1 += ws_memstats_sm(st.ms, sm)->l1_wavefronts;
        shared += ws_memstats_sm(st.ms, sm)->shared_wavefronts;
    }
    assert_int_equal(shared, 32);
    assert_int_equal(l1, 32 + 32 + 32);
    stats_free(&st);
    teardown(&r);
}

/* The shared image of a box as the swizzle modes are documented ("swizzle 16-byte chunks within
 * a 32/64/128-byte span"): the pattern repeats every 256/512/1024 bytes, whose 128-byte lines
 * L = 0..7 have the 16-byte chunk c of each span-sized segment moved to c ^ (L / (8 / chunks)),
 * chunks = span / 16 per segment; written out per line and chunk, not as address bits. */
static uint64_t documented_swizzle(uint64_t off, int span)
{
    if (!span) return off;
    int chunks = span / 16;                         /* 2, 4, 8 */
    uint64_t block = (uint64_t)chunks * 128;        /* 256, 512, 1024 */
    uint64_t in_block = off % block, line = in_block / 128;
    uint64_t seg = in_block % 128 / (uint64_t)span, c = in_block % (uint64_t)span / 16, b = off % 16;
    uint64_t x = line % (uint64_t)chunks;           /* lines 0.. of the block, one XOR value each */
    return off - in_block + line * 128 + seg * (uint64_t)span + ((c ^ x) * 16) + b;
}

static void check_tma(int swizzle, uint32_t box0, uint32_t box1, int c0, int c1)
{
    const uint64_t W = 96, H = 40;                 /* a 96 x 40 tensor of 4-byte elements */
    run_t r;
    setup(&r, "tma_box", 128);
    r.L.ntmaps = 1;
    ws_tmap *t = &r.L.tmaps[0];
    memset(t, 0, sizeof *t);
    r.L.args[r.L.nargs].kind = WS_ARG_TMAP;
    r.L.args[r.L.nargs++].buffer = 0;
    buf_rand(&r, WS_TYPE_UINT, W * H, 21, 1, 4294967296.0);   /* never 0: a fill shows */
    t->buffer = 0;
    t->rank = 2;
    t->elem_size = 4;
    t->dims[0] = W; t->dims[1] = H;
    t->strides[0] = 4; t->strides[1] = W * 4;
    t->box[0] = box0; t->box[1] = box1;
    t->swizzle = swizzle;
    char why[200];
    assert_int_equal(ws_tmap_check(t, W * H * 4, why, sizeof why), 0);
    /* the map is argument 0; the buffers follow it */
    r.L.args[0].kind = WS_ARG_TMAP;
    r.L.args[0].buffer = 0;
    r.L.args[1].kind = WS_ARG_BUFFER;
    r.L.args[1].buffer = 0;
    r.L.nargs = 2;
    uint32_t bytes = box0 * box1 * 4;
    buf_zero(&r, WS_TYPE_UCHAR, 8192);          /* out: buffer 1, argument 2 */
    r.L.args[1].buffer = 1;
    r.L.nargs = 2;
    arg_int(&r, c0);
    arg_int(&r, c1);
    arg_int(&r, bytes);
    arg_int(&r, 0);
    run_ok(&r);
    const uint32_t *g = data(&r, 0);
    const uint8_t *out = data(&r, 1);
    for (uint32_t i1 = 0; i1 < box1; i1++)
        for (uint32_t i0 = 0; i0 < box0; i0++) {
            int64_t x = c0 + (int64_t)i0, y = c1 + (int64_t)i1;
            uint32_t want = x >= 0 && y >= 0 && (uint64_t)x < W && (uint64_t)y < H ? g[y * (int64_t)W + x] : 0;
            uint64_t at = documented_swizzle(((uint64_t)i1 * box0 + i0) * 4, swizzle);
            uint32_t got;
            memcpy(&got, out + at, 4);
            if (got != want)
                fail_msg("swizzle %d box %ux%u at (%d,%d): element (%u,%u) at byte %llu is 0x%08x, want 0x%08x", swizzle,
                         box0, box1, c0, c1, i0, i1, (unsigned long long)at, got, want);
        }
    teardown(&r);
}

static void test_a_tma_box_is_laid_out_in_shared_memory_as_each_swizzle_mode_is_documented(void **state)
{
    (void)state;
    check_tma(0, 24, 8, 8, 4);                     /* no swizzle: the dense box */
    check_tma(128, 32, 16, 32, 8);                 /* 128-byte rows, 16 of them */
    check_tma(64, 16, 16, 0, 0);                   /* 64-byte rows */
    check_tma(32, 8, 32, 64, 4);                   /* 32-byte rows */
    check_tma(128, 32, 8, 80, 36);                 /* past the right and the bottom edge: zero fill */
    check_tma(64, 16, 8, -8, -3);                  /* before the left and the top edge */
}

static void test_reading_a_tma_box_before_its_mbarrier_phase_ends_is_an_error(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "tma_box", 128);
    r.L.ntmaps = 1;
    ws_tmap *t = &r.L.tmaps[0];
    memset(t, 0, sizeof *t);
    buf_rand(&r, WS_TYPE_UINT, 96 * 40, 21, 1, 100);
    buf_zero(&r, WS_TYPE_UCHAR, 8192);
    t->rank = 2; t->elem_size = 4; t->dims[0] = 96; t->dims[1] = 40; t->strides[0] = 4; t->strides[1] = 384;
    t->box[0] = 32; t->box[1] = 8; t->swizzle = 128;
    r.L.args[0] = (ws_arg){WS_ARG_TMAP, 0, 0, 0};
    r.L.args[1] = (ws_arg){WS_ARG_BUFFER, 1, 0, 0};
    r.L.nargs = 2;
    arg_int(&r, 0);
    arg_int(&r, 0);
    arg_int(&r, 32 * 8 * 4);
    arg_int(&r, 1);                              /* early */
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "may not have written yet: wait for the phase of its mbarrier"));
    teardown(&r);
}

static void test_tensor_map_rules_are_the_drivers(void **state)
{
    (void)state;
    ws_tmap t;
    memset(&t, 0, sizeof t);
    t.rank = 2; t.elem_size = 2; t.dims[0] = 256; t.dims[1] = 64; t.strides[0] = 2; t.strides[1] = 512;
    t.box[0] = 64; t.box[1] = 64; t.swizzle = 128;
    char why[200];
    assert_int_equal(ws_tmap_check(&t, 256 * 64 * 2, why, sizeof why), 0);
    t.box[0] = 128;                              /* 256-byte rows with a 128-byte swizzle */
    assert_int_equal(ws_tmap_check(&t, 256 * 64 * 2, why, sizeof why), -1);
    assert_non_null(strstr(why, "at most 128 bytes"));
    t.box[0] = 4;                                /* 8 bytes: not a multiple of 16 */
    assert_int_equal(ws_tmap_check(&t, 256 * 64 * 2, why, sizeof why), -1);
    t.box[0] = 64; t.strides[1] = 520;           /* stride not a multiple of 16 */
    assert_int_equal(ws_tmap_check(&t, 1 << 20, why, sizeof why), -1);
    t.strides[1] = 512;
    assert_int_equal(ws_tmap_check(&t, 256 * 64 * 2 - 2, why, sizeof why), -1); /* buffer too small */
    assert_non_null(strstr(why, "spans"));
    /* the simulator's image reads back as the same map */
    uint8_t img[WS_TMAP_BYTES];
    ws_tmap back;
    uint64_t base;
    ws_tmap_image(&t, 0x100001000ull, img);
    assert_int_equal(ws_tmap_from_image(img, &back, &base), 0);
    assert_int_equal(base, 0x100001000ull);
    assert_int_equal(back.rank, 2);
    assert_int_equal(back.dims[1], 64);
    assert_int_equal(back.strides[1], 512);
    assert_int_equal(back.box[0], 64);
    assert_int_equal(back.swizzle, 128);
    img[0] ^= 1;
    assert_int_equal(ws_tmap_from_image(img, &back, &base), -1);
}

/* --- wgmma, clusters -------------------------------------------------------------------------- */

#define HOPPER "tests/data/tensor/hopper.ptx"

/* wgmma runs (tests/test_wgmma.c has its forms); this kernel's descriptors are 0 in a block with no
 * shared memory at all, so it stops at the wgmma naming the descriptor. */
static void test_wgmma_with_descriptors_into_a_block_without_shared_memory_faults(void **state)
{
    (void)state;
    run_t r;
    setup_from(&r, HOPPER, "wgmma_64x64", 128);
    buf_zero(&r, WS_TYPE_FLOAT, 128 * 32);
    arg_int(&r, 0);
    arg_int(&r, 0);
    assert_int_equal(run(&r), -1);
    const char *msg = error_text(&r);
    assert_non_null(strstr(msg, "the matrix descriptor of A (0x0000000000000000"));
    assert_non_null(strstr(msg, "outside the block's 0 bytes of shared memory"));
    teardown(&r);
}

static void test_without_a_cluster_launch_every_block_is_a_cluster_of_one(void **state)
{
    (void)state;
    run_t r;
    setup_from(&r, HOPPER, "cluster_of_one", 64);
    r.L.grid[0] = 3;
    buf_zero(&r, WS_TYPE_UINT, 3 * 64 * 8);
    run_ok(&r);
    const uint32_t *o = data(&r, 0);
    for (uint32_t b = 0; b < 3; b++)
        for (uint32_t t = 0; t < 64; t++) {
            const uint32_t *x = o + (b * 64 + t) * 8;
            assert_int_equal(x[0], 0);                       /* %cluster_ctarank */
            assert_int_equal(x[1], 1);                       /* %cluster_nctarank */
            assert_int_equal(x[2], b);                       /* %clusterid.x = the block */
            assert_int_equal(x[3], b);
            assert_int_equal(x[4], 1);                       /* elect: the lowest lane of 0xfffffffe (a laneid) */
            assert_int_equal(x[5], (t & 31) == 1);
            assert_int_equal(x[6], 100 + t);                 /* mapa to rank 0: its own word */
            assert_int_equal(x[7], 100 + (t + 32) % 64);     /* the other warp's, after barrier.cluster */
        }
    teardown(&r);
    /* a kernel with __cluster_dims__(2, 1, 1) runs in clusters of two: its grid must be whole clusters */
    setup_from(&r, HOPPER, "cluster_of_two", 32);
    r.L.grid[0] = 3;
    buf_zero(&r, WS_TYPE_UINT, 96);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "grid.x = 3 is not a multiple of the cluster's x = 2"));
    teardown(&r);
}

static void test_a_cluster_of_two_exchanges_shared_memory_through_mapa_and_cluster_barriers(void **state)
{
    (void)state;
    run_t r;
    setup_from(&r, HOPPER, "cluster_swap", 64);
    r.L.grid[0] = 4;                               /* two clusters of two */
    buf_zero(&r, WS_TYPE_UINT, 4 * 64 * 8);
    run_ok(&r);
    const uint32_t *o = data(&r, 0);
    for (uint32_t b = 0; b < 4; b++)
        for (uint32_t t = 0; t < 64; t++) {
            const uint32_t *x = o + (b * 64 + t) * 8;
            uint32_t partner = b ^ 1;              /* the other block of its cluster */
            assert_int_equal(x[0], 1000 * partner + t);              /* stored there by the partner */
            assert_int_equal(x[1], 1000 * b + (t + 1) % 64);         /* its own store, read from the partner */
            assert_int_equal(x[2], b % 2);                           /* %cluster_ctarank */
            assert_int_equal(x[3], b / 2);                           /* %clusterid.x */
            assert_int_equal(x[4], b % 2);                           /* %cluster_ctaid.x */
            assert_int_equal(x[5], 2);                               /* %nclusterid.x */
            assert_int_equal(x[6], 2);                               /* %cluster_nctarank */
            assert_int_equal(x[7], 1);                               /* %is_explicit_cluster */
        }
    /* the remote store and load are distributed shared memory events: 2 per warp, on the partner */
    int remote = 0;
    for (int i = 0; i < r.cap.n; i++) {
        const ws_mem_event *ev = &r.cap.ev[i];
        if (!ev->dsmem) continue;
        assert_int_equal(ev->space, WS_SPACE_SHARED);
        assert_int_equal(ev->dsmem, 1 + ((ev->block_linear % 2) ^ 1));
        remote++;
    }
    assert_int_equal(remote, 4 * 2 * 2);           /* 4 blocks x 2 warps x (store + load) */
    teardown(&r);
    /* a block that exits while its partner still reads its shared memory: named */
    setup_from(&r, HOPPER, "cluster_read_after_exit", 64);
    r.L.grid[0] = 2;
    buf_zero(&r, WS_TYPE_UINT, 128);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "block rank 0 of the cluster, which has exited"));
    teardown(&r);
}

/* --- TMA multicast and remote mbarriers (tests/data/tensor/multicast.ptx, clusters of two) ----- */
#define MCAST "tests/data/tensor/multicast.ptx"

/* A 64 x 8 box of 4-byte elements at (c0, c1) of a 96 x 40 tensor, rank 0 multicasting it to the
 * ranks of mask: each masked block's shared box (no swizzle: dense, row after row) is the tensor's
 * elements there, every other block's is untouched (its copy-out then faults on the poisoned,
 * never-completed mbarrier wait, so mask 1 is not run here). */
static void check_multicast(uint32_t mask, int c0, int c1, run_t *r)
{
    const uint64_t W = 96, H = 40;
    const uint32_t B0 = 32, B1 = 8, bytes = B0 * B1 * 4;
    setup_from(r, MCAST, "tma_multicast", 32);
    r->L.grid[0] = 2;
    r->L.ntmaps = 1;
    ws_tmap *t = &r->L.tmaps[0];
    memset(t, 0, sizeof *t);
    r->L.args[r->L.nargs].kind = WS_ARG_TMAP;
    r->L.args[r->L.nargs++].buffer = 0;
    buf_rand(r, WS_TYPE_UINT, W * H, 5, 1, 4294967296.0);     /* never 0 */
    t->buffer = 0;
    t->rank = 2;
    t->elem_size = 4;
    t->dims[0] = W; t->dims[1] = H;
    t->strides[0] = 4; t->strides[1] = W * 4;
    t->box[0] = B0; t->box[1] = B1;
    char why[200];
    assert_int_equal(ws_tmap_check(t, W * H * 4, why, sizeof why), 0);
    r->L.args[0] = (ws_arg){WS_ARG_TMAP, 0, 0, 0};
    r->L.args[1].kind = WS_ARG_BUFFER;
    r->L.args[1].buffer = 1;
    r->L.nargs = 2;
    buf_zero(r, WS_TYPE_UCHAR, 2 * 4096);
    r->L.args[1].buffer = 1;
    r->L.nargs = 2;
    arg_int(r, c0);
    arg_int(r, c1);
    arg_int(r, bytes);
    arg_int(r, mask);
}

static void test_a_multicast_tma_copy_lands_in_every_masked_block_and_completes_each_blocks_mbarrier(void **state)
{
    (void)state;
    run_t r;
    check_multicast(3, 40, 36, &r);                /* past the bottom edge: rows 40.. are zero fill */
    run_ok(&r);
    const uint32_t *g = data(&r, 0);
    const uint8_t *out = data(&r, 1);
    for (int b = 0; b < 2; b++)
        for (uint32_t i1 = 0; i1 < 8; i1++)
            for (uint32_t i0 = 0; i0 < 32; i0++) {
                int64_t x = 40 + i0, y = 36 + i1;
                uint32_t want = y < 40 ? g[y * 96 + x] : 0, got;
                memcpy(&got, out + b * 4096 + (i1 * 32 + i0) * 4, 4);
                if (got != want) fail_msg("block %d element (%u,%u): 0x%08x, want 0x%08x", b, i0, i1, got, want);
            }
    /* counted once as an instruction and a global read, written into both blocks' shared memory:
       1024 bytes = 64 chunks; rows 40.. are not read (4 of 8 rows: 32 chunks, one event of 32 on
       the global side), 2 events per block on the shared side; rank 1's name its window (dsmem 2) */
    const ws_mem_event *ev[16];
    int n = events_of(&r, WS_KIND_TMA, ev, 16);
    assert_int_equal(n, 5);
    assert_int_equal(ev[0]->space, WS_SPACE_GLOBAL);
    assert_int_equal(ev[0]->active_mask, 0xffffffffu);
    assert_int_equal(ev[0]->copies, 2);              /* it lands in both blocks (ncu's xbar bytes count each) */
    for (int i = 1; i < 5; i++) {
        assert_int_equal(ev[i]->space, WS_SPACE_SHARED);
        assert_int_equal(ev[i]->op, WS_MEM_STORE);
        assert_int_equal(ev[i]->active_mask, 0xffffffffu);
        assert_int_equal(ev[i]->block_linear, 0);    /* rank 0 issued it */
        assert_int_equal(ev[i]->dsmem, i < 3 ? 0 : 2);
    }
    teardown(&r);
    /* a mask naming rank 2 of a cluster of two, and a mask of 0, are errors naming the mask */
    check_multicast(5, 0, 0, &r);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "ctaMask 0x0005 names block rank 2 of the cluster, which has 2 blocks"));
    teardown(&r);
    check_multicast(0, 0, 0, &r);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "ctaMask 0 lands in no block"));
    teardown(&r);
}

static void test_threads_arrive_on_another_blocks_mbarrier_through_a_mapa_address(void **state)
{
    (void)state;
    run_t r;
    setup_from(&r, MCAST, "remote_arrive", 32);
    r.L.grid[0] = 2;
    buf_zero(&r, WS_TYPE_UINT, 4);
    run_ok(&r);
    const uint32_t *x = data(&r, 0);
    assert_int_equal(x[0], 1);                     /* rank 0's phase 0 ended: 1 own + 2 remote arrivals */
    assert_int_equal(x[1], 2);                     /* rank 1's, with its own one */
    assert_int_equal(x[2], 3);                     /* the next phases wait for the init counts again */
    assert_int_equal(x[3], 1);
    teardown(&r);
}

static void test_a_bulk_copy_to_a_mapa_address_lands_in_that_block_with_its_mbarrier(void **state)
{
    (void)state;
    for (int same = 1; same >= 0; same--) {
        run_t r;
        setup_from(&r, MCAST, "bulk_remote", 64);
        r.L.grid[0] = 2;
        buf_rand(&r, WS_TYPE_UINT, 64, 9, 1, 4294967296.0);
        buf_zero(&r, WS_TYPE_UINT, 64);
        arg_int(&r, same);
        if (same) {
            run_ok(&r);
            const uint32_t *in = data(&r, 0), *out = data(&r, 1);
            for (int i = 0; i < 64; i++) assert_int_equal(out[i], in[i]);
            const ws_mem_event *ev[8];
            int n = events_of(&r, WS_KIND_BULK, ev, 8);
            assert_int_equal(n, 2);                    /* 16 chunks: one event each side */
            assert_int_equal(ev[1]->space, WS_SPACE_SHARED);
            assert_int_equal(ev[1]->dsmem, 2);         /* rank 1's window */
        } else {
            /* the mbarrier in rank 0, the destination in rank 1 */
            assert_int_equal(run(&r), -1);
            assert_non_null(strstr(error_text(&r), "destination is in block rank 1 of the cluster and its mbarrier in block rank 0"));
        }
        teardown(&r);
    }
}

/* A warp in a try_wait loop waits for another warp's arrival. On the GPU the try_wait suspends it
 * until the phase completes (PTX ISA: a potentially blocking instruction), so it runs the loop once:
 * the try that succeeds and the branch out. The round robin makes it retry instead, as often as its
 * slices come round before warp 1 arrives; those retries are pc_spin_count, and the counts less them
 * are the one pass. A test_wait returns at once, so its spins are the kernel's own: none set aside. */
static void test_a_try_wait_loops_retries_are_counted_apart_from_its_one_pass(void **state)
{
    (void)state;
    for (int blocking = 1; blocking >= 0; blocking--) {
        char text[2048];
        snprintf(text, sizeof text, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                 ".reg .pred %%p<6>;\n.reg .b32 %%r<6>;\n.reg .b64 %%rd<3>;\n.shared .align 8 .b64 bar;\n"
                 "mov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, bar;\nsetp.ne.s32 %%p1, %%r1, 0;\n@%%p1 bra $L_sync;\n"
                 "mbarrier.init.shared.b64 [%%r2], 1;\n$L_sync:\nbar.sync 0;\n"
                 "setp.lt.u32 %%p2, %%r1, 32;\n@%%p2 bra $L_wait;\n"
                 "mov.u32 %%r3, 0;\n$L_work:\nadd.s32 %%r3, %%r3, 1;\nsetp.lt.s32 %%p3, %%r3, 300;\n"
                 "@%%p3 bra $L_work;\nsetp.ne.s32 %%p4, %%r1, 32;\n@%%p4 bra $L_done;\n"
                 "mbarrier.arrive.shared.b64 %%rd1, [%%r2];\nbra.uni $L_done;\n"
                 "$L_wait:\nmbarrier.%s.parity.shared.b64 %%p5, [%%r2], 0;\n@!%%p5 bra $L_wait;\n"
                 "$L_done:\nret;\n}\n", blocking ? "try_wait" : "test_wait");
        ws_error e;
        run_t r;
        memset(&r, 0, sizeof r);
        r.mod = ptx_parse("wait.ptx", text, &e);
        if (!r.mod) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
        r.fn = ptx_find_function(r.mod, "k");
        assert_non_null(r.fn);
        r.L.grid[0] = r.L.grid[1] = r.L.grid[2] = 1;
        r.L.block[0] = 64; r.L.block[1] = r.L.block[2] = 1;
        r.cfg.module = r.mod;
        r.cfg.fn = r.fn;
        r.cfg.launch = &r.L;
        r.cfg.source_file = "wait.cu";
        run_ok(&r);
        int wait = -1;
        for (int pc = 0; pc < r.fn->ninsns; pc++)
            if (r.fn->insns[pc].op == PTX_MBAR_TRY_WAIT || r.fn->insns[pc].op == PTX_MBAR_TEST_WAIT) wait = pc;
        assert_true(wait > 0);
        /* warp 1's 900 instructions of work span several slices: warp 0 tried more than once */
        assert_true(r.res.pc_warp_count[wait] > 2);
        if (blocking) {
            assert_non_null(r.res.pc_spin_count);
            assert_int_equal(r.res.pc_warp_count[wait] - r.res.pc_spin_count[wait], 1);         /* one try */
            assert_int_equal(r.res.pc_warp_count[wait + 1] - r.res.pc_spin_count[wait + 1], 1); /* one branch out */
            for (int pc = 0; pc < wait; pc++) assert_int_equal(r.res.pc_spin_count[pc], 0);    /* nothing outside */
        } else {
            assert_null(r.res.pc_spin_count);
        }
        teardown(&r);
    }
}

static void test_a_wait_on_another_blocks_mbarrier_is_refused(void **state)
{
    (void)state;
    ws_error e;
    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .pred %p<2>;\n"
                      ".reg .b32 %r<2>;\nmbarrier.try_wait.parity.shared::cluster.b64 %p1, [%r1], 0;\nret;\n}\n";
    /* the function is refused at the instruction's line (the module's other kernels still run) */
    ptx_module *m = ptx_parse("bad.ptx", bad, &e);
    assert_non_null(m);
    const ptx_function *f = ptx_find_function(m, "k");
    assert_non_null(f);
    assert_non_null(f->refusal);
    assert_int_equal(f->refusal->line, 8);
    assert_non_null(strstr(f->refusal->msg, "takes only arrive"));
    ptx_free(m);
    const char *sink = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b64 %rd<2>;\n"
                       ".reg .b32 %r<2>;\nmbarrier.arrive.shared::cluster.b64 %rd1, [%r1];\nret;\n}\n";
    m = ptx_parse("bad.ptx", sink, &e);
    assert_non_null(m);
    f = ptx_find_function(m, "k");
    assert_non_null(f->refusal);
    assert_non_null(strstr(f->refusal->msg, "its destination must be _"));
    ptx_free(m);
}

/* racecheck on cluster launches: the blocks of a cluster checked together. The three cluster kernels
 * order every cross-block access with barrier.cluster (clean); cluster_swap without its middle
 * barrier lets block r's remote store into its partner's s[t] (line 75) race with the partner's
 * own read of s[t] (line 77): a hazard between two blocks, whichever ran first. */
static int racecheck_run(run_t *r, int *hazards)
{
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    r->rc = ws_sim_run_racecheck(&r->cfg, &r->res, &r->err, devnull, hazards);
    fclose(devnull);
    return r->rc;
}

static void test_racecheck_follows_a_clusters_blocks_together(void **state)
{
    (void)state;
    run_t r;
    int hz = -1;
    setup_from(&r, HOPPER, "cluster_swap", 64);
    r.L.grid[0] = 4;
    buf_zero(&r, WS_TYPE_UINT, 4 * 64 * 8);
    assert_int_equal(racecheck_run(&r, &hz), 0);
    assert_int_equal(hz, 0);
    teardown(&r);
    setup_from(&r, HOPPER, "cluster_sum", 64);
    r.L.grid[0] = 16;
    r.L.cluster[0] = 4;
    r.L.cluster[1] = r.L.cluster[2] = 1;
    buf_rand(&r, WS_TYPE_UINT, 16 * 64, 3, 0, 100);
    buf_zero(&r, WS_TYPE_UINT, 4);
    assert_int_equal(racecheck_run(&r, &hz), 0);
    assert_int_equal(hz, 0);
    teardown(&r);
    setup_from(&r, HOPPER, "cluster_of_one", 64);       /* barrier.cluster orders a cluster of one's warps */
    r.L.grid[0] = 2;
    buf_zero(&r, WS_TYPE_UINT, 2 * 64 * 8);
    assert_int_equal(racecheck_run(&r, &hz), 0);
    assert_int_equal(hz, 0);
    teardown(&r);

    /* the same PTX with cluster_swap's second barrier.cluster (after the remote store) taken out */
    size_t len;
    ws_error e;
    char *text = ws_read_file(HOPPER, 0, &len, &e);
    assert_non_null(text);
    char *fn = strstr(text, ".entry cluster_swap(");
    assert_non_null(fn);
    const char *bar = "barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;";
    char *p = strstr(fn, bar);
    assert_non_null(p);
    memset(p, ' ', strlen(bar));
    memset(&r, 0, sizeof r);
    r.mod = ptx_parse(HOPPER, text, &e);
    free(text);
    if (!r.mod) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
    r.fn = ptx_find_function(r.mod, "cluster_swap");
    r.L.grid[0] = 2;
    r.L.grid[1] = r.L.grid[2] = 1;
    r.L.block[0] = 64;
    r.L.block[1] = r.L.block[2] = 1;
    r.cfg.module = r.mod;
    r.cfg.fn = r.fn;
    r.cfg.launch = &r.L;
    r.cfg.source_file = "hopper.cu";
    buf_zero(&r, WS_TYPE_UINT, 2 * 64 * 8);
    ws_racecheck *rc = ws_racecheck_new(r.L.block);
    const uint32_t cl2[3] = {2, 1, 1};
    assert_int_equal(ws_racecheck_set_cluster(rc, r.L.grid, cl2), 0);
    ws_racecheck_attach(rc, &r.cfg);
    assert_int_equal(ws_sim_run(&r.cfg, &r.res, &r.err), 0);
    bool cross = false;
    for (int i = 0; i < ws_racecheck_count(rc); i++) {
        const ws_race *h = ws_racecheck_get(rc, i);
        if (!h->cross_block) continue;
        int lo = h->first.src_line < h->second.src_line ? h->first.src_line : h->second.src_line;
        int hi = h->first.src_line < h->second.src_line ? h->second.src_line : h->first.src_line;
        assert_int_equal(lo, 75);                        /* the remote store ... */
        assert_int_equal(hi, 77);                        /* ... and the owner's read of that word */
        assert_true(h->kind == WS_RACE_RAW || h->kind == WS_RACE_WAR);
        assert_int_not_equal(h->first.rank, h->second.rank);
        assert_int_equal(h->interval, 1);               /* after the first barrier.cluster */
        char buf[1024];
        ws_racecheck_format(rc, i, "hopper.cu", "cluster_swap", buf, sizeof buf);
        assert_non_null(strstr(buf, "on distributed shared memory"));
        assert_non_null(strstr(buf, "with no barrier.cluster (cluster.sync()) between"));
        cross = true;
    }
    assert_true(cross);
    ws_racecheck_free(rc);
    teardown(&r);
}

/* tests/gpu/cluster_swap.cu describes test_tensor's cluster_swap for `check` on a GPU: its launch,
 * run on the same kernel's PTX (the bodies are the same text), exchanges as the kernel says and is
 * clean under racecheck. */
static void test_the_cluster_swap_description_launches_the_exchange(void **state)
{
    (void)state;
    ws_desc_file *f = NULL;
    ws_error e;
    if (ws_desc_load("tests/gpu/cluster_swap.cu", &f, &e)) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
    assert_int_equal(f->nkernels, 1);
    run_t r;
    setup_from(&r, HOPPER, "cluster_swap", 64);
    if (ws_desc_resolve(&f->kernels[0], NULL, &r.L, &e)) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
    assert_int_equal(r.L.grid[0], 4);                    /* CLUSTERS = 2 clusters of two */
    assert_int_equal(r.L.block[0], 64);
    assert_int_equal(r.L.nbuffers, 1);
    assert_int_equal(r.L.buffers[0].count, 4 * 64 * 8);
    int hz = -1;
    assert_int_equal(racecheck_run(&r, &hz), 0);
    assert_int_equal(hz, 0);
    const uint32_t *o = data(&r, 0);
    for (uint32_t b = 0; b < 4; b++)
        for (uint32_t t = 0; t < 64; t++) {
            assert_int_equal(o[(b * 64 + t) * 8 + 0], 1000 * (b ^ 1) + t);
            assert_int_equal(o[(b * 64 + t) * 8 + 1], 1000 * b + (t + 1) % 64);
        }
    teardown(&r);
    ws_desc_free(f);
}

static void test_a_cluster_sum_through_distributed_shared_memory_adds_every_block_of_the_cluster(void **state)
{
    (void)state;
    for (uint32_t size = 1; size <= 8; size *= 2) {
        run_t r;
        setup_from(&r, HOPPER, "cluster_sum", 64);
        r.L.grid[0] = 16;
        r.L.cluster[0] = size;                     /* the cluster size at launch time */
        r.L.cluster[1] = r.L.cluster[2] = 1;
        buf_init(&r, WS_TYPE_UINT, 16 * 64, WS_INIT_INDEX, 0, 0, 0);
        buf_zero(&r, WS_TYPE_UINT, 16);
        run_ok(&r);
        const uint32_t *out = data(&r, 1);
        uint32_t per = size * 64;                  /* inputs per cluster */
        for (uint32_t k = 0; k < 16 / size; k++)   /* index init: cluster k holds k*per .. k*per+per-1 */
            assert_int_equal(out[k], (uint64_t)k * per * per + (uint64_t)per * (per - 1) / 2);
        /* rank 0's thread 0 reads every block's part: size - 1 remote reads per cluster are
           distributed shared memory; its own part through mapa is an ordinary shared load, as
           ncu counts it on the H200 (results/h200-cluster/notes.md) */
        int remote = 0;
        for (int i = 0; i < r.cap.n; i++)
            remote += r.cap.ev[i].dsmem && r.cap.ev[i].op == WS_MEM_LOAD;
        assert_int_equal(remote, (int)((16 / size) * (size - 1)));
        teardown(&r);
    }
    /* sizes the GPU refuses: 16 without 'nonportable', 32 at all */
    run_t r;
    setup_from(&r, HOPPER, "cluster_sum", 64);
    r.L.grid[0] = 32;
    r.L.cluster[0] = 16;
    r.L.cluster[1] = r.L.cluster[2] = 1;
    buf_init(&r, WS_TYPE_UINT, 32 * 64, WS_INIT_INDEX, 0, 0, 0);
    buf_zero(&r, WS_TYPE_UINT, 32);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "at most 8 are portable"));
    ws_sim_result_free(&r.res);
    r.L.cluster_nonportable = true;                /* 16 with the non-portable size */
    run_ok(&r);
    const uint32_t *out = data(&r, 1);
    uint64_t per = 16 * 64;
    for (uint32_t k = 0; k < 2; k++) assert_int_equal(out[k], (uint64_t)k * per * per + per * (per - 1) / 2);
    teardown(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mma_f16_m16n8k16_sums_as_the_h200_through_the_isa_fragment_layouts),
        cmocka_unit_test(test_mma_bf16_and_tf32_sum_as_the_h200_tf32_dropping_13_low_bits),
        cmocka_unit_test(test_mma_reproduces_the_h200s_recorded_outputs_bit_for_bit),
        cmocka_unit_test(test_mma_f16_d_rounds_the_aligned_sum_once_and_a_zero_result_is_positive),
        cmocka_unit_test(test_wmma_m16n16k8_tf32_sums_its_two_k4_halves_in_turn),
        cmocka_unit_test(test_mma_chains_reproduce_the_h200s_every_step),
        cmocka_unit_test(test_mma_int8_m16n8k32_wraps_and_satfinite_saturates),
        cmocka_unit_test(test_mma_f64_m8n8k4_is_four_fused_multiply_adds_per_element),
        cmocka_unit_test(test_an_mma_form_not_implemented_is_refused_by_name_when_reached),
        cmocka_unit_test(test_wmma_row_col_f32_col_row_f16_and_bf16_sum_as_the_h200),
        cmocka_unit_test(test_wmma_of_every_shape_and_type_sums_as_the_h200),
        cmocka_unit_test(test_fragment_layouts_cover_each_element_once_in_the_isa_register_counts),
        cmocka_unit_test(test_fragment_maps_agree_with_the_formula_through_cache_reuse),
        cmocka_unit_test(test_cuda_fp16_bf16_and_fp8_packing_intrinsics_run_as_the_isa_rounds),
        cmocka_unit_test(test_fp8_mma_m16n8k32_equals_the_plain_product),
        cmocka_unit_test(test_ldmatrix_delivers_the_isa_layout_and_costs_the_bank_groups_of_its_rows),
        cmocka_unit_test(test_stmatrix_is_ldmatrix_backwards_with_and_without_trans),
        cmocka_unit_test(test_cp_async_copies_zero_fills_and_costs_its_sectors_and_wavefronts),
        cmocka_unit_test(test_cp_async_ignore_src_zero_fills_and_reads_nothing),
        cmocka_unit_test(test_reading_a_cp_async_destination_before_its_wait_is_an_error_naming_the_copy),
        cmocka_unit_test(test_a_cp_async_refilling_bytes_a_copy_in_flight_writes_is_an_error),
        cmocka_unit_test(test_a_read_of_one_of_nine_groups_in_flight_is_an_error_and_of_the_waited_one_is_not),
        cmocka_unit_test(test_cp_async_is_counted_apart_from_plain_loads_and_stores),
        cmocka_unit_test(test_a_cg_copy_reading_a_sector_again_looks_it_up_again),
        cmocka_unit_test(test_sub_byte_mma_sums_s4_u4_and_b1_as_the_ptx_isa_lays_them_out),
        cmocka_unit_test(test_sub_byte_wmma_computes_the_matrix_product_in_memory),
        cmocka_unit_test(test_mbarrier_phases_complete_when_every_arrival_and_every_byte_is_in),
        cmocka_unit_test(test_an_mbarrier_used_by_another_warp_with_no_barrier_after_its_init_is_an_error),
        cmocka_unit_test(test_a_bulk_copy_lands_on_its_mbarrier_and_a_bulk_store_writes_it_back),
        cmocka_unit_test(test_a_bulk_copy_counts_as_one_tma_load_reading_its_sectors),
        cmocka_unit_test(test_a_bulk_copy_into_shared_takes_no_lsu_data_path_wavefronts),
        cmocka_unit_test(test_a_tma_box_is_laid_out_in_shared_memory_as_each_swizzle_mode_is_documented),
        cmocka_unit_test(test_reading_a_tma_box_before_its_mbarrier_phase_ends_is_an_error),
        cmocka_unit_test(test_tensor_map_rules_are_the_drivers),
        cmocka_unit_test(test_wgmma_with_descriptors_into_a_block_without_shared_memory_faults),
        cmocka_unit_test(test_without_a_cluster_launch_every_block_is_a_cluster_of_one),
        cmocka_unit_test(test_a_cluster_of_two_exchanges_shared_memory_through_mapa_and_cluster_barriers),
        cmocka_unit_test(test_a_cluster_sum_through_distributed_shared_memory_adds_every_block_of_the_cluster),
        cmocka_unit_test(test_racecheck_follows_a_clusters_blocks_together),
        cmocka_unit_test(test_a_multicast_tma_copy_lands_in_every_masked_block_and_completes_each_blocks_mbarrier),
        cmocka_unit_test(test_threads_arrive_on_another_blocks_mbarrier_through_a_mapa_address),
        cmocka_unit_test(test_a_wait_on_another_blocks_mbarrier_is_refused),
        cmocka_unit_test(test_a_try_wait_loops_retries_are_counted_apart_from_its_one_pass),
        cmocka_unit_test(test_a_bulk_copy_to_a_mapa_address_lands_in_that_block_with_its_mbarrier),
        cmocka_unit_test(test_the_cluster_swap_description_launches_the_exchange),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
