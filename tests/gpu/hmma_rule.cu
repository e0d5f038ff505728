/* hmma_rule.cu - records what one mma.sync computes on the GPU present, for inputs chosen to show how
 * the tensor core adds: the order of the k-sum, how many bits of the smaller terms it keeps when it
 * aligns them to the largest, and how it rounds (to nearest or toward zero) the f32 or f16 result.
 * The simulator (sim/interp/exec_mma.c) adds C and the K exact products in double and rounds once; the
 * issue-24 corpus on the H200 differed from that by about one unit in the last place in 28 of 34
 * kernels. scripts/gpu-hmma-rule.sh builds and runs this; results/h200-wgmma/FP8-RULE.md shows how a
 * rule is then found from such records (exact rational arithmetic over the candidates).
 *
 * Forms: f16 x f16 + f32 (m16n8k16), bf16 x bf16 + f32 (m16n8k16), f16 x f16 + f16 (m16n8k16), tf32 x
 * tf32 + f32 (m16n8k8). One warp runs one mma per case: A (16 x K), B (K x 8), C (16 x 8), each D[i][j]
 * a dot product of row i of A and column j of B plus C[i][j]. Case families (build_case below):
 *   0 equal   B = 1, A[i][k] = 2^-(i+8) for all k, C[i][j] = 2^j: 16 equal small terms beside C
 *   1 one     B = 1, A[i][0] = 2^-(i+8), the rest 0, C = 2^j: one term, from 2^-8 to 2^-23 of C = 1
 *   2 neg     as 1 with a negative term: round toward zero shows as C minus one ulp
 *   3 thirds  B = 1, A[i][0] = 3 * 2^-(i+10) (between ulps), C = 2^j
 *   4 split   C = 0, a large term 2^j at k = 0 (j even) or k = K-1 (j odd), 2^-(i+8) at k = 8..15
 *             (the other half of K): whether K is summed in groups, and in which order
 *   5 cancel  B = 1, A[i][0] = 1, A[i][1] = -1, A[i][2] = 2^-(i+8), C = 2^-j: the small term after
 *             cancellation (aligned to the largest product, or summed exactly)
 *   6 mixed   B = 1, A[i][k] = +-2^-(k+i%4) alternating signs, C = 2^j - 2^-(j+12)
 *   7..22     random: A, B uniform in [-1, 1), C in [-1, 1) (the corpus's inputs)
 * Output: the inputs to the file named first (form, case, A|B|C, row, col, bits in hex), then one line
 * per output element on stdout: form, case, i, j, D's bits (hex). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCASES 23
#define KMAX 16

enum { F16_F32, BF16_F32, F16_F16, TF32_F32, NFORMS };
static const char *form_name[NFORMS] = {"f16.f32", "bf16.f32", "f16.f16", "tf32.f32"};
static const int form_k[NFORMS] = {16, 16, 16, 8};

/* A case: A[16][K], B[K][8], C[16][8] as floats (exactly representable in the form's types). */
typedef struct { float a[16][KMAX], b[KMAX][8], c[16][8]; } mcase;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void) /* splitmix64, [0, 1) */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static void build_case(int f, int n, mcase *m)
{
    int K = form_k[f];
    memset(m, 0, sizeof *m);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < 8; j++) m->b[k][j] = 1.0f;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            float cj = ldexpf(1.0f, j);
            switch (n) {
            case 0: for (int k = 0; k < K; k++) m->a[i][k] = ldexpf(1.0f, -(i + 8)); m->c[i][j] = cj; break;
            case 1: m->a[i][0] = ldexpf(1.0f, -(i + 8)); m->c[i][j] = cj; break;
            case 2: m->a[i][0] = -ldexpf(1.0f, -(i + 8)); m->c[i][j] = cj; break;
            case 3: m->a[i][0] = 3.0f * ldexpf(1.0f, -(i + 10)); m->c[i][j] = cj; break;
            case 4:
                m->a[i][(j % 2) ? K - 1 : 0] = cj;
                for (int k = K / 2; k < K; k++)
                    if (!((j % 2) && k == K - 1)) m->a[i][k] = ldexpf(1.0f, -(i + 8));
                m->c[i][j] = 0.0f;
                break;
            case 5: m->a[i][0] = 1.0f; m->a[i][1] = -1.0f; m->a[i][2] = ldexpf(1.0f, -(i + 8));
                    m->c[i][j] = ldexpf(1.0f, -j); break;
            case 6:
                for (int k = 0; k < K; k++) m->a[i][k] = (k % 2 ? -1.0f : 1.0f) * ldexpf(1.0f, -(k + i % 4));
                m->c[i][j] = cj - ldexpf(1.0f, -(j + 12));
                break;
            default: break;
            }
        }
    if (n >= 7) {
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < K; k++) m->a[i][k] = (float)(uniform() * 2 - 1);
        for (int k = 0; k < K; k++)
            for (int j = 0; j < 8; j++) m->b[k][j] = (float)(uniform() * 2 - 1);
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 8; j++) m->c[i][j] = (float)(uniform() * 2 - 1);
    }
}

/* The element types' bits: inputs rounded to the form's type (round to nearest), so what is
 * written to inputs.tsv is exactly what the tensor core multiplied. */
static uint32_t in_bits(int f, float x)
{
    if (f == BF16_F32) { __nv_bfloat16 h = __float2bfloat16_rn(x); uint16_t u; memcpy(&u, &h, 2); return u; }
    if (f == TF32_F32) { uint32_t u; memcpy(&u, &x, 4); return u & 0xffffe000u; } /* exactly tf32 below */
    __half h = __float2half_rn(x);
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static uint32_t c_bits(int f, float x)
{
    if (f == F16_F16) { __half h = __float2half_rn(x); uint16_t u; memcpy(&u, &h, 2); return u; }
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

/* One warp, one mma. A, B, C in bits as in_bits / c_bits lay them (row-major A 16 x K, B K x 8,
 * C 16 x 8); D the same as C. The fragment layouts are the PTX ISA's (mma.m16n8k16 / m16n8k8). */
__global__ void mma_case(int form, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
    int l = threadIdx.x, g = l / 4, t = l % 4;
    if (form == TF32_F32) {
        uint32_t a0 = A[g * 8 + t], a1 = A[(g + 8) * 8 + t], a2 = A[g * 8 + t + 4], a3 = A[(g + 8) * 8 + t + 4];
        uint32_t b0 = B[t * 8 + g], b1 = B[(t + 4) * 8 + g];
        float c0 = __uint_as_float(C[g * 8 + 2 * t]), c1 = __uint_as_float(C[g * 8 + 2 * t + 1]);
        float c2 = __uint_as_float(C[(g + 8) * 8 + 2 * t]), c3 = __uint_as_float(C[(g + 8) * 8 + 2 * t + 1]);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        D[g * 8 + 2 * t] = __float_as_uint(c0);
        D[g * 8 + 2 * t + 1] = __float_as_uint(c1);
        D[(g + 8) * 8 + 2 * t] = __float_as_uint(c2);
        D[(g + 8) * 8 + 2 * t + 1] = __float_as_uint(c3);
        return;
    }
#define P2(r, c) (A[(r) * 16 + (c)] | A[(r) * 16 + (c) + 1] << 16)
    uint32_t a0 = P2(g, 2 * t), a1 = P2(g + 8, 2 * t), a2 = P2(g, 2 * t + 8), a3 = P2(g + 8, 2 * t + 8);
#undef P2
    uint32_t b0 = B[(2 * t) * 8 + g] | B[(2 * t + 1) * 8 + g] << 16;
    uint32_t b1 = B[(2 * t + 8) * 8 + g] | B[(2 * t + 9) * 8 + g] << 16;
    if (form == F16_F16) {
        uint32_t c0 = C[g * 8 + 2 * t] | C[g * 8 + 2 * t + 1] << 16;
        uint32_t c1 = C[(g + 8) * 8 + 2 * t] | C[(g + 8) * 8 + 2 * t + 1] << 16;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                     : "+r"(c0), "+r"(c1)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        D[g * 8 + 2 * t] = c0 & 0xffff;
        D[g * 8 + 2 * t + 1] = c0 >> 16;
        D[(g + 8) * 8 + 2 * t] = c1 & 0xffff;
        D[(g + 8) * 8 + 2 * t + 1] = c1 >> 16;
        return;
    }
    float c0 = __uint_as_float(C[g * 8 + 2 * t]), c1 = __uint_as_float(C[g * 8 + 2 * t + 1]);
    float c2 = __uint_as_float(C[(g + 8) * 8 + 2 * t]), c3 = __uint_as_float(C[(g + 8) * 8 + 2 * t + 1]);
    if (form == BF16_F32)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    D[g * 8 + 2 * t] = __float_as_uint(c0);
    D[g * 8 + 2 * t + 1] = __float_as_uint(c1);
    D[(g + 8) * 8 + 2 * t] = __float_as_uint(c2);
    D[(g + 8) * 8 + 2 * t + 1] = __float_as_uint(c3);
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "hmma_rule: %s: %s\n", #x, cudaGetErrorString(e_)); return 4; } } while (0)

/* The bits of case n of form f: A (16 x K), B (K x 8), C (16 x 8), as the kernel reads them. */
static void case_bits(int f, int n, uint32_t *A, uint32_t *B, uint32_t *C)
{
    static mcase m;
    int K = form_k[f];
    build_case(f, n, &m);
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < K; k++) A[i * K + k] = in_bits(f, m.a[i][k]);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < 8; j++) B[k * 8 + j] = in_bits(f, m.b[k][j]);
    for (int i = 0; i < 128; i++) C[i] = c_bits(f, m.c[i / 8][i % 8]);
}

/* hmma_rule INPUTS.tsv [--inputs-only]: the inputs to INPUTS.tsv (all of them first, without a GPU,
 * so the analysis can be tried here), then, unless --inputs-only, the outputs to stdout. */
int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: hmma_rule INPUTS.tsv [--inputs-only]\n"); return 2; }
    FILE *inp = fopen(argv[1], "w");
    if (!inp) { perror(argv[1]); return 2; }
    static uint32_t A[NFORMS][NCASES][16 * KMAX], B[NFORMS][NCASES][KMAX * 8], C[NFORMS][NCASES][128];
    fprintf(inp, "form\tcase\tmatrix\trow\tcol\tbits\n");
    for (int f = 0; f < NFORMS; f++)
        for (int n = 0; n < NCASES; n++) {
            int K = form_k[f];
            case_bits(f, n, A[f][n], B[f][n], C[f][n]);
            for (int i = 0; i < 16 * K; i++)
                fprintf(inp, "%s\t%d\tA\t%d\t%d\t%08x\n", form_name[f], n, i / K, i % K, A[f][n][i]);
            for (int i = 0; i < K * 8; i++)
                fprintf(inp, "%s\t%d\tB\t%d\t%d\t%08x\n", form_name[f], n, i / 8, i % 8, B[f][n][i]);
            for (int i = 0; i < 128; i++)
                fprintf(inp, "%s\t%d\tC\t%d\t%d\t%08x\n", form_name[f], n, i / 8, i % 8, C[f][n][i]);
        }
    fclose(inp);
    if (argc > 2 && !strcmp(argv[2], "--inputs-only")) return 0;
    uint32_t *dA, *dB, *dC, *dD;
    CK(cudaMalloc(&dA, 16 * KMAX * 4));
    CK(cudaMalloc(&dB, KMAX * 8 * 4));
    CK(cudaMalloc(&dC, 16 * 8 * 4));
    CK(cudaMalloc(&dD, 16 * 8 * 4));
    printf("form\tcase\ti\tj\td_bits\n");
    for (int f = 0; f < NFORMS; f++)
        for (int n = 0; n < NCASES; n++) {
            uint32_t D[128];
            CK(cudaMemcpy(dA, A[f][n], sizeof A[f][n], cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dB, B[f][n], sizeof B[f][n], cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dC, C[f][n], sizeof C[f][n], cudaMemcpyHostToDevice));
            mma_case<<<1, 32>>>(f, dA, dB, dC, dD);
            CK(cudaGetLastError());
            CK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
            for (int i = 0; i < 128; i++) printf("%s\t%d\t%d\t%d\t%08x\n", form_name[f], n, i / 8, i % 8, D[i]);
        }
    return 0;
}
