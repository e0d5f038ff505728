/* ldgsts_rule.cu - cp.async (LDGSTS) patterns that vary one thing at a time, to find the H200's
 * shared-write wavefront and bank-conflict rule (sim/models/banks.h ws_banks_ldgsts, docs/memory-models.md
 * "The LDGSTS shared-side rule"). The issue-24 corpus showed the store rule both too low
 * (cs_async_SingleStage: 1 conflict an instruction where it has 0; myHGEMMAlignedV2..V5: 2048 where it has
 * 1024) and too high (wmmaAsync*: 0 where it has 4); these separate the candidates: .ca against .cg, a
 * src-size operand or not, how many global lines a quarter-warp reads, bank conflicts between them, a
 * shared destination that crosses a 128-byte row. One warp a block, W blocks, one cp.async each lane:
 * lane l copies SIZE bytes from in + block*4096 + (l / LPR) * GSTRIDE + (l % LPR) * SIZE to shared
 * DOFF + (l / LPR) * DROW + (l % LPR) * SIZE, then copies them out (the output check).
 * scripts/gpu-ldgsts-rule.sh runs `check` on every kernel here. */

template <int CA, int ZF, int SIZE>
__device__ __forceinline__ void cp_async_form(unsigned s, const void *g)
{
    if (CA && ZF)
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(g), "n"(SIZE), "r"(SIZE) : "memory");
    else if (CA)
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(g), "n"(SIZE) : "memory");
    else if (ZF)
        asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(g), "n"(SIZE), "r"(SIZE) : "memory");
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(g), "n"(SIZE) : "memory");
}

/*@warpscope
kernel  ldr_ca4_rows2
entry   ldgsts_rule<1, 0, 4>
note    4 B .ca, two global rows 1 KiB apart (a half-warp each), 128 contiguous shared bytes (cs_async_SingleStage).
param   LPR = 16
param   GSTRIDE = 1024
param   DROW = 64
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*4  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_ca4_rows2_zfill
entry   ldgsts_rule<1, 1, 4>
note    the same with a src-size operand (LDGSTS.E.ZFILL).
param   LPR = 16
param   GSTRIDE = 1024
param   DROW = 64
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*4  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_ca4_2lines_adj
entry   ldgsts_rule<1, 0, 4>
note    4 B .ca, two adjacent global lines (64 B of each), 128 contiguous shared bytes.
param   LPR = 16
param   GSTRIDE = 128
param   DROW = 64
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*4  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_ca4_contig
entry   ldgsts_rule<1, 0, 4>
note    4 B .ca, one global line, 128 contiguous shared bytes, no src-size.
param   LPR = 32
param   GSTRIDE = 128
param   DROW = 128
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*4  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_cg16_rows80
entry   ldgsts_rule<0, 0, 16>
note    16 B .cg, 8 global rows of 64 B, shared rows 80 B apart (wmmaAsync*).
param   LPR = 4
param   GSTRIDE = 512
param   DROW = 80
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_ca16_rows80
entry   ldgsts_rule<1, 0, 16>
note    the same as .ca.
param   LPR = 4
param   GSTRIDE = 512
param   DROW = 80
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_cg16_rows64
entry   ldgsts_rule<0, 0, 16>
note    16 B .cg, 8 global rows of 64 B, shared rows 64 B apart (two lines a quarter-warp, no bank shared).
param   LPR = 4
param   GSTRIDE = 512
param   DROW = 64
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_ca16_rows64
entry   ldgsts_rule<1, 0, 16>
note    the same as .ca.
param   LPR = 4
param   GSTRIDE = 512
param   DROW = 64
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_ca16_rows160
entry   ldgsts_rule<1, 0, 16>
note    16 B .ca, 8 global rows of 64 B, shared rows 160 B apart (myHGEMMAlignedV2 A).
param   LPR = 4
param   GSTRIDE = 512
param   DROW = 160
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_cg16_rows160
entry   ldgsts_rule<0, 0, 16>
note    the same as .cg.
param   LPR = 4
param   GSTRIDE = 512
param   DROW = 160
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_ca16_off64
entry   ldgsts_rule<1, 0, 16>
note    16 B .ca, 512 contiguous bytes both sides, shared start 64 B into a 128-B row (myHGEMMAlignedV2 B).
param   LPR = 32
param   GSTRIDE = 512
param   DROW = 512
param   DOFF = 64
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_cg16_off64
entry   ldgsts_rule<0, 0, 16>
note    the same as .cg.
param   LPR = 32
param   GSTRIDE = 512
param   DROW = 512
param   DOFF = 64
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
/*@warpscope
kernel  ldr_cg16_rows80_zfill
entry   ldgsts_rule<0, 1, 16>
note    16 B .cg rows 80 B apart with a src-size operand (ZFILL).
param   LPR = 4
param   GSTRIDE = 512
param   DROW = 80
param   DOFF = 0
param   W = 8
buffer  in   uchar  W*4096  init=index
buffer  out  uchar  W*32*16  init=zero  output
grid    W
block   32
args    in, out, LPR, GSTRIDE, DROW, DOFF
*/
template <int CA, int ZF, int SIZE>
__global__ void ldgsts_rule(const unsigned char *in, unsigned char *out, int lpr, int gstride, int drow, int doff)
{
    __shared__ __align__(128) unsigned char s[8192];
    int lane = threadIdx.x;
    const unsigned char *src = in + (size_t)blockIdx.x * 4096 + (lane / lpr) * gstride + (lane % lpr) * SIZE;
    int d = doff + (lane / lpr) * drow + (lane % lpr) * SIZE;
    cp_async_form<CA, ZF, SIZE>((unsigned)__cvta_generic_to_shared(s + d), src);
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    for (int b = 0; b < SIZE; b++)
        out[((size_t)blockIdx.x * 32 + lane) * SIZE + b] = s[d + b];
}

/* the forms above, instantiated for the PTX (the descriptions name them) */
template __global__ void ldgsts_rule<1, 0, 4>(const unsigned char *, unsigned char *, int, int, int, int);
template __global__ void ldgsts_rule<1, 1, 4>(const unsigned char *, unsigned char *, int, int, int, int);
template __global__ void ldgsts_rule<0, 0, 16>(const unsigned char *, unsigned char *, int, int, int, int);
template __global__ void ldgsts_rule<1, 0, 16>(const unsigned char *, unsigned char *, int, int, int, int);
template __global__ void ldgsts_rule<0, 1, 16>(const unsigned char *, unsigned char *, int, int, int, int);
