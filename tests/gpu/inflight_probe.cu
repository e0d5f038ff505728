/* inflight_probe.cu - which L2 partition does an SM's read enter, which is a line's home, and is a
 * lookup that finds its line's fill still in flight a hit or a miss (issue 23: the "in-flight L2
 * misses" rows; sim/models/cache.h "Far lookups"; scripts/gpu-inflight.sh runs it under ncu,
 * `warpscope sim tests/gpu/inflight_probe.cu:k_inflight -D SM_A=0 -D SM_B=2 ...` models it).
 *
 * Why: the GPU counts up to 1.6x the L2 read lookup misses it has DRAM sectors for
 * (lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum against dram__bytes_read.sum / 32: mmaNaiveKernel
 * 13,240 vs 8,192, matmul_tiled16 6,228 vs 4,096). Two readings: (1) far lookups: a read enters its
 * SM's partition, which keeps its own copy of lines homed in the other one, so a line read from both
 * sides misses in each (the second one's miss crosses the L2 fabric: lts__t_sectors_srcunit_ltcfabric);
 * (2) in-flight misses: a lookup that finds the line's fill still coming from DRAM counts as a miss.
 * The model takes (1) with stand-ins for both maps (an SM's partition: sm / 2 % 2; a line's home: the
 * parity of its line number's bits); this probe decides (1) against (2) and tests both stand-ins.
 *
 *   k_inflight  one block of 128 threads per SM (the dynamic shared memory, unused, keeps it one);
 *               the block on SM_A and the one on SM_B (by %smid; -1: none) read NLINES whole lines
 *               of S with ld.global.cg (no L1), after spinning DELAY_A / DELAY_B cycles; the rest
 *               exit. SEL picks the lines: 0 the first NLINES, 1 even line numbers only, 2 odd
 *               ones, 3 lines whose address bits (the line number's) have even parity, 4 odd
 *               parity. REREAD > 0: SM_A reads them again REREAD - 1 cycles after its first pass
 *               (1: at once, without waiting for the data).
 * Expected under (1), for SEL 0 and DELAY_B well past the fills (100,000 cycles): SM_B in SM_A's
 * partition: read lookup misses = 4 x NLINES, hits 4 x NLINES; SM_B in the other partition: ~1.5 x
 * that many misses (a line homed on SM_A's side misses again on SM_B's; one homed on SM_B's was
 * filled there by SM_A's fabric miss), fabric sectors ~4 x NLINES. Under (2) alone SM_B's reads hit
 * wherever it is, and only DELAY_B = 0 adds misses. SEL 1-4 with SM_B on the other side: the line
 * sets a home map puts all on one side give 2x or 1x, mixed ones 1.5x.
 * Run: probe SM_A SM_B NLINES SEL DELAY_A DELAY_B REREAD (prints the SMs the two roles ran on, "ok"). */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "probe_check.h"

/*@warpscope
kernel  k_inflight
note    the blocks on SM_A and SM_B read the same NLINES lines (.cg), SM_B after DELAY_B cycles
param   SM_A = 0
param   SM_B = 2
param   NLINES = 4096
param   SEL = 0
param   DELAY_A = 0
param   DELAY_B = 100000
param   REREAD = 0
buffer  S  uint  NLINES * 2 * 32 + 32  init=random(1, 0, 1000)
buffer  O  uint  132 * 128  init=zero  output
grid    132
block   128
shared  200 * 1024
args    S, NLINES, SEL, SM_A, SM_B, DELAY_A, DELAY_B, REREAD, O
*/

/* A load the compiler may not merge with the same address's other load. */
__device__ __forceinline__ unsigned ld_cg(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

__device__ __forceinline__ void spin(unsigned cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < (long long)cycles)
        ;
}

/* The k-th line of the selection, as a line index into S (S's first line aligned to 128 B by the
 * caller): among lines 2m and 2m+1 exactly one has each parity of its line number's bits. */
__device__ __forceinline__ unsigned long long pick(const unsigned *S, unsigned k, unsigned sel)
{
    unsigned long long base = (unsigned long long)S / 128;
    switch (sel) {
    case 1: return 2ull * k + (base & 1);           /* even line numbers */
    case 2: return 2ull * k + 1 - (base & 1);       /* odd line numbers */
    case 3:
    case 4: {
        unsigned long long even = 2ull * k + (base & 1); /* S + even is an even line number */
        int p = __popcll(base + even) & 1;
        return (p == (sel == 4 ? 1 : 0)) ? even : even + 1;
    }
    default: return k;
    }
}

__device__ unsigned pass(const unsigned *S, unsigned nlines, unsigned sel)
{
    unsigned acc = 0, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (unsigned k = warp; k < nlines; k += blockDim.x / 32)
        acc += ld_cg(S + pick(S, k, sel) * 32 + lane); /* a warp: the whole 128-B line */
    return acc;
}

__global__ void k_inflight(const unsigned *S, unsigned nlines, unsigned sel, int sm_a, int sm_b, unsigned delay_a,
                           unsigned delay_b, unsigned reread, unsigned *O)
{
    unsigned sm, nsm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    if (nsm == 1)
        sm = blockIdx.x; /* the simulator (its %smid is 0, %nsmid 1): block b runs on SM b there */
    unsigned acc = 0;
    if ((int)sm == sm_a) {
        spin(delay_a);
        acc = pass(S, nlines, sel);
        if (reread) {
            spin(reread - 1);
            acc += pass(S, nlines, sel);
        }
    } else if ((int)sm == sm_b) {
        spin(delay_b);
        acc = pass(S, nlines, sel);
    } else
        return;
    O[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc + sm; /* keeps the loads; says where it ran */
}

#ifndef __WARPSCOPE__
int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: %s SM_A SM_B NLINES SEL DELAY_A DELAY_B REREAD\n", argv[0]);
        return 2;
    }
    int sm_a = atoi(argv[1]), sm_b = atoi(argv[2]);
    unsigned nlines = (unsigned)strtoul(argv[3], NULL, 0), sel = (unsigned)strtoul(argv[4], NULL, 0);
    unsigned delay_a = (unsigned)strtoul(argv[5], NULL, 0), delay_b = (unsigned)strtoul(argv[6], NULL, 0);
    unsigned reread = (unsigned)strtoul(argv[7], NULL, 0);
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (nlines < 1 || sel > 4 || sm_a >= sms || sm_b >= sms)
        return 2;
    size_t smem = 200 * 1024, bytes = ((size_t)nlines * 2 + 1) * 128;
    unsigned *S, *O;
    CHECK(cudaMalloc(&S, bytes)); /* cudaMalloc is 256-B aligned: S's first line is line-aligned */
    CHECK(cudaMalloc(&O, (size_t)sms * 128 * sizeof(unsigned)));
    CHECK(cudaMemset(S, 1, bytes));
    CHECK(cudaMemset(O, 0xFF, (size_t)sms * 128 * sizeof(unsigned)));
    CHECK(cudaFuncSetAttribute(k_inflight, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    k_inflight<<<(unsigned)sms, 128, smem>>>(S, nlines, sel, sm_a, sm_b, delay_a, delay_b, reread, O);
    CHECK(cudaDeviceSynchronize());
    unsigned *h = (unsigned *)malloc((size_t)sms * 128 * sizeof *h);
    CHECK(cudaMemcpy(h, O, (size_t)sms * 128 * sizeof *h, cudaMemcpyDeviceToHost));
    int ran = 0;
    for (int b = 0; b < sms; b++)
        if (h[(size_t)b * 128] != 0xFFFFFFFFu)
            ran++;
    /* every byte of S is 1: a pass sums 0x01010101 per line per lane; the rest is the SM id */
    printf("sm_a %d sm_b %d blocks that read %d (want %d)\nok\n", sm_a, sm_b, ran, (sm_a >= 0) + (sm_b >= 0 && sm_b != sm_a));
    free(h);
    return 0;
}
#endif
